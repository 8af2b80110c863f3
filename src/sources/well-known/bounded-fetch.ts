import { SkillsetError } from "../../errors/skillset-error.js";
import type { FetchFunction } from "./fetch-function.js";
import { isAllowedUrl } from "./site-url.js";

/** Bounds of one download. */
export interface DownloadLimits {
  /** Abort when the whole exchange (redirects and body included) takes longer, in milliseconds. */
  timeoutMs: number;
  /** Refuse a body larger than this many bytes. */
  maxBytes: number;
  /** What is downloaded, for messages: `the index`, `skill 'pdf'`. */
  what: string;
}

const MAX_REDIRECTS = 5;

/**
 * The body at `url`, whole, or a {@link SkillsetError} naming the URL: a status other than 2xx
 * (`http-error`), a redirect to another origin or a non-https URL (`redirect-refused`), a body
 * over `maxBytes` (`too-large`, checked on `Content-Length` and while reading) or a timeout.
 */
export async function boundedFetch(fetchFn: FetchFunction, url: URL, limits: DownloadLimits): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    let current = url;
    for (let hops = 0; ; hops++) {
      const response = await fetchFn(current.href, {
        redirect: "manual",
        signal,
        headers: { accept: "application/json, text/markdown, application/gzip, application/zip, */*" },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        current = redirectTarget(url, current, response.headers.get("location")!, limits, hops);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new SkillsetError("http-error", `${limits.what} at ${current.href} answered HTTP ${response.status}`);
      }
      return await readBody(response, current, limits);
    }
  } catch (error) {
    if (signal.aborted)
      throw new SkillsetError(
        "timeout",
        `${limits.what} at ${url.href} took longer than ${limits.timeoutMs} ms; gave up`,
      );
    if (SkillsetError.isInstance(error)) throw error;
    throw new SkillsetError(
      "fetch-failed",
      `${limits.what} at ${url.href} could not be fetched: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

// Where a redirect leads: only within the origin first asked, and never more than a few hops.
function redirectTarget(first: URL, current: URL, location: string, limits: DownloadLimits, hops: number): URL {
  const next = new URL(location, current);
  if (next.origin !== first.origin || !isAllowedUrl(next)) {
    throw new SkillsetError(
      "redirect-refused",
      `${limits.what} at ${first.href} redirects to ${next.href}, another origin; refused (redirects are followed within ${first.origin} only)`,
    );
  }
  if (hops >= MAX_REDIRECTS)
    throw new SkillsetError(
      "redirect-refused",
      `${limits.what} at ${first.href} redirects more than ${MAX_REDIRECTS} times; refused`,
    );
  return next;
}

async function readBody(response: Response, url: URL, limits: DownloadLimits): Promise<Uint8Array> {
  const tooLarge = () =>
    new SkillsetError("too-large", `${limits.what} at ${url.href} is larger than ${limits.maxBytes} bytes; refused`);
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.byteLength;
      if (total > limits.maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(read.value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
