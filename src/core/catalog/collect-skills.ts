import type { Diagnostic } from "../diagnostic.js";
import { inspectSkill, type InspectSkillResult } from "../skill-file/inspect-skill.js";
import { baseName, parentFolder } from "../text/path-separator.js";
import { compareCodePoints } from "../text/python-text.js";
import { markInNameOrder } from "./name-order.js";
import { isSameSkill, sameSkillDiagnostic } from "./same-skill.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { MAX_SKILL_FILE_BYTES } from "../skill-source.js";

/**
 * A source's skills from its inspected `SKILL.md` files, in order: of two skills with one name
 * the first wins and the second is skipped with an error naming both files. When both are the
 * same file, one reached through a symbolic link, the skill is listed once, by the path that is
 * no link, and the other gets a `same-skill` info. Every file's
 * diagnostics are appended to `diagnostics`.
 */
export function collectSkills(
  results: Iterable<InspectSkillResult>,
  source: string,
  diagnostics: Diagnostic[],
): SkillMetadata[] {
  const collector = new SkillCollector(source, diagnostics);
  for (const result of results) collector.add(result);
  return collector.done();
}

/**
 * {@link collectSkills} one file at a time, for a source that pauses between files: 100,000
 * skills held the event loop for 15 ms or more.
 */
export class SkillCollector {
  readonly #skills: SkillMetadata[] = [];
  // Built only once a name does not sort after the one before: until then no name can repeat,
  // and a folder's skills, named after their folders and read in name order, nearly always come so.
  #seen: Map<string, SkillMetadata> | undefined;
  readonly #source: string;
  readonly #diagnostics: Diagnostic[];

  constructor(source: string, diagnostics: Diagnostic[]) {
    this.#source = source;
    this.#diagnostics = diagnostics;
  }

  add(result: Pick<InspectSkillResult, "skill"> & { readonly diagnostics: readonly Diagnostic[] }): void {
    const skills = this.#skills;
    const diagnostics = this.#diagnostics;
    if (result.diagnostics.length > 0) diagnostics.push(...result.diagnostics);
    const skill = result.skill;
    if (!skill) return;
    if (this.#seen === undefined) {
      // By code point, the snapshot's order: the catalog then need not check it again.
      const last = skills[skills.length - 1];
      if (last === undefined || compareCodePoints(last.name, skill.name) < 0) {
        skills.push(skill);
        return;
      }
      this.#seen = new Map(skills.map((known) => [known.name, known]));
    }
    const seen = this.#seen;
    const earlier = seen.get(skill.name);
    if (earlier && isSameSkill(earlier, skill)) {
      // Listed once: by the path that is no link when there is one, else by the first found.
      if (earlier.realPath === undefined || skill.realPath !== undefined)
        diagnostics.push(sameSkillDiagnostic(skill, earlier));
      else {
        skills[skills.indexOf(earlier)] = skill;
        seen.set(skill.name, skill);
        diagnostics.push(sameSkillDiagnostic(earlier, skill));
      }
      return;
    }
    if (earlier) {
      diagnostics.push({
        severity: "error",
        code: "duplicate-name",
        file: skill.path,
        skill: skill.name,
        source: this.#source,
        message: `Skill name '${skill.name}' is already used by ${earlier.path} in the same source; skipped`,
      });
      return;
    }
    seen.set(skill.name, skill);
    skills.push(skill);
  }

  /** The skills collected; add nothing after. */
  done(): SkillMetadata[] {
    if (this.#seen === undefined) markInNameOrder(this.#skills);
    return this.#skills;
  }
}

/**
 * Inspects a whole `SKILL.md` given as bytes (or text): too large or not UTF-8 gives an error
 * diagnostic, anything else is {@link inspectSkill}, with the folder name taken from the path.
 */
export function inspectSkillFile(content: Uint8Array | string, file: string, source: string): InspectSkillResult {
  const fail = (code: string, message: string): InspectSkillResult => ({
    diagnostics: [{ severity: "error", code, file, message, source }],
  });
  const size = typeof content === "string" ? content.length : content.byteLength;
  if (size > MAX_SKILL_FILE_BYTES)
    return fail("too-large", `${file} exceeds the maximum size (${MAX_SKILL_FILE_BYTES} bytes)`);
  let text: string;
  try {
    text =
      typeof content === "string"
        ? content
        : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(content);
  } catch {
    return fail("not-utf8", `${file} is not valid UTF-8`);
  }
  return inspectSkill({ text, file, directoryName: baseName(parentFolder(file)), source });
}
