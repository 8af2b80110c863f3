import type { Comment } from "acorn";

/** Longest summary kept from a doc comment; the model reads it in the catalog. */
export const MAX_SUMMARY_CHARS = 200;

/**
 * The TSDoc/JSDoc comment (`/** … *\/`) that ends right before `start`, with only whitespace
 * between them, or `undefined`. `comments` are in source order.
 */
export function docCommentBefore(comments: readonly Comment[], source: string, start: number): Comment | undefined {
  let low = 0;
  let high = comments.length;
  // The last comment ending at or before `start`.
  while (low < high) {
    const middle = (low + high) >> 1;
    if (comments[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  const comment = comments[low - 1];
  if (!comment || comment.type !== "Block" || !comment.value.startsWith("*") || comment.value === "*") return undefined;
  return /^\s*$/.test(source.slice(comment.end, start)) ? comment : undefined;
}

/**
 * The first sentence of a doc comment's summary (the text before its first `@` tag), on one line,
 * `{@link X}` written as `X`; at most {@link MAX_SUMMARY_CHARS} characters. `undefined` when the
 * comment has no summary.
 */
export function firstSentence(comment: Comment): string | undefined {
  const lines: string[] = [];
  for (const line of comment.value.slice(1).split(/\r?\n/)) {
    const text = line.replace(/^\s*\*?\s?/, "");
    if (/^\s*@/.test(text)) break;
    lines.push(text);
  }
  const summary = lines
    .join(" ")
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)\s*(?:\|\s*([^}]*))?\}/g, (_, target: string, label?: string) =>
      (label ?? target).trim(),
    )
    .replace(/\s+/g, " ")
    .trim();
  if (summary === "") return undefined;
  // A sentence ends at `.`, `!` or `?` followed by a space, unless it is an abbreviation like "e.g.".
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs))[.!?](?=\s|$)/.exec(summary);
  const sentence = end ? summary.slice(0, end.index + 1) : summary;
  return sentence.length <= MAX_SUMMARY_CHARS ? sentence : `${sentence.slice(0, MAX_SUMMARY_CHARS - 1).trimEnd()}…`;
}
