import { join } from "node:path";
import { stringify } from "yaml";
import type { Diagnostic } from "../../core/diagnostic.js";
import { inspectSkill } from "../../core/skill-file/inspect-skill.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { McpServerConnection } from "./mcp-server-connection.js";
import type { McpSourceState } from "./mcp-source-state.js";
import { listSkillsResultSchema, readSkillEntry, type HeldSkill } from "./remote-skill-entry.js";
import { SKILLS_EXTENSION } from "../skills-extension/skill-entry.js";

const MAX_PAGES = 1000;

/** What `skills/list` gave, every page of it: the entries unchecked, the first page's `ttlMs`, and warnings. */
export interface ListedSkillEntries {
  entries: unknown[];
  ttlMs: number | undefined;
  diagnostics: Diagnostic[];
}

/** The catalog's view of listed entries: the skills, the entry each is held under (by its path), and warnings. */
export interface NamedSkills {
  skills: SkillMetadata[];
  held: Map<string, HeldSkill>;
  diagnostics: Diagnostic[];
}

/** The part of the source's state that decides how listed skills are named and shown. */
export type SkillNaming = Pick<McpSourceState, "id" | "label" | "allowDynamic" | "trustAllowedTools" | "copies">;

const warning = (source: string, code: string, message: string, file = source): Diagnostic => ({
  severity: "warning",
  code,
  file,
  message,
  source,
});

/**
 * Every page of `skills/list` (at most 1000), asked only of a server that declares the Skills
 * extension. A closed connection, a server without the extension or a failed request gives
 * what was listed so far and a warning that says why; nothing throws.
 */
export async function listSkillEntries(connection: McpServerConnection, id: string): Promise<ListedSkillEntries> {
  const { label } = connection;
  const diagnostics: Diagnostic[] = [];
  const warn = (code: string, message: string) => diagnostics.push(warning(id, code, message));
  const entries: unknown[] = [];
  let ttl: number | undefined;
  if (!connection.isOpen()) warn("mcp-unavailable", `MCP server '${label}' is unavailable: the connection is closed`);
  else if (!connection.skillsExtension()) {
    warn(
      "no-skills-extension",
      `MCP server '${label}' does not declare the ${SKILLS_EXTENSION} extension; no skills are read from it (skill:// resources alone are not skills)`,
    );
  } else {
    try {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await connection.request(
          "skills/list",
          cursor === undefined ? {} : { cursor },
          listSkillsResultSchema,
        );
        entries.push(...page.skills);
        ttl ??= page.ttlMs;
        cursor = page.nextCursor;
      } while (cursor !== undefined && ++pages < MAX_PAGES);
      if (cursor !== undefined)
        warn(
          "listing-cut",
          `MCP server '${label}' listed more than ${MAX_PAGES} pages of skills; the rest are not used`,
        );
    } catch (error) {
      const problem = connection.failure(error, "skills/list failed");
      warn(problem.code, problem.message);
    }
  }
  return { entries, ttlMs: ttl, diagnostics };
}

/**
 * The listed entries as the catalog shows them: checked, named `<label>:<name>`, content not
 * trusted (no `hooks`; `allowed-tools` only when trusted). Skills of one server that share a name
 * are named by their paths instead (`<label>:acme.billing.refunds`), with a warning naming them
 * all; an entry whose name is taken all the same is not used.
 */
export function nameListedSkills(entries: readonly unknown[], naming: SkillNaming): NamedSkills {
  const { id, label } = naming;
  const diagnostics: Diagnostic[] = [];
  const warn = (code: string, message: string, file = id) => diagnostics.push(warning(id, code, message, file));
  const readable: HeldSkill[] = [];
  for (const value of entries) {
    const uri = String((value as { uri?: unknown } | null)?.uri ?? "(an entry without a URI)");
    const read = readSkillEntry(value);
    if (!read.ok) warn("invalid-entry", `Skill ${uri} of MCP server '${label}' is not used: ${read.reason}`, uri);
    else if (read.held.files === "dynamic" && !naming.allowDynamic)
      warn(
        "dynamic-skill",
        `Skill ${uri} of MCP server '${label}' is not used: its content is dynamic and cannot be verified (allowDynamic is off)`,
        uri,
      );
    else readable.push(read.held);
  }
  const byName = new Map<string, HeldSkill[]>();
  for (const skill of readable) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
  for (const [name, twins] of byName) {
    if (twins.length > 1) {
      const shown = twins.map((twin) => `${twin.entry.uri} as '${label}:${twin.skillPath.replaceAll("/", ".")}'`);
      warn(
        "name-collision",
        `Skills of MCP server '${label}' share the name '${name}'; each is listed by its path: ${shown.join(", ")}`,
      );
    }
  }
  const held = new Map<string, HeldSkill>();
  const skills: SkillMetadata[] = [];
  const names = new Set<string>();
  for (const skill of readable) {
    const name = `${label}:${byName.get(skill.name)!.length > 1 ? skill.skillPath.replaceAll("/", ".") : skill.name}`;
    if (names.has(name)) {
      warn(
        "name-collision",
        `Skill ${skill.entry.uri} of MCP server '${label}' is not used: another of its skills is already listed as '${name}'`,
        skill.entry.uri,
      );
      continue;
    }
    const inspected = inspectSkill({
      text: `---\n${stringify(skill.entry.frontmatter, { lineWidth: 0 })}---\n`,
      file: skill.entry.uri,
      directoryName: skill.name,
      source: id,
    });
    diagnostics.push(...inspected.diagnostics);
    if (!inspected.skill) continue;
    names.add(name);
    const { hooks: _hooks, ...metadata } = inspected.skill;
    const path = naming.copies ? join(naming.copies.folderOf(skill.root), "SKILL.md") : skill.entry.uri;
    skills.push({ ...metadata, name, path, allowedTools: naming.trustAllowedTools ? metadata.allowedTools : [] });
    held.set(path, skill);
  }
  return { skills, held, diagnostics };
}
