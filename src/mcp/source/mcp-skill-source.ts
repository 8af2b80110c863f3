import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillSource } from "../../core/skill-source.js";
import { listHeldSkillFiles } from "./held-skill-files.js";
import { createMcpServerConnection } from "./mcp-server-connection.js";
import { scanMcpSkills } from "./mcp-skill-scan.js";
import { createMcpSourceState } from "./mcp-source-state.js";
import { createSkillFolderCopies } from "./skill-folder-copy.js";
import { readVerifiedFile, readVerifiedSkill } from "./verified-skill-reader.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";

/** Options of {@link mcpSkillSource}. */
export interface McpSkillSourceOptions {
  /** A connected MCP client (see `connectMcpServer`). The source owns it: `close()` closes it. */
  client: Client;
  /**
   * The host's own name for the server (letters, digits, `.`, `_`, `-`), never the name the
   * server reports. Its skills are named `<label>:<name>` and its source id is `mcp:<label>`.
   */
  label: string;
  /** Use skills whose entry says `resources: "dynamic"`, whose content cannot be verified. @default false */
  allowDynamic?: boolean;
  /** Let the skills' `allowed-tools` recommend (or, under `"restrict"`, allow) tools and commands. @default false */
  trustAllowedTools?: boolean;
  /**
   * Let the agent's executor run this server's skill scripts (`run_skill_script`, dynamic
   * context): a loaded skill's files, each verified, are copied into a private temporary folder,
   * which becomes the skill's folder. Only for a server you trust to run code on this machine.
   * @default false
   */
  runScripts?: boolean;
  /** How long one request to the server may take, in milliseconds. @default 30000 */
  timeoutMs?: number;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const MCP_SKILL_SOURCE_OPTIONS = {
  client: true,
  label: true,
  allowDynamic: true,
  trustAllowedTools: true,
  runScripts: true,
  timeoutMs: true,
} as const satisfies KnownOptions<McpSkillSourceOptions>;

/**
 * Skills an MCP server serves through the Skills extension (`io.modelcontextprotocol/skills`), as
 * a {@link SkillSource} for the catalog, the engine and every host. Only a server that declares
 * the extension is asked (`skills/list`, every page); a `skill://` URI alone proves nothing.
 *
 * - **Names.** Every skill is `<label>:<name>`, so it never shadows, and is never shadowed by, a
 *   skill of another origin; two skills of one server with the same name are told apart by their
 *   paths (`<label>:acme.billing.refunds`), with a warning that names both.
 * - **Lazy and verified.** Nothing is fetched ahead: a `SKILL.md` when the skill is loaded, a file
 *   when it is read, each checked against its entry's size and `sha256:` digest, and the
 *   `SKILL.md` frontmatter against the entry's. On a mismatch a fresh `skills/get` decides: the
 *   skill changed since it was listed (the read is done again under the new entry) or the
 *   content is not what the server published (refused). A file the entry does not list is not read.
 * - **Content, not code.** `allowed-tools` grants nothing unless `trustAllowedTools`; `hooks` are
 *   dropped; unless `runScripts`, the files never touch the local disk, so executors have
 *   nothing to run (the skill's folder is its `skill://` URI).
 * - **Failures.** A server that goes away or errors yields no skills (a warning says why) and
 *   reads fail with a message naming it; other sources are not affected. Re-listing waits for
 *   the `ttlMs` the server gave.
 */
export function mcpSkillSource(options: McpSkillSourceOptions): SkillSource {
  refuseUnknownOptions("mcpSkillSource", options, MCP_SKILL_SOURCE_OPTIONS);
  const { client, label } = options;
  if (!LABEL.test(label))
    throw new SkillsetError(
      "invalid-options",
      `mcpSkillSource: label ${JSON.stringify(label)} must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  const state = createMcpSourceState({
    connection: createMcpServerConnection(client, label, options.timeoutMs ?? 30_000),
    allowDynamic: options.allowDynamic,
    trustAllowedTools: options.trustAllowedTools,
    copies: options.runScripts ? createSkillFolderCopies(label) : undefined,
  });
  return {
    specificationVersion: "v1",
    id: state.id,
    // Remote skills are content: their commands run only where the integrator opted in.
    runsCommands: options.runScripts === true,
    scan: () => scanMcpSkills(state),
    readSkill: (skill) => readVerifiedSkill(state, skill),
    listFiles: (skill, limits) => listHeldSkillFiles(state, skill, limits),
    readFile: (skill, relativePath, maxBytes) => readVerifiedFile(state, skill, relativePath, maxBytes),
    close() {
      state.copies?.remove();
      state.connection.close();
    },
  };
}
