import { describe, expect, it } from "vitest";
import { createByteCache } from "./byte-cache.js";

const bytes = (size: number) => new Uint8Array(size);

describe("createByteCache", () => {
  it("keeps what fits and gives it back by key", () => {
    const cache = createByteCache(10);
    const a = bytes(4);
    cache.remember("a", a);
    expect(cache.get("a")).toBe(a);
    expect(cache.get("b")).toBeUndefined();
  });

  it("drops the oldest entries first once the total is over the limit", () => {
    const cache = createByteCache(10);
    cache.remember("a", bytes(4));
    cache.remember("b", bytes(4));
    cache.remember("c", bytes(4));
    expect([cache.get("a"), cache.get("b")?.byteLength, cache.get("c")?.byteLength]).toEqual([undefined, 4, 4]);
  });

  it("makes an entry the newest when it is remembered again, not when it is read", () => {
    const cache = createByteCache(10);
    cache.remember("a", bytes(4));
    cache.remember("b", bytes(4));
    cache.get("a");
    cache.remember("a", bytes(4));
    cache.remember("c", bytes(4));
    expect([cache.get("a")?.byteLength, cache.get("b"), cache.get("c")?.byteLength]).toEqual([4, undefined, 4]);
  });

  it("counts a key remembered again once, with its new bytes", () => {
    const cache = createByteCache(10);
    cache.remember("a", bytes(6));
    cache.remember("a", bytes(2));
    cache.remember("b", bytes(8));
    expect([cache.get("a")?.byteLength, cache.get("b")?.byteLength]).toEqual([2, 8]);
  });

  it("keeps the total at the limit exactly, and nothing larger than the limit", () => {
    const cache = createByteCache(10);
    cache.remember("a", bytes(5));
    cache.remember("b", bytes(5));
    expect([cache.get("a")?.byteLength, cache.get("b")?.byteLength]).toEqual([5, 5]);
    cache.remember("huge", bytes(11));
    expect([cache.get("a"), cache.get("b"), cache.get("huge")]).toEqual([undefined, undefined, undefined]);
  });
});
