import { describe, expect, it } from "vitest";
import { searchInPages, type PagedItem } from "./store-search-pages.js";

const items = (...keys: string[]): PagedItem[] => keys.map((key) => ({ namespace: ["ns"], key }));

// A store's search over `list`, which `between` may change before the page numbered `call` (from 1).
function searchOver(list: PagedItem[], between: (call: number, list: PagedItem[]) => void = () => {}) {
  const asked: Array<{ limit: number; offset: number }> = [];
  const search = async (page: { limit: number; offset: number }) => {
    asked.push(page);
    between(asked.length, list);
    return list.slice(page.offset, page.offset + page.limit);
  };
  return { search, asked };
}

const keysOf = async (search: (page: { limit: number; offset: number }) => Promise<PagedItem[]>, size: number) => {
  const seen: string[] = [];
  const met = await searchInPages(search, size, (page) => {
    seen.push(...page.map((item) => item.key));
    return true;
  });
  return { met, seen };
};

describe("searchInPages", () => {
  it("visits every item once, asking each page after the first from the previous page's last item", async () => {
    const { search, asked } = searchOver(items("a", "b", "c", "d", "e", "f", "g"));
    expect(await keysOf(search, 3)).toEqual({ met: true, seen: ["a", "b", "c", "d", "e", "f", "g"] });
    expect(asked).toEqual([
      { limit: 3, offset: 0 },
      { limit: 4, offset: 2 },
      { limit: 4, offset: 5 },
    ]);
  });

  it("says the pages did not meet when an item before the page was deleted (it would skip one) or written", async () => {
    const deleted = searchOver(items("a", "b", "c", "d", "e", "f"), (call, list) => call === 2 && list.splice(0, 1));
    expect(await keysOf(deleted.search, 3)).toEqual({ met: false, seen: ["a", "b", "c"] });
    const written = searchOver(
      items("a", "b", "c", "d", "e", "f"),
      (call, list) => call === 2 && list.unshift(...items("new")),
    );
    expect(await keysOf(written.search, 3)).toEqual({ met: false, seen: ["a", "b", "c"] });
    // The previous page's last item itself deleted: its next page cannot start with it.
    const gone = searchOver(items("a", "b", "c", "d"), (call, list) => call === 2 && list.splice(2, 1));
    expect((await keysOf(gone.search, 3)).met).toBe(false);
  });

  it("meets when a write comes after the pages read so far, and stops when the visitor says so", async () => {
    const later = searchOver(items("a", "b", "c", "d"), (call, list) => call === 2 && list.push(...items("e")));
    expect(await keysOf(later.search, 3)).toEqual({ met: true, seen: ["a", "b", "c", "d", "e"] });
    const { search, asked } = searchOver(items("a", "b", "c", "d", "e", "f", "g"));
    expect(await searchInPages(search, 3, () => false)).toBe(true);
    expect(asked).toHaveLength(1);
  });
});
