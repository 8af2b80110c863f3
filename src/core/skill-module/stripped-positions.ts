// Where a place in TypeScript-stripped JavaScript was in the TypeScript. Sucrase keeps every
// line where it was and only removes text within a line (types) or adds some (enums, parameter
// properties), so the place is found on the same line. Its source map is not used: its columns
// go wrong after a template literal with an empty part (sucrase 3.35), which is common.

/** The 1-based line and column of an offset, lines ending at `\n`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const starts = lineStarts(text);
  const line = lineOf(starts, offset);
  return { line: line + 1, column: offset - starts[line]! + 1 };
}

/**
 * Maps offsets in the stripped text to offsets in the original. The stripped line's characters
 * before the offset are matched, in order, with the earliest equal characters of the original
 * line (whitespace skipped): the place found is never after the true one, and is it whenever the
 * text kept before it does not also occur in the types removed before it. Callers that need
 * certainty check what they find there. A character added by the stripping maps to the line's start.
 */
export function originalOffsets(original: string, stripped: string): (offset: number) => number {
  const originalStarts = lineStarts(original);
  const strippedStarts = lineStarts(stripped);
  return (offset) => {
    const line = lineOf(strippedStarts, offset);
    const lineStart = originalStarts[line] ?? original.length;
    const lineEnd = originalStarts[line + 1] ?? original.length;
    let at = lineStart;
    for (let index = strippedStarts[line]!; index <= offset && index < stripped.length; index++) {
      const character = stripped[index]!;
      if (/\s/.test(character)) continue;
      const found = original.indexOf(character, at);
      if (found < 0 || found >= lineEnd) return lineStart;
      if (index === offset) return found;
      at = found + 1;
    }
    return Math.min(at, lineEnd);
  };
}

/** Offsets at which each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

// The 0-based line holding `offset`, by binary search over the lines' starts.
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
