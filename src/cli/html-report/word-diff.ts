/** A run of words both texts share, or that only the first or only the second has. */
export interface DiffPart {
  kind: "same" | "removed" | "added";
  text: string;
}

// Descriptions are at most 1,024 characters, so a full table of common subsequences is small.
const MAX_TOKENS = 2_000;

/**
 * The words (and the spaces between them) that changed from `before` to `after`, by their
 * longest common subsequence; neighbouring parts of a kind are joined.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.match(/\s+|[^\s]+/g) ?? [];
  const b = after.match(/\s+|[^\s]+/g) ?? [];
  if (a.length + b.length > MAX_TOKENS)
    return [
      { kind: "removed", text: before },
      { kind: "added", text: after },
    ];
  // common[i][j]: the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: "same", text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      parts.push({ kind: "removed", text: a[i++]! });
    } else {
      parts.push({ kind: "added", text: b[j++]! });
    }
  }
  return join(parts);
}

// Each change as one removed then one added part; a space alone between two changes belongs to both.
function join(parts: readonly DiffPart[]): DiffPart[] {
  const joined: DiffPart[] = [];
  let removed = "";
  let added = "";
  const flush = () => {
    // Space both sides end with is shared, not changed.
    const space = removed && added ? (/\s+$/.exec(removed)?.[0] ?? "") : "";
    const shared = added.endsWith(space) ? space : "";
    if (removed) joined.push({ kind: "removed", text: removed.slice(0, removed.length - shared.length) });
    if (added) joined.push({ kind: "added", text: added.slice(0, added.length - shared.length) });
    if (shared) joined.push({ kind: "same", text: shared });
    removed = added = "";
  };
  parts.forEach((part, index) => {
    const between = index > 0 && parts[index - 1]!.kind !== "same" && parts[index + 1]?.kind !== "same";
    if (part.kind === "same" && !(between && /^\s+$/.test(part.text) && index < parts.length - 1)) {
      flush();
      const last = joined.at(-1);
      if (last?.kind === "same") last.text += part.text;
      else joined.push({ ...part });
    } else {
      if (part.kind !== "added") removed += part.text;
      if (part.kind !== "removed") added += part.text;
    }
  });
  flush();
  return joined;
}
