import { isPackageName } from "./npm-package-location.js";

/** One package a `skills` field (or an `npm:<package>` string) asks for. */
export interface NpmSkillRequest {
  /** The package name, e.g. `@scope/pkg`. */
  package: string;
  /** Only these skills of it (by folder or skill name); empty for all. */
  skills: string[];
}

/** What a `skills` field asks for, and what in it skillset cannot read. */
export interface ParsedSkillsField {
  requests: NpmSkillRequest[];
  /** One message per entry left out, naming it. */
  problems: string[];
}

const NPM_PREFIX = "npm:";

/**
 * Reads a `package.json` `skills` field as the `skills` CLI writes it: `"npm:<package>"` or
 * `{ "source": "npm:<package>", "skills": [...] }`. Other sources (git repositories) are for an
 * installer to fetch, so they are reported, not read.
 */
export function parseSkillsField(field: unknown): ParsedSkillsField {
  if (!Array.isArray(field))
    return { requests: [], problems: [`"skills" must be an array of "npm:<package>" entries, got ${describe(field)}`] };
  const requests: NpmSkillRequest[] = [];
  const problems: string[] = [];
  for (const entry of field as unknown[]) {
    const { source, skills } = entryParts(entry);
    if (source === undefined || skills === undefined) {
      problems.push(
        `"skills" entry ${describe(entry)} is not "npm:<package>" nor { "source": "npm:<package>", "skills": [names] }`,
      );
    } else if (!source.startsWith(NPM_PREFIX)) {
      problems.push(
        `"skills" entry "${source}" is not an npm: source; skillset reads installed packages only (fetch other sources with npx skills experimental_sync)`,
      );
    } else {
      const name = source.slice(NPM_PREFIX.length);
      if (isPackageName(name)) requests.push({ package: name, skills });
      else problems.push(`"skills" entry "${source}" does not name an npm package`);
    }
  }
  return { requests, problems };
}

// The source and the chosen skills of an entry; undefined parts when it has neither shape.
function entryParts(entry: unknown): { source?: string; skills?: string[] } {
  if (typeof entry === "string") return { source: entry, skills: [] };
  if (entry === null || typeof entry !== "object") return {};
  const { source, skills } = entry as { source?: unknown; skills?: unknown };
  if (typeof source !== "string") return {};
  if (skills === undefined) return { source, skills: [] };
  return Array.isArray(skills) && skills.every((name) => typeof name === "string") ? { source, skills } : { source };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
