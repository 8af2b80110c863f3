import { SkillsetError } from "../../errors/skillset-error.js";

// The lockfile's checks, apart from reading it: no Node import here, so the hosts that load
// Node-only code lazily (skillset/langchain, skillset/ai) can check a lockfile when they are built.

/** One skill of a `skills-lock.json`: where the `skills` CLI installed it from, and its folder's hash. */
export interface SkillsLockEntry {
  /** Where it came from: a local folder (relative to the lockfile), a package name, `owner/repo`, a URL. */
  source: string;
  /** `"local"`, `"node_modules"`, `"github"`, `"git"`, `"well-known"`, … */
  sourceType: string;
  /** The `skills` CLI's sha256 of the skill's folder (see `digestSkillFolder`). */
  computedHash: string;
  sourceUrl?: string;
  ref?: string;
  skillPath?: string;
  version?: string;
}

/** A `skills-lock.json` (version 1) as the `skills` CLI writes it, read and checked. */
export interface SkillsLock {
  /** The lockfile's path, as given. */
  file: string;
  /** Entries by the name the CLI recorded. */
  skills: ReadonlyMap<string, SkillsLockEntry>;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const OPTIONAL_TEXT = ["sourceUrl", "ref", "skillPath", "version"] as const;

/**
 * Reads the `skills-lock.json` at `file` with `readText` and checks it: an `invalid-lockfile`
 * {@link SkillsetError} naming the file and the problem otherwise.
 */
export function parseSkillsLockFile(file: string, readText: (path: string) => string): SkillsLock {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw invalid(
      file,
      code === "ENOENT" ? "the file does not exist" : `it cannot be read (${code ?? String(error)})`,
      error,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `it is not valid JSON (${(error as Error).message})`, error);
  }
  if (!isRecord(parsed)) throw invalid(file, "it is not a JSON object");
  if (parsed.version !== 1)
    throw invalid(
      file,
      `its "version" is ${JSON.stringify(parsed.version) ?? "missing"}; skillset reads version 1 of the skills CLI's lockfile`,
    );
  if (!isRecord(parsed.skills)) throw invalid(file, `its "skills" is not an object of skill entries`);
  const skills = new Map<string, SkillsLockEntry>();
  for (const [name, entry] of Object.entries(parsed.skills)) skills.set(name, checkEntry(file, name, entry));
  return { file, skills };
}

function checkEntry(file: string, name: string, entry: unknown): SkillsLockEntry {
  const at = `skills[${JSON.stringify(name)}]`;
  if (!isRecord(entry)) throw invalid(file, `${at} is not an object`);
  if (typeof entry.computedHash !== "string" || !HEX_SHA256.test(entry.computedHash)) {
    throw invalid(
      file,
      `${at}.computedHash is ${JSON.stringify(entry.computedHash) ?? "missing"}, not a sha256 in hex (64 characters 0-9a-f)`,
    );
  }
  for (const key of ["source", "sourceType"] as const)
    if (typeof entry[key] !== "string") throw invalid(file, `${at}.${key} is not a string`);
  for (const key of OPTIONAL_TEXT)
    if (entry[key] !== undefined && typeof entry[key] !== "string") throw invalid(file, `${at}.${key} is not a string`);
  return entry as unknown as SkillsLockEntry;
}

function invalid(file: string, problem: string, cause?: unknown): SkillsetError {
  return new SkillsetError(
    "invalid-lockfile",
    `Cannot use the skills lockfile ${file}: ${problem}`,
    cause === undefined ? undefined : { cause },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
