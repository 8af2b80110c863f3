import { searchWords } from "./search-terms.js";

/**
 * A table from the words of texts, as {@link searchWords} cuts them, to values: the lexical index
 * keeps each word's posting here. For ASCII text (nearly every description) the words are found
 * and looked up in place, without cutting them out of the text: building the index of 10,000
 * skills spent most of its time on the strings and arrays that splitting made, and on hashing
 * each new string again. A word is cut out only the first time the table meets it.
 */
export interface WordTable<T> {
  /**
   * Puts the value of each word of `text` (in lower case) into `into`, from index 0, in order;
   * returns how many. A word not in the table yet gets `resolve(word)`, kept for next time;
   * words whose value is `undefined` are skipped. `resolve` is also asked again for a word whose
   * kept value `stale` says is out of date.
   */
  valuesOf(text: string, into: T[]): number;
  readonly size: number;
  /** Makes room for `words` words in all, so that reaching them grows the table no more. */
  reserve(words: number): void;
  clear(): void;
}

/** Creates an empty {@link WordTable}. */
export function createWordTable<T>(
  resolve: (word: string) => T | undefined,
  stale: (value: T) => boolean,
): WordTable<T> {
  // Open addressing with linear probing, at most half full.
  let keys: Array<string | undefined> = new Array<string | undefined>(1024);
  let hashes = new Int32Array(1024);
  let values: Array<T | undefined> = new Array<T | undefined>(1024);
  let size = 0;

  function valueAt(text: string, start: number, end: number, hash: number): T | undefined {
    const mask = keys.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const key = keys[slot];
      if (key === undefined) break;
      if (hashes[slot] !== hash || key.length !== length || !sameWord(text, start, key)) continue;
      const value = values[slot];
      if (value === undefined || !stale(value)) return value;
      return (values[slot] = resolve(key));
    }
    const word = (start === 0 && end === text.length ? text : text.slice(start, end)).toLowerCase();
    const value = resolve(word);
    insert(word, hash, value);
    return value;
  }

  function insert(word: string, hash: number, value: T | undefined): void {
    if (2 * (size + 1) > keys.length) grow(keys.length * 2);
    place(word, hash, value);
    size++;
  }

  function grow(length: number): void {
    const old = { keys, hashes, values };
    keys = new Array<string | undefined>(length);
    hashes = new Int32Array(length);
    values = new Array<T | undefined>(length);
    for (let slot = 0; slot < old.keys.length; slot++)
      if (old.keys[slot] !== undefined) place(old.keys[slot]!, old.hashes[slot]!, old.values[slot]);
  }

  function place(word: string, hash: number, value: T | undefined): void {
    const mask = keys.length - 1;
    let slot = hash & mask;
    while (keys[slot] !== undefined) slot = (slot + 1) & mask;
    keys[slot] = word;
    hashes[slot] = hash;
    values[slot] = value;
  }

  return {
    valuesOf(text, into) {
      const count = asciiValues(text, into, valueAt);
      if (count >= 0) return count;
      return otherValues(text, into, valueAt);
    },
    get size() {
      return size;
    },
    reserve(words) {
      let length = keys.length;
      while (2 * words > length) length *= 2;
      if (length > keys.length) grow(length);
    },
    clear() {
      keys = new Array<string | undefined>(1024);
      hashes = new Int32Array(1024);
      values = new Array<T | undefined>(1024);
      size = 0;
    },
  };
}

// The words of plain ASCII text, found in one pass that also lowers their case; -1 for other text.
function asciiValues<T>(text: string, into: T[], valueAt: ValueAt<T>): number {
  let count = 0;
  let start = -1;
  let hash = 0;
  for (let at = 0; at <= text.length; at++) {
    let code = at < text.length ? text.charCodeAt(at) : 32;
    if (code >= 65 && code <= 90) code += 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) {
        start = at;
        hash = 0;
      }
      hash = (Math.imul(hash, 31) + code) | 0;
      continue;
    }
    // Not plain ASCII (as searchWords tests it): split the Unicode way.
    if (code > 126 || (code < 32 && code !== 9 && code !== 10 && code !== 13)) return -1;
    if (start < 0) continue;
    const value = valueAt(text, start, at, mix(hash));
    if (value !== undefined) into[count++] = value;
    start = -1;
  }
  return count;
}

function otherValues<T>(text: string, into: T[], valueAt: ValueAt<T>): number {
  let count = 0;
  for (const word of searchWords(text)) {
    if (word === "") continue;
    const value = valueAt(word, 0, word.length, hashOf(word, 0, word.length));
    if (value !== undefined) into[count++] = value;
  }
  return count;
}

// The value of the word text[start..end) whose hash is `hash`, resolved when new.
type ValueAt<T> = (text: string, start: number, end: number, hash: number) => T | undefined;

// Whether text[start..start + word.length), in lower case, is `word` (a word of letters and digits; only ASCII capitals differ).
function sameWord(text: string, start: number, word: string): boolean {
  for (let at = 0; at < word.length; at++) {
    let code = text.charCodeAt(start + at);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== word.charCodeAt(at)) return false;
  }
  return true;
}

// The same hash the in-place loop computes, for a word cut out already.
function hashOf(text: string, start: number, end: number): number {
  let hash = 0;
  for (let at = start; at < end; at++) hash = (Math.imul(hash, 31) + text.charCodeAt(at)) | 0;
  return mix(hash);
}

// Spreads the low bits, which pick the slot (words differing in their last letter differ there).
function mix(hash: number): number {
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return hash ^ (hash >>> 16);
}
