import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { Catalog, CatalogSnapshot } from "../../core/catalog/catalog.js";
import { compareCodePoints } from "../../core/text/python-text.js";
import type { SkillEngine } from "../../core/engine/skill-engine.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";

/** What every session of one `skillset mcp` server shares: derived from the sources only, never per session. */
export interface McpServerContext {
  engine: SkillEngine;
  catalog: Catalog;
  /** The catalog now: a re-scan, cheap when nothing changed. */
  snapshot(): Promise<CatalogSnapshot>;
  /** Entries per page of the list methods. */
  pageSize: number;
  /** The freshness hint on Skills extension results, in milliseconds. */
  ttlMs: number;
}

/**
 * Refuses, as a protocol error naming the skill and why, a read of a skill the `lockfile` check
 * refuses: its files reach a client through resources and `skills/get` as well as through loads.
 */
export async function refuseUnverified(context: McpServerContext, skill: SkillMetadata): Promise<void> {
  const problem = await context.engine.verifyRead({}, skill);
  if (problem) throw protocolError(ErrorCode.InvalidParams, problem);
}

/** The source a catalog skill came from. */
export function sourceOf(context: McpServerContext, skill: SkillMetadata): SkillSource | undefined {
  return context.catalog.sources.find((source) => source.id === skill.source);
}

/**
 * One page of `items` (sorted by `key` in code point order, unique) after the opaque `cursor`, with the cursor of the
 * next page. A cursor names the last key given, so a page never repeats or skips an entry when
 * entries before it come or go between requests. `undefined` for a cursor this server did not make.
 */
export function pageAfter<T>(
  items: readonly T[],
  key: (item: T) => string,
  cursor: string | undefined,
  size: number,
): { page: T[]; nextCursor?: string } | undefined {
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor);
    if (after === undefined) return undefined;
    // The first key after the cursor's, by binary search (the items are sorted): a page of a
    // 100,000-skill listing costs no walk through the skills before it.
    let end = items.length;
    while (start < end) {
      const middle = (start + end) >>> 1;
      if (compareCodePoints(key(items[middle]!), after) > 0) end = middle;
      else start = middle + 1;
    }
  }
  const page = items.slice(start, start + size);
  return start + size < items.length ? { page, nextCursor: encodeCursor(key(page[page.length - 1]!)) } : { page };
}

function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ after: key })).toString("base64url");
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const { after } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after?: unknown };
    return typeof after === "string" ? after : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JSON-RPC error for the client. Not the SDK's `McpError`, whose message already carries the
 * `MCP error <code>:` prefix that the client's SDK adds again.
 */
export function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
