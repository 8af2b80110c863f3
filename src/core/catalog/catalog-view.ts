import type { CatalogSnapshot } from "./catalog.js";
import { nextTurn } from "../event-loop-turn.js";
import { createContentHasher } from "../text/content-hash.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

/** What the middleware derives from one catalog snapshot, computed once per snapshot. */
export interface CatalogView {
  skills: SkillMetadata[];
  /** Content hash of `skills` as JSON; equal across processes for equal catalogs. */
  version: string;
  /** The skills by name. */
  byName: ReadonlyMap<string, SkillMetadata>;
}

const views = new WeakMap<CatalogSnapshot, Promise<CatalogView>>();

/** The view of a snapshot, memoised: an unchanged catalog costs a WeakMap lookup. */
export function catalogView(snapshot: CatalogSnapshot): Promise<CatalogView> {
  let view = views.get(snapshot);
  if (!view) views.set(snapshot, (view = viewOf(snapshot)));
  return view;
}

// Skills hashed between two turns of the event loop: at 100,000 skills, the catalog's JSON is
// 42 million characters, which took 200 ms to write and hash in one go.
const SLICE = 2000;

// The hash of JSON.stringify(skills), written and hashed skill by skill, and the map of names,
// made in the same slices (in one go, it held the event loop for 20 ms at 100,000 skills).
async function viewOf(snapshot: CatalogSnapshot): Promise<CatalogView> {
  const skills = [...snapshot.skills];
  const byName = new Map<string, SkillMetadata>();
  const hasher = createContentHasher().update("[");
  for (let at = 0; at < skills.length; at++) {
    if (at > 0) {
      hasher.update(",");
      if (at % SLICE === 0) await nextTurn();
    }
    const skill = skills[at]!;
    hasher.update(JSON.stringify(skill));
    byName.set(skill.name, skill);
  }
  return { skills, version: hasher.update("]").digest(), byName };
}
