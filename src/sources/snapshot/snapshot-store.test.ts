import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it, vi } from "vitest";
import { retryingStore } from "./snapshot-store.js";
import { WHOLE_NAMESPACE } from "./store-search-pages.js";

describe("retryingStore's list", () => {
  it("lists every item when the pages never meet (an order with ties), in one query after three tries", async () => {
    const store = new InMemoryStore();
    for (let index = 0; index < 2500; index++)
      await store.put(["corrections"], `key-${String(index).padStart(4, "0")}`, { source: "s", index });
    await store.put(["corrections"], "other", { source: "t" });
    const search = store.search.bind(store);
    // Every page after the first starts one item late, as ties ordered anew for each page would.
    const spy = vi
      .spyOn(store, "search")
      .mockImplementation((namespace, options) =>
        search(namespace, options?.offset ? { ...options, offset: options.offset + 1 } : options),
      );
    const listed = await retryingStore(store, ["corrections"], "memory").list("s");
    expect(listed.map((item) => item.key).sort()).toEqual(
      Array.from({ length: 2500 }, (_, index) => `key-${String(index).padStart(4, "0")}`),
    );
    // Three tries stop at their second page; the fourth is one query.
    expect(spy.mock.calls.map(([, options]) => options?.limit)).toEqual([
      1000,
      1001,
      1000,
      1001,
      1000,
      1001,
      WHOLE_NAMESPACE,
    ]);
  });
});
