import type { Diagnostic } from "../diagnostic.js";
import type { InspectSkillResult } from "../skill-file/inspect-skill.js";
import { canonicalJson } from "../text/canonical-json.js";
import { sha256Hex } from "../text/sha256-hex.js";
import { collectSkills } from "./collect-skills.js";
import { isSnapshotSkill, type LibrarySnapshot, type SnapshotReading, type SnapshotSkill } from "./library-snapshot.js";

// One skill's entry as a worker found it after the snapshot was written (changed, added or
// removed), kept as an item of its own beside the snapshot: workers that correct different skills
// at the same moment each write their own item, so neither overwrites the other, and readers lay
// the corrections over the snapshot. Like the snapshot, a stored correction carries a digest of
// its content, so a damaged one is refused rather than served.

/** The correction format this version of skillset reads and writes. */
export const SNAPSHOT_CORRECTION_FORMAT = 1;

/** A skill's `SKILL.md` as read again: its entry (`null` when no skill loads from it) and what it says. */
export interface SnapshotCorrection {
  /** The `SKILL.md` path. */
  path: string;
  entry: SnapshotSkill | null;
  /** The file's diagnostics, which replace those the snapshot has for it. */
  diagnostics: Diagnostic[];
}

/** A correction as the store keeps it. */
export interface StoredSnapshotCorrection {
  format: number;
  source: string;
  path: string;
  /** `canonicalJson({ entry, diagnostics })`. */
  content: string;
  /** SHA-256 of the source, path and content. */
  digest: string;
}

const digestOf = (source: string, path: string, content: string) => sha256Hex(`${source}\n${path}\n${content}`);

/** `correction` of a snapshot of `source`, as the store keeps it. */
export async function encodeSnapshotCorrection(
  source: string,
  correction: SnapshotCorrection,
): Promise<StoredSnapshotCorrection> {
  const { path, entry, diagnostics } = correction;
  const content = canonicalJson({ entry, diagnostics });
  return { format: SNAPSHOT_CORRECTION_FORMAT, source, path, content, digest: await digestOf(source, path, content) };
}

/** Reads a stored correction of `source` for `path`: its format, digest and entry must hold. */
export async function decodeSnapshotCorrection(
  value: unknown,
  source: string,
  path: string,
): Promise<SnapshotReading<SnapshotCorrection>> {
  const fail = (problem: string, newer = false) => ({ ok: false as const, problem, newer });
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail("it is not an object");
  const stored = value as Partial<Record<keyof StoredSnapshotCorrection, unknown>>;
  if (stored.format !== SNAPSHOT_CORRECTION_FORMAT)
    return fail(
      `it has format ${String(stored.format)}; this skillset reads format ${SNAPSHOT_CORRECTION_FORMAT}`,
      typeof stored.format === "number" && stored.format > SNAPSHOT_CORRECTION_FORMAT,
    );
  if (stored.source !== source || stored.path !== path) return fail("it names another source or path");
  if (typeof stored.content !== "string" || stored.digest !== (await digestOf(source, path, stored.content)))
    return fail("its content does not match its digest (truncated, corrupted or altered)");
  let content: { entry?: unknown; diagnostics?: unknown };
  try {
    content = JSON.parse(stored.content) as typeof content;
  } catch {
    return fail("its content is not JSON");
  }
  const { entry, diagnostics } = content;
  const entryProblem = entry !== null && (!isSnapshotSkill(entry) || entry.skill.path !== path);
  if (entryProblem || !Array.isArray(diagnostics)) return fail("its entry is malformed");
  return { ok: true, value: { path, entry, diagnostics: diagnostics as Diagnostic[] } };
}

/**
 * `snapshot` with `corrections` laid over it: each corrected path's entry replaced, added or
 * removed, and its diagnostics replaced; names checked for duplicates across the whole result, as
 * a full scan would. Entries not corrected are the very objects of `snapshot`, and corrections
 * that say what `snapshot` already says change nothing: then `snapshot` itself is returned. The
 * result's generation is a digest of `snapshot`'s and the corrections applied, not of the whole
 * content again (which costs a long library hundreds of milliseconds each time).
 */
export async function applyCorrections(
  snapshot: LibrarySnapshot,
  corrections: readonly SnapshotCorrection[],
): Promise<LibrarySnapshot> {
  const changing = corrections.filter(changesSnapshot(snapshot));
  if (changing.length === 0) return snapshot;
  const byPath = new Map(changing.map((correction) => [correction.path, correction]));
  const results: Array<InspectSkillResult & { path: string }> = snapshot.skills
    .filter((entry) => !byPath.has(entry.skill.path))
    .map((entry) => ({ path: entry.skill.path, skill: entry.skill, diagnostics: [] }));
  for (const { path, entry, diagnostics } of byPath.values())
    results.push(entry ? { path, skill: entry.skill, diagnostics } : { path, diagnostics });
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kept = new Map(snapshot.skills.map((entry) => [entry.skill.path, entry]));
  const diagnostics = snapshot.diagnostics.filter((diagnostic) => !byPath.has(diagnostic.file));
  const skills = collectSkills(results, snapshot.source, diagnostics).map(
    (skill) => byPath.get(skill.path)?.entry ?? kept.get(skill.path)!,
  );
  // In file order, as a full scan gives them (the sort is stable: each file's keep their order).
  diagnostics.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const applied = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  const generation = await sha256Hex(`${snapshot.generation}\n${canonicalJson(applied)}`);
  return { ...snapshot, generation, count: skills.length, skills, diagnostics };
}

// Whether a correction says something `snapshot` does not: another entry or other diagnostics for its path.
function changesSnapshot(snapshot: LibrarySnapshot): (correction: SnapshotCorrection) => boolean {
  let entries: Map<string, SnapshotSkill> | undefined;
  let diagnostics: Map<string, Diagnostic[]> | undefined;
  return ({ path, entry, diagnostics: said }) => {
    entries ??= new Map(snapshot.skills.map((known) => [known.skill.path, known]));
    if (diagnostics === undefined) {
      diagnostics = new Map();
      for (const diagnostic of snapshot.diagnostics) {
        const same = diagnostics.get(diagnostic.file);
        if (same) same.push(diagnostic);
        else diagnostics.set(diagnostic.file, [diagnostic]);
      }
    }
    const known = { entry: entries.get(path) ?? null, diagnostics: diagnostics.get(path) ?? [] };
    return canonicalJson({ entry, diagnostics: said }) !== canonicalJson(known);
  };
}
