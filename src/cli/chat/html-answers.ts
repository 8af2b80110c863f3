/** Notes whether a provider's server answered with a web page, so the error that follows can say so. */
export interface HtmlAnswers {
  /** A `fetch` for the provider's client: the global one, noting an answer of type `text/html`. */
  fetch: typeof globalThis.fetch;
  /** Whether the latest answer was a web page. */
  seen(): boolean;
}

/**
 * A watch for web pages among a provider's answers. A base URL that is a web server (a proxy's
 * page, a site's front page, an address missing its `/v1`) answers with HTML, which the provider
 * packages read as an empty answer; only the answer's type tells what happened.
 */
export function watchHtmlAnswers(): HtmlAnswers {
  let seen = false;
  return {
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      seen = /^\s*text\/html\b/i.test(response.headers.get("content-type") ?? "");
      return response;
    },
    seen: () => seen,
  };
}
