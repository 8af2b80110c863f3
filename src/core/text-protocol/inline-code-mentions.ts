/**
 * Whether the text from `start` to `end` lies inside an inline code span, on a line that also
 * holds prose (a letter or digit outside that span): an instruction the model talks about
 * rather than gives. An instruction alone in backticks on its line still runs. Spans are
 * Markdown's, within one line: a run of backticks closed by the next run of the same length.
 * Each line is examined once, so the check stays linear however many tags a line holds.
 */
export function inlineCodeMentions(text: string): (start: number, end: number) => boolean {
  let lineStart = -1;
  let lineEnd = -1;
  let spans: Array<[number, number]> = [];
  let spanIndex = 0;
  let firstWord = 0;
  let lastWord = 0;
  return (start, end) => {
    if (start >= lineEnd || start < lineStart) {
      lineStart = text.lastIndexOf("\n", start - 1) + 1;
      lineEnd = text.indexOf("\n", start);
      if (lineEnd === -1) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      spans = line.includes("`") ? codeSpans(line, lineStart) : [];
      spanIndex = 0;
      if (spans.length > 0) {
        const first = line.search(/[\p{L}\p{N}]/u);
        firstWord = first === -1 ? Infinity : lineStart + first;
        lastWord = first === -1 ? -Infinity : lineStart + line.search(/[\p{L}\p{N}][^\p{L}\p{N}]*$/u);
      }
    }
    while (spanIndex < spans.length && spans[spanIndex]![1] <= start) spanIndex++;
    const span = spans[spanIndex];
    if (!span || span[0] > start || end > span[1]) return false;
    return firstWord < span[0] || lastWord >= span[1];
  };
}

function codeSpans(line: string, offset: number): Array<[number, number]> {
  const runs = [...line.matchAll(/`+/g)].map((match) => ({ at: match.index, length: match[0].length }));
  // The next run of the same length, found for every run in one backward pass.
  const closer: number[] = new Array<number>(runs.length);
  const lastOfLength = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index--) {
    closer[index] = lastOfLength.get(runs[index]!.length) ?? -1;
    lastOfLength.set(runs[index]!.length, index);
  }
  const spans: Array<[number, number]> = [];
  for (let index = 0; index < runs.length;) {
    const close = closer[index]!;
    if (close === -1) {
      index++;
      continue;
    }
    spans.push([offset + runs[index]!.at, offset + runs[close]!.at + runs[close]!.length]);
    index = close + 1;
  }
  return spans;
}
