import type { Diagnostic } from "../diagnostic.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { canonicalJson } from "../text/canonical-json.js";
import type { TokenCountTable } from "../text/known-token-counts.js";
import { sha256Hex } from "../text/sha256-hex.js";
import { catalogTokenTable } from "./catalog-token-table.js";

// A library's catalog as a fleet keeps it in its store: what the catalog and search need for each
// skill, the digest of its SKILL.md and its files, so a joining worker reads this instead of the
// whole library, and the token counts its catalog is made of, so a joining worker fits the catalog
// to its budget without loading the encoding. The format is versioned; `generation` is a digest of
// the content, so equal libraries give equal snapshots and a damaged one does not verify.

/** The snapshot format this version of skillset reads and writes (2: with the catalog's token counts). */
export const LIBRARY_SNAPSHOT_FORMAT = 2;

/** One skill of a snapshot: its metadata, its `SKILL.md`'s SHA-256 and its folder's files. */
export interface SnapshotSkill {
  skill: SkillMetadata;
  /** SHA-256 of the `SKILL.md` bytes, lowercase hex. */
  digest: string;
  /** Files below the skill's folder other than `SKILL.md`: path with `/`, and size when known. */
  files: Array<{ relativePath: string; size?: number }>;
  /** Whether the listing stopped at its limits. */
  filesTruncated: boolean;
}

/** A whole snapshot, as a worker holds it. */
export interface LibrarySnapshot {
  format: number;
  /** The id of the source it describes. */
  source: string;
  /** Digest of `source` and the content: names the snapshot and verifies it. */
  generation: string;
  writtenAt: string;
  count: number;
  skills: SnapshotSkill[];
  diagnostics: Diagnostic[];
  /** The token counts of the pieces its catalog is made of (`catalogTokenTable`). */
  tokens: TokenCountTable;
}

/**
 * A snapshot as the store keeps it: the skills and diagnostics as one canonical JSON string, so
 * the digest is checked on the very bytes that were written (a store may reorder an object's
 * keys, as PostgreSQL's `jsonb` does) and a long library is one string for the store to index.
 */
export interface StoredLibrarySnapshot {
  format: number;
  source: string;
  generation: string;
  writtenAt: string;
  count: number;
  /** `canonicalJson({ skills, diagnostics, tokens })`. */
  content: string;
}

/** The small item that names the current snapshot; workers read it on every scan. */
export interface SnapshotHead {
  format: number;
  generation: string;
  count: number;
  writtenAt: string;
}

/** A stored value read back: usable, or the problem (and whether a newer skillset wrote it). */
export type SnapshotReading<T> = { ok: true; value: T } | { ok: false; problem: string; newer: boolean };

/** The generation of a snapshot of `source` whose content is `content`. */
function generationOf(source: string, content: string): Promise<string> {
  return sha256Hex(`${source}\n${content}`);
}

function contentOf(
  skills: readonly SnapshotSkill[],
  diagnostics: readonly Diagnostic[],
  tokens: TokenCountTable,
): string {
  return canonicalJson({ skills, diagnostics, tokens });
}

/** A new snapshot of `skills` (in catalog order) and the scan's `diagnostics`. */
export async function buildLibrarySnapshot(
  source: string,
  skills: SnapshotSkill[],
  diagnostics: Diagnostic[],
  writtenAt = new Date().toISOString(),
): Promise<LibrarySnapshot> {
  const tokens = await catalogTokenTable(
    skills.map((entry) => entry.skill),
    source,
  );
  const generation = await generationOf(source, contentOf(skills, diagnostics, tokens));
  return {
    format: LIBRARY_SNAPSHOT_FORMAT,
    source,
    generation,
    writtenAt,
    count: skills.length,
    skills,
    diagnostics,
    tokens,
  };
}

/** `snapshot` as the store keeps it. */
export function encodeLibrarySnapshot(snapshot: LibrarySnapshot): StoredLibrarySnapshot {
  const { format, source, generation, writtenAt, count, skills, diagnostics, tokens } = snapshot;
  return { format, source, generation, writtenAt, count, content: contentOf(skills, diagnostics, tokens) };
}

/** The head that names `snapshot`. */
export function headOf(snapshot: LibrarySnapshot): SnapshotHead {
  const { format, generation, count, writtenAt } = snapshot;
  return { format, generation, count, writtenAt };
}

/** Reads a stored head: its format must be this one, its generation a digest. */
export function decodeSnapshotHead(value: unknown): SnapshotReading<SnapshotHead> {
  const format = formatProblem(value);
  if (format) return format;
  const head = value as Record<string, unknown>;
  if (!isDigest(head.generation) || typeof head.count !== "number" || typeof head.writtenAt !== "string")
    return { ok: false, problem: "the head lacks its generation, count or time", newer: false };
  return { ok: true, value: head as unknown as SnapshotHead };
}

/**
 * Reads a stored snapshot of `source` named `generation` by its head: the format must be this
 * one, the content must hash to its generation (so a truncated or altered row is refused rather
 * than served), and every skill must be well-formed, as many as it says.
 */
export async function decodeLibrarySnapshot(
  value: unknown,
  source: string,
  generation: string,
): Promise<SnapshotReading<LibrarySnapshot>> {
  const format = formatProblem(value);
  if (format) return format;
  const stored = value as Record<string, unknown>;
  const fail = (problem: string): SnapshotReading<LibrarySnapshot> => ({ ok: false, problem, newer: false });
  if (stored.source !== source) return fail(`it describes the source ${JSON.stringify(stored.source)}`);
  if (stored.generation !== generation) return fail(`it is generation ${String(stored.generation)}, not ${generation}`);
  if (typeof stored.content !== "string") return fail("it has no content");
  if ((await generationOf(source, stored.content)) !== generation)
    return fail("its content does not match its digest (truncated, corrupted or altered)");
  let content: { skills?: unknown; diagnostics?: unknown; tokens?: unknown };
  try {
    content = JSON.parse(stored.content) as typeof content;
  } catch {
    return fail("its content is not JSON");
  }
  const { skills, diagnostics, tokens } = content;
  if (!Array.isArray(skills) || !Array.isArray(diagnostics)) return fail("it has no skills list");
  if (!isTokenCountTable(tokens)) return fail("its token counts are malformed");
  if (stored.count !== skills.length) return fail(`it holds ${skills.length} skills but says ${String(stored.count)}`);
  const malformed = skills.findIndex((entry) => !isSnapshotSkill(entry));
  if (malformed >= 0) return fail(`skill ${malformed + 1} of ${skills.length} is malformed`);
  const writtenAt = typeof stored.writtenAt === "string" ? stored.writtenAt : "";
  return {
    ok: true,
    value: {
      format: LIBRARY_SNAPSHOT_FORMAT,
      source,
      generation,
      writtenAt,
      count: skills.length,
      skills,
      diagnostics,
      tokens,
    },
  };
}

function formatProblem(value: unknown): { ok: false; problem: string; newer: boolean } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, problem: "it is not an object (truncated or corrupted)", newer: false };
  const format = (value as { format?: unknown }).format;
  if (typeof format !== "number" || !Number.isInteger(format))
    return { ok: false, problem: "it has no format version", newer: false };
  if (format === LIBRARY_SNAPSHOT_FORMAT) return undefined;
  const newer = format > LIBRARY_SNAPSHOT_FORMAT;
  return {
    ok: false,
    problem: `it has format ${format}, written by ${newer ? "a newer" : "an older"} skillset; this one reads format ${LIBRARY_SNAPSHOT_FORMAT}`,
    newer,
  };
}

// Counts are whole numbers of tokens, each with the pieces that count that many.
function isTokenCountTable(value: unknown): value is TokenCountTable {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([count, pieces]) =>
      /^[1-9][0-9]*$/.test(count) &&
      Array.isArray(pieces) &&
      (pieces as unknown[]).every((piece) => typeof piece === "string" && piece !== ""),
  );
}

function isDigest(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/** Whether `value` is a well-formed snapshot entry (its skill's fields, digest and files). */
export function isSnapshotSkill(value: unknown): value is SnapshotSkill {
  if (value === null || typeof value !== "object") return false;
  const { skill, digest, files, filesTruncated } = value as Record<string, unknown>;
  if (!isDigest(digest) || !Array.isArray(files) || typeof filesTruncated !== "boolean") return false;
  if (skill === null || typeof skill !== "object") return false;
  const { name, description, path, source, metadata, allowedTools } = skill as Record<string, unknown>;
  return (
    typeof name === "string" &&
    typeof description === "string" &&
    typeof path === "string" &&
    typeof source === "string" &&
    metadata !== null &&
    typeof metadata === "object" &&
    Array.isArray(allowedTools) &&
    files.every((file) => typeof (file as { relativePath?: unknown } | null)?.relativePath === "string")
  );
}
