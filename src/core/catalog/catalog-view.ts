import type { CatalogSnapshot } from "./catalog.js";
import { contentHash } from "../text/content-hash.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

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
