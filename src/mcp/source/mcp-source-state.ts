import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillSourceScan } from "../../core/skill-source.js";
import { createByteCache, type ByteCache } from "./byte-cache.js";
import type { McpServerConnection } from "./mcp-server-connection.js";
import type { HeldSkill } from "./remote-skill-entry.js";
import type { SkillFolderCopies } from "./skill-folder-copy.js";

// Verified files kept in memory, by URI and digest, so a skill loaded again is not fetched again.
const CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Everything one `mcpSkillSource` holds between calls, in one place: the modules that list, scan,
 * read and verify its skills each take it (or the part they need) explicitly.
 */
export interface McpSourceState {
  /** The source's id, `mcp:<label>`. */
  readonly id: string;
  /** The host's own name for the server, which prefixes its skills' names. */
  readonly label: string;
  readonly connection: McpServerConnection;
  /** Use skills whose content is dynamic (not verifiable). */
  readonly allowDynamic: boolean;
  /** Keep the skills' `allowed-tools`. */
  readonly trustAllowedTools: boolean;
  /** Where skills are copied to when their scripts may run, else `undefined`. */
  readonly copies: SkillFolderCopies | undefined;
  /** The entry each listed skill is read under, by the skill's catalog path. */
  readonly held: Map<string, HeldSkill>;
  /** Verified files, by `<uri>\n<digest>`. */
  readonly cache: ByteCache;
  /** Bytes fetched so far from each dynamic skill (by its root URI), which has no digests to bound it. */
  readonly retrieved: Map<string, number>;
  /** The latest scan, and the signature of its skills and diagnostics. */
  last: SkillSourceScan | undefined;
  lastSignature: string;
  /** How many different scans there have been. */
  version: number;
  /** When the server was last listed (`-Infinity`: list again), and how long its listing stays fresh. */
  listedAt: number;
  ttlMs: number;
  /** The listing under way, which concurrent scans share. */
  listing: Promise<SkillSourceScan> | undefined;
}

/** A fresh state: nothing listed, nothing held, nothing cached. */
export function createMcpSourceState(init: {
  connection: McpServerConnection;
  allowDynamic?: boolean;
  trustAllowedTools?: boolean;
  copies?: SkillFolderCopies;
}): McpSourceState {
  const { label } = init.connection;
  return {
    id: `mcp:${label}`,
    label,
    connection: init.connection,
    allowDynamic: Boolean(init.allowDynamic),
    trustAllowedTools: Boolean(init.trustAllowedTools),
    copies: init.copies,
    held: new Map(),
    cache: createByteCache(CACHE_BYTES),
    retrieved: new Map(),
    last: undefined,
    lastSignature: "",
    version: 0,
    listedAt: -Infinity,
    ttlMs: 0,
    listing: undefined,
  };
}

/** The entry the listed skill at `path` is held under; `not-found` once the server no longer lists it. */
export function heldSkillAt(state: Pick<McpSourceState, "held" | "label">, path: string): HeldSkill {
  const held = state.held.get(path);
  if (!held) throw new SkillsetError("not-found", `MCP server '${state.label}' no longer lists ${path}`);
  return held;
}
