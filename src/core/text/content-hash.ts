/**
 * Two 32-bit FNV-1a hashes with different seeds, plus the length: stable across processes, and
 * synchronous and fast enough to hash a catalog once per change, or each of 10,000 skill texts.
 */
export function contentHash(text: string): string {
  return createContentHasher().update(text).digest();
}

/** {@link contentHash} of texts given in parts: the same digest as of the parts joined. */
export interface ContentHasher {
  update(text: string): ContentHasher;
  digest(): string;
}

/** A {@link ContentHasher}, so a large text can be hashed part by part, between turns of the event loop. */
export function createContentHasher(): ContentHasher {
  let first = 0x811c9dc5;
  let second = 0x2f1e3d4c;
  let length = 0;
  const hasher: ContentHasher = {
    update(text) {
      // Locals in the loop: the closure's own variables are slower to read and write, per character.
      let a = first;
      let b = second;
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        a = Math.imul(a ^ code, 0x01000193);
        b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 13);
      }
      first = a;
      second = b;
      length += text.length;
      return hasher;
    },
    digest: () => `${(first >>> 0).toString(16)}${(second >>> 0).toString(16)}:${length}`,
  };
  return hasher;
}
