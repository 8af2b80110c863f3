import type { ChatModel } from "./chat-model.js";

/** What kind of failure ended a turn. */
export type TurnFailure =
  | "auth"
  | "rate-limit"
  | "timeout"
  | "unreachable"
  | "bad-response"
  | "refused"
  | "server"
  | "too-many-steps"
  | "other";

/** A failed turn as the CLI reports it: one line, and whether every later turn would fail too. */
export interface TurnErrorReport {
  kind: TurnFailure;
  /** One line, without the `skillset:` prefix. */
  message: string;
  /** True when every later request would fail the same way (a wrong key, an unknown model). */
  fatal: boolean;
}

/**
 * Turns the error that ended a turn, usually from a provider package (`@langchain/openai`,
 * `@langchain/anthropic`, their SDKs, LangChain's retry layer), into one line a user can act on.
 */
export function describeTurnError(
  thrown: unknown,
  model: Pick<ChatModel, "endpoint" | "keyVariable" | "answeredHtml">,
  timeoutMs: number,
): TurnErrorReport {
  const error = unwrap(thrown);
  const status = statusOf(error);
  const detail = sentence(providerMessage(error));
  if (status === 401 || status === 403) {
    const key = model.keyVariable ? ` Check ${model.keyVariable}.` : "";
    return { kind: "auth", message: `The provider refused the request (${status}): ${detail}${key}`, fatal: true };
  }
  if (status === 429)
    return {
      kind: "rate-limit",
      message: `The provider is rate-limiting requests (429): ${detail} Wait a moment and try again.`,
      fatal: false,
    };
  if (status === 404)
    return { kind: "refused", message: `The provider does not know this model or path (404): ${detail}`, fatal: true };
  if (status !== undefined && status >= 500)
    return { kind: "server", message: `The provider failed (${status}): ${detail}`, fatal: false };
  if (status !== undefined)
    return { kind: "refused", message: `The provider refused the request (${status}): ${detail}`, fatal: false };
  const name = error instanceof Error ? error.name : "";
  const text = error instanceof Error ? error.message : String(error);
  if (name === "TimeoutError" || name === "APIConnectionTimeoutError" || /timed out/i.test(text)) {
    return {
      kind: "timeout",
      message: `No answer from ${model.endpoint} within ${formatSeconds(timeoutMs)} (--timeout).`,
      fatal: false,
    };
  }
  if (name === "APIConnectionError" || /ECONNREFUSED|ENOTFOUND|fetch failed|Connection error/i.test(text)) {
    return {
      kind: "unreachable",
      message: `Cannot reach ${model.endpoint}: ${sentence(causeOf(error) ?? text)}`,
      fatal: false,
    };
  }
  if (name === "GraphRecursionError")
    return {
      kind: "too-many-steps",
      message: "The agent took too many steps without finishing its answer.",
      fatal: false,
    };
  // How the provider packages fail on a body that is not their API's (an HTML page, a proxy's JSON).
  if (/empty response|Unexpected (?:token|end of JSON)|not valid JSON/i.test(text)) {
    if (model.answeredHtml?.())
      return {
        kind: "bad-response",
        message: `${model.endpoint} answered with a web page (text/html), not the provider's API: is it the API's address? (an OpenAI-compatible server's usually ends in /v1; give it with --base-url)`,
        fatal: false,
      };
    return {
      kind: "bad-response",
      message: `The provider's answer could not be read (${firstLine(text).replace(/\.$/, "")}): is ${model.endpoint} a server for this provider's API?`,
      fatal: false,
    };
  }
  return { kind: "other", message: `The model request failed: ${sentence(text)}`, fatal: false };
}

function statusOf(error: unknown): number | undefined {
  const value =
    (error as { status?: unknown; response?: { status?: unknown } } | undefined)?.status ??
    (error as { response?: { status?: unknown } } | undefined)?.response?.status;
  return typeof value === "number" ? value : undefined;
}

// The API's own message: OpenAI's `error.message`, Anthropic's `error.error.message`, else the
// SDK's text without its status prefix and LangChain's troubleshooting link.
function providerMessage(error: unknown): string {
  const body = (error as { error?: { message?: unknown; error?: { message?: unknown } } } | undefined)?.error;
  const message = body?.error?.message ?? body?.message;
  if (typeof message === "string" && message.trim()) return message.trim();
  const text = error instanceof Error ? error.message : String(error);
  return firstLine(text.replace(/^\d{3}\s+/, "")) || "no details";
}

// The system error code (ECONNREFUSED, ENOTFOUND, …) somewhere down the chain of causes.
function causeOf(error: unknown): string | undefined {
  for (
    let cause = (error as { cause?: unknown } | undefined)?.cause;
    cause;
    cause = (cause as { cause?: unknown }).cause
  ) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

// LangChain wraps what a middleware's model call throws (the provider's error) in a MiddlewareError.
function unwrap(error: unknown): unknown {
  let current = error;
  while (
    (current as { "~brand"?: unknown } | undefined)?.["~brand"] === "MiddlewareError" &&
    (current as { cause?: unknown }).cause
  )
    current = (current as { cause: unknown }).cause;
  return current;
}

// The first line of a message as a sentence ending in one full stop.
function sentence(text: string): string {
  return `${firstLine(text).replace(/[.!?]+$/, "")}.`;
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
