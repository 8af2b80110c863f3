import { formatDiagnostic } from "../core/diagnostic.js";
import type { EmbeddingsLike } from "../core/search/embedding-ranker.js";
import { createEmbeddingCache, type EmbeddingFileCache } from "../node/embedding-cache.js";
import { importOptional } from "./chat/optional-package.js";
import { CliError } from "./cli-error.js";
import type { Terminal } from "./terminal.js";

// LangChain's embeddings integrations skillset knows: the package (an optional peer, imported
// only when named), its class, and the variable its key comes from (`baseUrl`: a variable that
// points the client at another server, which then needs no key).
const PROVIDERS: Record<string, { package: string; className: string; keyVariable?: string; baseUrl?: string }> = {
  openai: {
    package: "@langchain/openai",
    className: "OpenAIEmbeddings",
    keyVariable: "OPENAI_API_KEY",
    baseUrl: "OPENAI_BASE_URL",
  },
  ollama: { package: "@langchain/ollama", className: "OllamaEmbeddings" },
  mistralai: { package: "@langchain/mistralai", className: "MistralAIEmbeddings", keyVariable: "MISTRAL_API_KEY" },
  cohere: { package: "@langchain/cohere", className: "CohereEmbeddings", keyVariable: "COHERE_API_KEY" },
  "google-genai": {
    package: "@langchain/google-genai",
    className: "GoogleGenerativeAIEmbeddings",
    keyVariable: "GOOGLE_API_KEY",
  },
};

// LangChain retries 6 times by default, which keeps a command waiting for a minute when the
// provider is down; the chat model's default is 2.
const MAX_RETRIES = 2;

// A key for servers that want none (a local one at OPENAI_BASE_URL): the client refuses to start without one.
const NO_KEY = "not-needed";

/** What `--embeddings <provider:model>` opens, the same for every command that takes it. */
export interface EmbeddingsOption {
  /** The provider's LangChain embeddings class, set up for the model. */
  embeddings: EmbeddingsLike;
  /** The model's vectors on disk, keyed by the content hash of the text embedded (diagnostics on stderr). */
  cache: EmbeddingFileCache;
}

/**
 * Resolves `--embeddings <provider:model>`: the provider's optional package, its key, and the
 * vector cache of that model in the user's cache folder, which every command shares. A malformed
 * or unknown provider is a usage error; a missing package or key, an error naming what to do.
 */
export async function openEmbeddings(
  spec: string,
  terminal: Terminal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EmbeddingsOption> {
  const embeddings = await createEmbeddings(spec, env);
  const cache = createEmbeddingCache({
    model: spec,
    onDiagnostic: (diagnostic) => terminal.err(terminal.color.yellow(formatDiagnostic(diagnostic))),
  });
  return { embeddings, cache };
}

async function createEmbeddings(spec: string, env: NodeJS.ProcessEnv): Promise<EmbeddingsLike> {
  const separator = spec.indexOf(":");
  const provider = spec.slice(0, separator);
  const model = spec.slice(separator + 1);
  if (separator <= 0 || model === "")
    throw new CliError(
      "usage",
      `--embeddings must be <provider>:<model>, e.g. openai:text-embedding-3-small (got '${spec}')`,
    );
  const known = PROVIDERS[provider];
  if (!known)
    throw new CliError(
      "usage",
      `Unknown embeddings provider '${provider}': use one of ${Object.keys(PROVIDERS).join(", ")}`,
    );
  const module = await importOptional(
    () => import(known.package) as Promise<Record<string, unknown>>,
    `--embeddings ${spec}`,
    known.package,
  );
  const key = known.keyVariable ? env[known.keyVariable] : undefined;
  const local = known.baseUrl !== undefined && Boolean(env[known.baseUrl]);
  if (known.keyVariable && !key && !local)
    throw new CliError(
      "missing-key",
      `${known.keyVariable} is not set: export your ${provider} API key to use --embeddings ${spec}`,
    );
  const Embeddings = module[known.className] as new (fields: Record<string, unknown>) => EmbeddingsLike;
  try {
    return new Embeddings({ model, maxRetries: MAX_RETRIES, ...(known.keyVariable ? { apiKey: key ?? NO_KEY } : {}) });
  } catch (error) {
    throw new CliError("model-setup", `Cannot set up --embeddings ${spec}: ${firstLine(error)}`);
  }
}

/** The first line of an error's message, for a one-line report. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
}
