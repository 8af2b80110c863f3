import { formatDiagnostic } from "../core/diagnostic.js";
import { createEmbeddingRanker, type EmbeddingsLike } from "../core/embedding-ranker.js";
import { createLexicalRanker, type SkillRanker } from "../core/skill-search.js";
import { createEmbeddingCache } from "../node/embedding-cache.js";
import { importOptional } from "./chat/optional-package.js";
import { CliError } from "./cli-error.js";
import type { Terminal } from "./terminal.js";

// LangChain's embeddings integrations skillset knows: the package (an optional peer, imported
// only when named), its class, and the variable its key comes from (`baseUrl`: a variable that
// points the client at another server, which then needs no key).
const PROVIDERS: Record<string, { package: string; className: string; keyVariable?: string; baseUrl?: string }> = {
  openai: { package: "@langchain/openai", className: "OpenAIEmbeddings", keyVariable: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
  ollama: { package: "@langchain/ollama", className: "OllamaEmbeddings" },
  mistralai: { package: "@langchain/mistralai", className: "MistralAIEmbeddings", keyVariable: "MISTRAL_API_KEY" },
  cohere: { package: "@langchain/cohere", className: "CohereEmbeddings", keyVariable: "COHERE_API_KEY" },
  "google-genai": { package: "@langchain/google-genai", className: "GoogleGenerativeAIEmbeddings", keyVariable: "GOOGLE_API_KEY" },
};

// LangChain retries 6 times by default, which keeps `skillset search` waiting for a minute when the
// provider is down; the chat model's default is 2.
const MAX_RETRIES = 2;

// A key for servers that want none (a local one at OPENAI_BASE_URL): the client refuses to start without one.
const NO_KEY = "not-needed";

/** How a command uses an embeddings provider's failures: `search` fails; the serving commands go on lexically. */
export type EmbeddingFailures = "fail" | "warn";

/**
 * The rankers of `search_skills` for `--embeddings <provider:model>`: the lexical ranker fused
 * with one by meaning through the provider's LangChain integration, its vectors cached on disk
 * per model (diagnostics on stderr). Without the option, `undefined`: the engine's default.
 */
export async function searchRankers(spec: string | undefined, terminal: Terminal, failures: EmbeddingFailures, env: NodeJS.ProcessEnv = process.env): Promise<SkillRanker[] | undefined> {
  if (spec === undefined) return undefined;
  const embeddings = await createEmbeddings(spec, env);
  let warned = false;
  const onError = (error: unknown) => {
    if (warned) return;
    warned = true;
    terminal.err(terminal.color.yellow(`skillset: --embeddings ${spec} failed (${firstLine(error)}); searching by words only.`));
  };
  const cache = createEmbeddingCache({ model: spec, onDiagnostic: (diagnostic) => terminal.err(terminal.color.yellow(formatDiagnostic(diagnostic))) });
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

async function createEmbeddings(spec: string, env: NodeJS.ProcessEnv): Promise<EmbeddingsLike> {
  const separator = spec.indexOf(":");
  const provider = spec.slice(0, separator);
  const model = spec.slice(separator + 1);
  if (separator <= 0 || model === "") throw new CliError("usage", `--embeddings must be <provider>:<model>, e.g. openai:text-embedding-3-small (got '${spec}')`);
  const known = PROVIDERS[provider];
  if (!known) throw new CliError("usage", `Unknown embeddings provider '${provider}': use one of ${Object.keys(PROVIDERS).join(", ")}`);
  const module = await importOptional(() => import(known.package) as Promise<Record<string, unknown>>, `--embeddings ${spec}`, known.package);
  const key = known.keyVariable ? env[known.keyVariable] : undefined;
  const local = known.baseUrl !== undefined && Boolean(env[known.baseUrl]);
  if (known.keyVariable && !key && !local) throw new CliError("missing-key", `${known.keyVariable} is not set: export your ${provider} API key to use --embeddings ${spec}`);
  const Embeddings = module[known.className] as new (fields: Record<string, unknown>) => EmbeddingsLike;
  try {
    return new Embeddings({ model, maxRetries: MAX_RETRIES, ...(known.keyVariable ? { apiKey: key ?? NO_KEY } : {}) });
  } catch (error) {
    throw new CliError("model-setup", `Cannot set up --embeddings ${spec}: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
}
