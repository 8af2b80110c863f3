import { createSkillEngine } from "../../core/skill-engine.js";
import { CliError } from "../cli-error.js";
import { scanCatalog, type SourceOptions } from "../open-catalog.js";
import { searchRankers } from "../search-rankers.js";
import { displayFolder, shorten } from "../skill-rows.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset search`. */
export interface SearchOptions extends SourceOptions {
  limit?: string;
  json?: boolean;
  /** `--embeddings <provider:model>`: fuse a ranker by meaning with the lexical one. */
  embeddings?: string;
}

/**
 * `skillset search <query> [sources...]`: the skills `search_skills` would give the model for
 * `query`, best first (the engine's ranker; with `--embeddings`, fused with one by meaning).
 * Exit code 0, also when nothing matches.
 */
export async function searchCommand(query: string, paths: string[], options: SearchOptions, terminal: Terminal): Promise<number> {
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 25) throw new CliError("usage", `--limit must be a whole number from 1 to 25; got '${options.limit}'`);
  if (query.trim() === "") throw new CliError("usage", "The search query is empty: describe the task in a few words.");
  const rankers = await searchRankers(options.embeddings, terminal, "fail");
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  const reply = await createSkillEngine(rankers ? { search: { rankers } } : {}).search({ state: { skills: snapshot.skills, loaded: [], resources: {} }, sources: async () => sources }, { query, limit });
  const results = reply.results.map(({ name, description, path, score }) => ({ name, description, path, score: Math.round(score * 1000) / 1000 }));
  if (options.json) {
    terminal.out(JSON.stringify({ results }, null, 2));
    return 0;
  }
  if (results.length === 0) {
    terminal.out(`No skills match '${query}'.`);
    return 0;
  }
  const nameWidth = Math.min(40, Math.max(4, ...results.map((result) => result.name.length)));
  terminal.out(terminal.color.bold(`${"NAME".padEnd(nameWidth)}  ${"SCORE".padStart(6)}  ${"PATH".padEnd(30)}  DESCRIPTION`));
  for (const result of results) {
    terminal.out(`${shorten(result.name, nameWidth).padEnd(nameWidth)}  ${result.score.toFixed(2).padStart(6)}  ${shorten(displayFolder(result.path), 30).padEnd(30)}  ${shorten(result.description, 70)}`);
  }
  return 0;
}
