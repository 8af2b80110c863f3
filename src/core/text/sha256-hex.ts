/**
 * The SHA-256 of `data` in lowercase hex, through Web Crypto (`globalThis.crypto.subtle`), which
 * Node 20, Deno, Bun, browsers and workers all have, so core/ stays free of `node:crypto`.
 */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
