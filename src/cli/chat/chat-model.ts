import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { initChatModel } from "langchain";
import { MODEL_PROVIDER_CONFIG } from "langchain/chat_models/universal";
import { CliError } from "../cli-error.js";
import { watchHtmlAnswers } from "./html-answers.js";
import { importOptional } from "./optional-package.js";

/** How `skillset chat` and `skillset eval` reach a model. */
export interface ChatModelOptions {
  /** `<provider>:<model>`, e.g. `openai:gpt-4o-mini` or `anthropic:claude-sonnet-4-5`. */
  model: string;
  /** Another server speaking the provider's API (Ollama, vLLM, LM Studio for `openai`). */
  baseUrl?: string;
  /** How long one model request may take. */
  timeoutMs: number;
  /** Retries of a failed request (rate limits with a short `retry-after`, timeouts, 5xx). */
  maxRetries: number;
  env?: NodeJS.ProcessEnv;
}

/** A ready model and what the CLI says about it. */
export interface ChatModel {
  model: BaseChatModel;
  /** `openai`, `anthropic`, … */
  provider: string;
  /** Where requests go, for error messages. */
  endpoint: string;
  /** The environment variable the API key comes from, when skillset knows it. */
  keyVariable?: string;
  /** Whether the server answered with a web page (for the providers skillset configures). */
  answeredHtml?: () => boolean;
}

// Providers skillset configures itself (key, base URL, timeout); any other provider that
// LangChain's initChatModel knows gets the model name, base URL, timeout and retries only.
const KNOWN: Record<string, { keyVariable: string; endpoint: string }> = {
  openai: { keyVariable: "OPENAI_API_KEY", endpoint: "https://api.openai.com/v1" },
  anthropic: { keyVariable: "ANTHROPIC_API_KEY", endpoint: "https://api.anthropic.com" },
};

// A key for servers that want none (a local Ollama): the OpenAI client refuses to start without one.
const NO_KEY = "not-needed";

/**
 * Creates the model named by `--model` through LangChain's `initChatModel`. The provider's
 * package is an optional dependency: when it is missing, the error names the package to install.
 */
export async function createChatModel(options: ChatModelOptions): Promise<ChatModel> {
  const env = options.env ?? process.env;
  const separator = options.model.indexOf(":");
  const provider = options.model.slice(0, separator);
  const name = options.model.slice(separator + 1);
  if (separator <= 0 || name === "") {
    throw new CliError(
      "usage",
      `--model must be <provider>:<model>, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5 (got '${options.model}')`,
    );
  }
  const config = (MODEL_PROVIDER_CONFIG as Record<string, { package: string }>)[provider];
  if (!config) {
    throw new CliError(
      "usage",
      `Unknown model provider '${provider}': use one of ${Object.keys(MODEL_PROVIDER_CONFIG).join(", ")}`,
    );
  }
  // Imported here first so that a missing package is named clearly, whoever reports it.
  await importOptional(() => import(config.package), `--model ${options.model}`, config.package);

  const known = KNOWN[provider];
  const key = known ? env[known.keyVariable] : undefined;
  if (known && !key && !options.baseUrl) {
    throw new CliError(
      "missing-key",
      `${known.keyVariable} is not set: export your ${provider} API key to use --model ${options.model}`,
    );
  }
  const html = watchHtmlAnswers();
  const params = providerParams(provider, options, key, html.fetch);
  let model: BaseChatModel;
  try {
    model = (await initChatModel(name, { modelProvider: provider, ...params })) as unknown as BaseChatModel;
  } catch (error) {
    throw new CliError("model-setup", `Cannot set up --model ${options.model}: ${firstLine(error)}`);
  }
  return {
    model,
    provider,
    endpoint: options.baseUrl ?? known?.endpoint ?? provider,
    ...(known ? { keyVariable: known.keyVariable, answeredHtml: html.seen } : {}),
  };
}

function providerParams(
  provider: string,
  options: ChatModelOptions,
  key: string | undefined,
  fetch: typeof globalThis.fetch,
): Record<string, unknown> {
  const common = { maxRetries: options.maxRetries };
  switch (provider) {
    case "openai":
      return {
        ...common,
        apiKey: key ?? NO_KEY,
        timeout: options.timeoutMs,
        configuration: { fetch, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) },
      };
    case "anthropic":
      return {
        ...common,
        apiKey: key ?? NO_KEY,
        clientOptions: { timeout: options.timeoutMs, fetch },
        ...(options.baseUrl ? { anthropicApiUrl: options.baseUrl } : {}),
      };
    default:
      return { ...common, timeout: options.timeoutMs, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) };
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
}

/** The model options as `chat` and `eval` take them on the command line. */
export interface ModelCliOptions {
  model: string;
  baseUrl?: string;
  /** Seconds. */
  timeout?: string;
  maxRetries?: string;
}

/** Default `--timeout`, in seconds: long answers from slow local models take a while. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** Default `--max-retries`. */
export const DEFAULT_MAX_RETRIES = 2;

/** Reads the model options of the command line; a bad number is a usage error naming the option. */
export function modelOptionsFrom(options: ModelCliOptions): ChatModelOptions {
  const timeout = options.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(options.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new CliError("usage", `--timeout must be a number of seconds greater than 0 (got '${options.timeout}')`);
  const retries = options.maxRetries === undefined ? DEFAULT_MAX_RETRIES : Number(options.maxRetries);
  if (!Number.isInteger(retries) || retries < 0)
    throw new CliError("usage", `--max-retries must be a whole number, 0 or more (got '${options.maxRetries}')`);
  return {
    model: options.model,
    timeoutMs: Math.round(timeout * 1000),
    maxRetries: retries,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
}
