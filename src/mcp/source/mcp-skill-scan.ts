import type { SkillSourceScan } from "../../core/skill-source.js";
import { listSkillEntries, nameListedSkills } from "./mcp-skill-listing.js";
import type { McpSourceState } from "./mcp-source-state.js";

/**
 * The source's scan: the latest one while the `ttlMs` the server gave lasts (and it is still
 * connected), else a new listing, which concurrent scans share. A listing that finds the same
 * skills and diagnostics returns the same scan, version included.
 */
export function scanMcpSkills(state: McpSourceState): Promise<SkillSourceScan> {
  if (state.last && state.connection.isOpen() && Date.now() - state.listedAt < state.ttlMs)
    return Promise.resolve(state.last);
  state.listing ??= listAndName(state).finally(() => (state.listing = undefined));
  return state.listing;
}

async function listAndName(state: McpSourceState): Promise<SkillSourceScan> {
  const listed = await listSkillEntries(state.connection, state.id);
  const named = nameListedSkills(listed.entries, state);
  state.held.clear();
  for (const [path, skill] of named.held) state.held.set(path, skill);
  const { skills } = named;
  const diagnostics = [...listed.diagnostics, ...named.diagnostics];
  state.listedAt = Date.now();
  state.ttlMs = listed.ttlMs ?? 0;
  const signature = JSON.stringify([skills, diagnostics]);
  if (state.last && signature === state.lastSignature) return state.last;
  state.lastSignature = signature;
  state.last = { version: `${state.id}#${++state.version}`, skills, diagnostics };
  return state.last;
}
