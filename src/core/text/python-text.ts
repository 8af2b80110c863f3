// The reference validator is Python; these mirror the few string semantics it relies on
// so that lengths, trimming and ordering agree character for character.

const PY_WHITESPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

/** `str.strip()`: Python's whitespace set differs from `String.prototype.trim` (no BOM, adds \x1c-\x1f and \x85). */
export function pyStrip(text: string): string {
  if (
    text.length > 0 &&
    !isWhitespaceCandidate(text.charCodeAt(0)) &&
    !isWhitespaceCandidate(text.charCodeAt(text.length - 1))
  )
    return text;
  let start = 0;
  let end = text.length;
  while (start < end && PY_WHITESPACE.includes(text[start]!)) start++;
  while (end > start && PY_WHITESPACE.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

// Every character in PY_WHITESPACE is at most U+0020 or at least U+0085.
function isWhitespaceCandidate(code: number): boolean {
  return code <= 0x20 || code >= 0x85;
}

/** `len(str)`: code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  if (!/[\ud800-\udfff]/.test(text)) return text.length;
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** `sorted()` on strings: by code point (UTF-16 order differs above U+D7FF). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const left = a.charCodeAt(i);
    const right = b.charCodeAt(i);
    if (left !== right) return codePointRank(left) - codePointRank(right);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit's place in code point order: surrogates (astral code points) sort after U+E000..U+FFFF. */
export function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
