import type { SkillSearchResult } from "../../core/engine/skill-engine-types.js";
import { createSkillEngine } from "../../core/engine/skill-engine.js";
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
 * `query`, best first (the engine's ranker; with `--embeddings`, fused with one by meaning), and
 * apart from them the weak matches, those under the relevance floor. Exit code 0, also when
 * nothing matches.
 */
export async function searchCommand(
  query: string,
  paths: string[],
  options: SearchOptions,
  terminal: Terminal,
): Promise<number> {
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 25)
    throw new CliError("usage", `--limit must be a whole number from 1 to 25; got '${options.limit}'`);
  if (query.trim() === "") throw new CliError("usage", "The search query is empty: describe the task in a few words.");
  const rankers = await searchRankers(options.embeddings, terminal, "fail");
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  const reply = await createSkillEngine(rankers ? { search: { rankers } } : {}).search(
    { state: { skills: snapshot.skills, loaded: [], resources: {} }, sources: async () => sources },
    { query, limit },
  );
  const rows = (found: readonly SkillSearchResult[]) =>
    found.map(({ name, description, path, score }) => ({
      name,
      description,
      path,
      score: Math.round(score * 1000) / 1000,
    }));
  const results = rows(reply.results);
  const weakMatches = rows(reply.weakMatches);
  if (options.json) {
    terminal.out(JSON.stringify({ results, weakMatches }, null, 2));
    return 0;
  }
  if (results.length === 0 && weakMatches.length === 0) {
    terminal.out(`No skills match '${query}'.`);
    return 0;
  }
  const nameWidth = Math.min(40, Math.max(4, ...[...results, ...weakMatches].map((result) => result.name.length)));
  const table = (found: typeof results) => {
    terminal.out(
      terminal.color.bold(`${"NAME".padEnd(nameWidth)}  ${"SCORE".padStart(6)}  ${"PATH".padEnd(30)}  DESCRIPTION`),
    );
    for (const result of found) {
      terminal.out(
        `${shorten(result.name, nameWidth).padEnd(nameWidth)}  ${result.score.toFixed(2).padStart(6)}  ${shorten(displayFolder(result.path), 30).padEnd(30)}  ${shorten(result.description, 70)}`,
      );
    }
  };
  if (results.length > 0) table(results);
  else terminal.out(`No skill matches '${query}' well.`);
  if (weakMatches.length > 0) {
    terminal.out(
      results.length > 0
        ? "\nWeak matches (below the relevance floor):"
        : "Weak matches (below the relevance floor), probably not what you need:",
    );
    table(weakMatches);
  }
  return 0;
}
