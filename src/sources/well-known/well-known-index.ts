import type { Diagnostic } from "../../core/diagnostic.js";
import { isAllowedUrl } from "./site-url.js";

/** The `$schema` of an agent-skills discovery index, version 0.2.0, the one version with digests. */
export const DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/** One usable skill of an index: its name and description, artifact and that artifact's digest. */
export interface WellKnownEntry {
  name: string;
  description: string;
  type: "skill-md" | "archive";
  /** The artifact's URL, resolved against the index URL. */
  url: URL;
  /** `sha256:` and 64 lowercase hex digits over the artifact's raw bytes. */
  digest: string;
}

/** An index read: its usable entries, and a warning for each one left out and why. */
export interface ParsedIndex {
  entries: WellKnownEntry[];
  diagnostics: Diagnostic[];
}

// The `skills` CLI's rule for entry names, which become folder names when it installs them.
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MAX_DESCRIPTION = 1024;

/**
 * The entries of an index's bytes, fetched from `indexUrl`. Only a 0.2.0 index (its `$schema`)
 * is used: a 0.1.0 one has no digests, so nothing in it can be verified. An entry that is
 * malformed, of an unknown `type`, or with a name already taken is left out with a warning.
 */
export function parseWellKnownIndex(bytes: Uint8Array, indexUrl: URL, source: string): ParsedIndex {
  const diagnostics: Diagnostic[] = [];
  const warn = (code: string, message: string) =>
    diagnostics.push({ severity: "warning", code, file: indexUrl.href, message, source });
  let index: unknown;
  try {
    index = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    warn(
      "invalid-index",
      `${indexUrl.href} is not a JSON index: ${(error as Error).message}; no skills are read from it`,
    );
    return { entries: [], diagnostics };
  }
  const record =
    index !== null && typeof index === "object" && !Array.isArray(index) ? (index as Record<string, unknown>) : {};
  if (!Array.isArray(record.skills)) {
    warn("invalid-index", `${indexUrl.href} has no "skills" array; no skills are read from it`);
    return { entries: [], diagnostics };
  }
  if (record.$schema !== DISCOVERY_SCHEMA) {
    const which =
      record.$schema === undefined
        ? "is a 0.1.0 index (no $schema), which has no digests"
        : `has $schema ${JSON.stringify(record.$schema)}, which skillset does not know`;
    warn(
      "unsupported-index",
      `${indexUrl.href} ${which}; its skills cannot be verified and are not used (expected $schema ${DISCOVERY_SCHEMA})`,
    );
    return { entries: [], diagnostics };
  }
  const entries: WellKnownEntry[] = [];
  for (const [position, value] of record.skills.entries()) {
    const read = readEntry(value, indexUrl);
    const label =
      typeof (value as { name?: unknown } | null)?.name === "string"
        ? `'${(value as { name: string }).name}'`
        : `#${position + 1}`;
    if (typeof read === "string") warn("invalid-entry", `Skill ${label} of ${indexUrl.href} is not used: ${read}`);
    else if (entries.some((entry) => entry.name === read.name))
      warn("duplicate-name", `Skill ${label} of ${indexUrl.href} is not used: an earlier entry has the same name`);
    else entries.push(read);
  }
  return { entries, diagnostics };
}

// The entry, or why it cannot be used.
function readEntry(value: unknown, indexUrl: URL): WellKnownEntry | string {
  if (value === null || typeof value !== "object") return "it is not an object";
  const { name, description, type, url, digest } = value as Record<string, unknown>;
  if (typeof name !== "string" || !NAME.test(name) || name.length > 64)
    return "its name must be 1-64 lowercase letters, digits and single hyphens";
  if (typeof description !== "string" || description.trim() === "") return "it has no description";
  if (description.length > MAX_DESCRIPTION) return `its description is longer than ${MAX_DESCRIPTION} characters`;
  if (type !== "skill-md" && type !== "archive")
    return `its type ${JSON.stringify(type)} is neither "skill-md" nor "archive"`;
  if (typeof digest !== "string" || !DIGEST.test(digest))
    return 'its digest must be "sha256:" and 64 lowercase hex digits';
  if (typeof url !== "string" || url === "") return "it has no url";
  let resolved: URL;
  try {
    resolved = new URL(url, indexUrl);
  } catch {
    return `its url ${JSON.stringify(url)} is not a valid URL`;
  }
  if (!isAllowedUrl(resolved)) return `its url ${resolved.href} is not https`;
  return { name, description, type, url: resolved, digest };
}
