import { createEmbeddingRanker } from "../core/search/embedding-ranker.js";
import { createLexicalRanker, type SkillRanker } from "../core/search/skill-search.js";
import { CliError } from "./cli-error.js";
import { firstLine, openEmbeddings } from "./embeddings-option.js";
import type { Terminal } from "./terminal.js";

/** How a command uses an embeddings provider's failures: `search` fails; the serving commands go on lexically. */
export type EmbeddingFailures = "fail" | "warn";

/**
 * The rankers of `search_skills` for `--embeddings <provider:model>`: the lexical ranker fused
 * with one by meaning through the provider's LangChain integration, its vectors cached on disk
 * per model (diagnostics on stderr). Without the option, `undefined`: the engine's default.
 */
export async function searchRankers(
  spec: string | undefined,
  terminal: Terminal,
  failures: EmbeddingFailures,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SkillRanker[] | undefined> {
  if (spec === undefined) return undefined;
  const { embeddings, cache } = await openEmbeddings(spec, terminal, env);
  let warned = false;
  const onError = (error: unknown) => {
    if (warned) return;
    warned = true;
    terminal.err(
      terminal.color.yellow(`skillset: --embeddings ${spec} failed (${firstLine(error)}); searching by words only.`),
    );
  };
  const ranker = createEmbeddingRanker(embeddings, failures === "warn" ? { cache, onError } : { cache });
  const checked: SkillRanker = async (query, skills, limit) => {
    try {
      return await ranker(query, skills, limit);
    } catch (error) {
      throw new CliError("provider", `--embeddings ${spec} failed: ${firstLine(error)}`);
    }
  };
  return [createLexicalRanker(), checked];
}
