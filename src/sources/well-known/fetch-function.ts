/**
 * The `fetch` a well-known source uses: the global one, or one the integrator passes (proxies,
 * custom TLS, tests). It is the global `fetch`'s own type, read from `globalThis`, so that the
 * declarations compile without the DOM or Node's types too (where there is no `fetch` to pass).
 */
export type FetchFunction = typeof globalThis extends { fetch: infer F } ? F : never;
