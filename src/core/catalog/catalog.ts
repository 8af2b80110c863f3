import type { Diagnostic } from "../diagnostic.js";
import { sortInSlices } from "../text/sort-in-slices.js";
import { createTimeSlice } from "../time-slice.js";
import { inNameOrder } from "./name-order.js";
import { isSameSkill, sameSkillDiagnostic } from "./same-skill.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../skill-source.js";

/** The merged view of every source at one moment. Treat it as immutable. */
export interface CatalogSnapshot {
  /** The skills that won, sorted by name: the stable order the prompt uses. */
  skills: readonly SkillMetadata[];
  /**
   * Skills hidden by a later source's skill of the same name. A skill that is the same file as
   * the later one (reached through a symbolic link) is not hidden but the same skill: it is in
   * neither list, and a `same-skill` info diagnostic names it.
   */
  shadowed: readonly SkillMetadata[];
  /** Every problem from every source, plus one `shadowed` info per hidden skill and one `same-skill` info per other path to a listed skill. */
  diagnostics: readonly Diagnostic[];
  /** Changes whenever anything above does; equal versions mean an identical snapshot. */
  version: string;
  /** Looks a skill up by name. */
  get(name: string): SkillMetadata | undefined;
}

/** Skills from several sources, merged in order: a later source wins by name. */
export interface Catalog {
  readonly sources: readonly SkillSource[];
  /** Re-scans the sources; returns the previous snapshot itself when none of them changed. */
  refresh(): Promise<CatalogSnapshot>;
  /** Closes every source that holds watchers. */
  close(): void;
}

/** Creates a {@link Catalog} over `sources`, in precedence order (last wins). */
export function createCatalog(sources: readonly SkillSource[]): Catalog {
  let snapshot: CatalogSnapshot | undefined;
  // Merging pauses, so refreshes may overlap: one merge per version, and the snapshot kept is
  // that of the refresh that started last among those that finished.
  let merging: { version: string; snapshot: Promise<CatalogSnapshot> } | undefined;
  let started = 0;
  let kept = 0;
  return {
    sources,
    async refresh() {
      const ticket = ++started;
      const scans = await Promise.all(sources.map((source) => source.scan()));
      const version = scans.map((scan) => scan.version).join("|");
      if (snapshot?.version === version) return snapshot;
      if (merging?.version !== version) merging = { version, snapshot: mergeScans(scans, version) };
      const merged = await merging.snapshot;
      if (ticket > kept) {
        kept = ticket;
        snapshot = merged;
      }
      return merged;
    },
    close() {
      for (const source of sources) source.close?.();
    },
  };
}

// The longest the merge holds the event loop: 100,000 skills from folders out of name order
// (collections of many repositories) took 110 ms to merge and sort in one go.
const SLICE_MS = 5;

/** Merges source scans in order; a later scan's skill replaces an earlier one of the same name. */
async function mergeScans(scans: readonly SkillSourceScan[], version: string): Promise<CatalogSnapshot> {
  // One source whose names are in order already (a local folder's nearly always are) has nothing
  // to merge: no map of names unless someone looks a skill up.
  const only = scans.length === 1 ? scans[0] : undefined;
  if (only && inNameOrder(only.skills)) {
    const skills = [...only.skills];
    let byName: Map<string, SkillMetadata> | undefined;
    const get = (name: string) => (byName ??= new Map(skills.map((skill) => [skill.name, skill]))).get(name);
    return { skills, shadowed: [], diagnostics: [...only.diagnostics], version, get };
  }
  const slice = createTimeSlice(SLICE_MS);
  const winners = new Map<string, SkillMetadata>();
  const shadowed: SkillMetadata[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const scan of scans) {
    // Not push(...list): a source with some 100,000 diagnostics would overflow the stack.
    for (const diagnostic of scan.diagnostics) diagnostics.push(diagnostic);
    for (const skill of scan.skills) {
      if (slice.due()) await slice.pause();
      const earlier = winners.get(skill.name);
      if (earlier && isSameSkill(earlier, skill)) {
        // The same file through another path: listed once, from the later source as always.
        diagnostics.push(sameSkillDiagnostic(earlier, skill));
      } else if (earlier) {
        shadowed.push(earlier);
        diagnostics.push({
          severity: "info",
          code: "shadowed",
          file: earlier.path,
          skill: earlier.name,
          source: earlier.source,
          message: `Skill '${skill.name}' is shadowed by ${skill.path} from ${skill.source}`,
        });
      }
      winners.set(skill.name, skill);
    }
  }
  const names = await sortInSlices(
    [...winners.keys()],
    () => slice.due(),
    () => slice.pause(),
    "code-points",
  );
  const skills = new Array<SkillMetadata>(names.length);
  for (let at = 0; at < names.length; at++) {
    if (slice.due()) await slice.pause();
    skills[at] = winners.get(names[at]!)!;
  }
  return { skills, shadowed, diagnostics, version, get: (name) => winners.get(name) };
}
