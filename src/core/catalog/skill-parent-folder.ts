import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// The catalog groups skills by the folder that holds their folder. Read from 100,000 paths spread
// over the heap, that costs a cache miss per skill at every render; a reader that has the path at
// hand notes the folder on the skill instead, one string shared by the skills of a folder, which
// the render compares by identity.
//
// The note is a private field stamped onto the skill: `new` of a class whose base constructor
// returns the object given adds the subclass's field to that object. Copies, JSON, enumeration and
// `toEqual` do not see it, and a copy (which may change the path) falls back to reading the path.
// It costs some 6 ns a skill; a non-enumerable symbol property (`defineProperty`) cost 160 ns,
// 5% of a cold discovery of 100,000 skills.
class ReturnsGiven {
  constructor(object: object) {
    return object; // the object given is the one noted
  }
}

class ParentFolderNote extends ReturnsGiven {
  readonly #parent: string;

  private constructor(skill: SkillMetadata, parent: string) {
    super(skill);
    this.#parent = parent;
  }

  static note(skill: SkillMetadata, parent: string): void {
    // An object that cannot be extended is left alone: engines that follow the proposal to
    // make that apply to private fields would refuse the stamp.
    if (!(#parent in skill) && Object.isExtensible(skill)) new ParentFolderNote(skill, parent);
  }

  static of(skill: SkillMetadata): string | undefined {
    return #parent in skill ? (skill as unknown as ParentFolderNote).#parent : undefined;
  }
}

/** The folder that holds a skill's folder (its path less two segments), with `/` separators. */
export function parentOf(path: string): string {
  return parentKey(path) ?? "";
}

/** {@link parentOf}, or undefined for a path of fewer than two separators (its parent has no segments). */
export function parentKey(path: string): string | undefined {
  const slashes = path.includes("\\") ? path.replace(/\\/g, "/") : path;
  const end = slashes.lastIndexOf("/");
  const cut = end > 0 ? slashes.lastIndexOf("/", end - 1) : -1;
  return cut < 0 ? undefined : slashes.slice(0, cut);
}

/**
 * Whether `path` is `parent/<folder>/<file>`, with no backslash past `parent` (which has none):
 * then `parentOf(path)` is `parent`. Told by forward searches, with no copy (lastIndexOf is a call
 * into the runtime, several times slower over 100,000 paths). False does not say it is not.
 */
export function inFolder(path: string, parent: string): boolean {
  const at = parent.length;
  if (path.charCodeAt(at) !== SLASH || !path.startsWith(parent)) return false;
  const last = path.indexOf("/", at + 1);
  return last > 0 && path.indexOf("/", last + 1) < 0 && path.indexOf("\\", at) < 0;
}

const SLASH = 0x2f;

/**
 * Notes on skills the folder that holds their folder, `parentOf(skill.path)`, as one string per
 * folder: the last skill's when the next lies in the same folder (a reader's usual order, told
 * without a copy), else the string first noted for that folder. A skill keeps its first note; a
 * path of fewer than two separators gets none, and so does a skill that cannot be extended (frozen).
 */
export class ParentFolderNotes {
  #last: string | undefined;
  readonly #known = new Map<string, string>();

  note(skill: SkillMetadata): void {
    let parent = this.#last;
    if (parent === undefined || !inFolder(skill.path, parent)) {
      const key = parentKey(skill.path);
      if (key === undefined) return;
      parent = this.#known.get(key);
      if (parent === undefined) this.#known.set(key, (parent = key));
      this.#last = parent;
    }
    ParentFolderNote.note(skill, parent);
  }
}

/** The folder noted on `skill` by {@link ParentFolderNotes}, which is `parentOf(skill.path)`; else undefined. */
export function notedParentFolder(skill: SkillMetadata): string | undefined {
  return ParentFolderNote.of(skill);
}
