import type { CatalogSnapshot } from "./catalog.js";
import type { SkillMetadata } from "./skill-metadata.js";

/** What the middleware derives from one catalog snapshot, computed once per snapshot. */
export interface CatalogView {
  skills: SkillMetadata[];
  /** Content hash of `skills`; equal across processes for equal catalogs. */
  version: string;
}

const views = new WeakMap<CatalogSnapshot, CatalogView>();

/** The view of a snapshot, memoised: an unchanged catalog costs a WeakMap lookup. */
export function catalogView(snapshot: CatalogSnapshot): CatalogView {
  let view = views.get(snapshot);
  if (!view) {
    const skills = [...snapshot.skills];
    view = { skills, version: contentHash(JSON.stringify(skills)) };
    views.set(snapshot, view);
  }
  return view;
}

// Two 32-bit FNV-1a hashes with different seeds, plus the length: stable across processes and
// fast enough for a catalog that is hashed once per change.
function contentHash(text: string): string {
  let first = 0x811c9dc5;
  let second = 0x2f1e3d4c;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x01000193) ^ (second >>> 13);
  }
  return `${(first >>> 0).toString(16)}${(second >>> 0).toString(16)}:${text.length}`;
}
