import type { Diagnostic } from "../../core/diagnostic.js";
import type { SkillSourceScan } from "../../core/skill-source.js";
import { SkillsetError } from "../../errors/skillset-error.js";

/** What a snapshot source says about its store; each diagnostic names the store and the snapshot's key. */
export interface SnapshotNotes {
  /** The snapshot could not be used, so the library was scanned. */
  unusableSnapshot(problem: string, newer: boolean): Diagnostic;
  /** A correction could not be used, so its skill's entry is the snapshot's. */
  unusableCorrection(problem: string): Diagnostic;
  /**
   * The store (or the library behind it) does not answer: what this process served before, or
   * an empty catalog, with an error that says why; the next scan asks again.
   */
  unavailable(error: unknown, served: SkillSourceScan | undefined): SkillSourceScan;
}

/** The notes of the snapshot of `source` (its folder `root`) kept under `key` in the store `storeName`. */
export function snapshotNotes(storeName: string, key: string, source: string, root: string): SnapshotNotes {
  const note = (severity: Diagnostic["severity"], code: string, message: string): Diagnostic => ({
    severity,
    code,
    file: `${storeName}:${key}`,
    message,
    source,
  });
  return {
    unusableSnapshot: (problem, newer) =>
      note(
        "warning",
        "snapshot-unusable",
        `The catalog snapshot in ${storeName} is unusable (${problem}); ${
          newer
            ? "this worker scanned the library itself and leaves the snapshot to the newer skillset"
            : "the library was scanned and its snapshot written again"
        }`,
      ),
    unusableCorrection: (problem) =>
      note(
        "warning",
        "snapshot-unusable",
        `The catalog snapshot in ${storeName} has an unusable correction (${problem}); it is ignored until that skill is loaded or refreshed again`,
      ),
    unavailable(error, served) {
      const message =
        SkillsetError.isInstance(error) && error.code === "store-unavailable"
          ? `${error.message}; the next scan tries again`
          : `Cannot scan ${root} through ${storeName}: ${error instanceof Error ? error.message : String(error)}`;
      const problem = note("error", "store-unavailable", message);
      if (served) return { ...served, diagnostics: [...served.diagnostics, problem] };
      return { version: `${source}#unavailable`, skills: [], diagnostics: [problem] };
    },
  };
}
