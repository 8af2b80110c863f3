/**
 * Bytes by key, within a total size: `remember` makes an entry the newest, and the oldest go
 * first when the total is over the limit (an entry larger than the limit is not kept at all).
 */
export interface ByteCache {
  /** The bytes remembered under `key`; getting does not make them newer. */
  get(key: string): Uint8Array | undefined;
  /** Keeps `bytes` under `key` as the newest entry, then drops the oldest until the total fits. */
  remember(key: string, bytes: Uint8Array): void;
}

/** A cache holding at most `maxBytes` bytes in all. */
export function createByteCache(maxBytes: number): ByteCache {
  const entries = new Map<string, Uint8Array>();
  return {
    get: (key) => entries.get(key),
    remember(key, bytes) {
      entries.delete(key);
      entries.set(key, bytes);
      let total = 0;
      for (const value of entries.values()) total += value.byteLength;
      for (const oldest of entries.keys()) {
        if (total <= maxBytes) break;
        total -= entries.get(oldest)!.byteLength;
        entries.delete(oldest);
      }
    },
  };
}
