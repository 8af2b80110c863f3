import { SkillsetError } from "../../errors/skillset-error.js";
import { sameNamespace, searchInPages, WHOLE_NAMESPACE } from "./store-search-pages.js";

/**
 * The part of a LangGraph store (`BaseStore`: `PostgresStore`, `InMemoryStore`, …) that a
 * snapshot source uses: one item read, written or deleted at a time, and the items of a namespace
 * listed (to find what killed writers left, and the corrections other workers made).
 */
export interface SnapshotStore {
  get(
    namespace: string[],
    key: string,
  ): Promise<{ value: Record<string, unknown>; updatedAt?: Date } | null | undefined>;
  put(namespace: string[], key: string, value: Record<string, unknown>): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  /** The items of the namespaces below a prefix; `updatedAt` is by the store's own clock (PostgreSQL's). */
  search(
    namespacePrefix: string[],
    options?: { filter?: Record<string, unknown>; limit?: number; offset?: number },
  ): Promise<Array<{ key: string; namespace: string[]; value: Record<string, unknown>; updatedAt: Date }>>;
}

/** An item listed: its key, value, and the store's time of its last write (`undefined` when the store keeps none). */
export interface ListedItem {
  key: string;
  value: Record<string, unknown>;
  updatedAt: Date | undefined;
}

/** How often, and how patiently, a store that does not answer is asked again. */
export interface StoreRetry {
  /** Tries in all. @default 3 */
  attempts?: number;
  /** Wait before the second try; it doubles for each further one. @default 200 */
  delayMs?: number;
}

/** A store's calls at one namespace, each tried again on failure and reported as `store-unavailable` naming the store. */
export interface RetryingStore {
  get(key: string): Promise<Record<string, unknown> | undefined>;
  /** The item with the store's time of its last write (`undefined` when the store keeps none). */
  item(key: string): Promise<{ value: Record<string, unknown>; updatedAt: Date | undefined } | undefined>;
  put(key: string, value: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every item of this namespace itself (none below it) whose value has `source`. */
  list(source: string): Promise<ListedItem[]>;
  /** The same store at the namespace `label` below this one. */
  below(label: string): RetryingStore;
}

// Items listed per query; a namespace of corrections or writers rarely holds more.
const PAGE = 1000;

/** `store` at `namespace`, with retries; `storeName` names it in errors. */
export function retryingStore(
  store: SnapshotStore,
  namespace: string[],
  storeName: string,
  retry: StoreRetry = {},
): RetryingStore {
  const attempts = Math.max(1, retry.attempts ?? 3);
  const delayMs = retry.delayMs ?? 200;
  const call = async <T>(what: string, operation: () => Promise<T>): Promise<T> => {
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** (attempt - 1)));
      try {
        return await operation();
      } catch (error) {
        lastError = error;
      }
    }
    throw new SkillsetError(
      "store-unavailable",
      `The skill store ${storeName} did not answer (${what} in ${JSON.stringify(namespace)}, ${attempts} ${attempts === 1 ? "try" : "tries"}): ${describe(lastError)}`,
      { cause: lastError },
    );
  };
  const item = (key: string) =>
    call(`reading ${key}`, async () => {
      const found = await store.get(namespace, key);
      return found ? { value: found.value, updatedAt: timeOf(found.updatedAt) } : undefined;
    });
  return {
    get: async (key) => (await item(key))?.value,
    item,
    put: (key, value) => call(`writing ${key}`, () => store.put(namespace, key, value)),
    delete: (key) => call(`deleting ${key}`, () => store.delete(namespace, key)),
    list: (source) => call("listing", () => listAll(store, namespace, source)),
    below: (label) => retryingStore(store, [...namespace, label], storeName, retry),
  };
}

// Pages through the namespace. A search lists the namespaces below it too (in PostgreSQL, any
// whose name merely starts the same): only this one's items are kept, each once. When a write or
// delete shifted the pages under the listing, it lists again, and after three tries in one query.
async function listAll(store: SnapshotStore, namespace: string[], source: string): Promise<ListedItem[]> {
  for (let attempt = 1; ; attempt++) {
    const items = new Map<string, ListedItem>();
    const met = await searchInPages(
      (page) => store.search(namespace, { filter: { source }, ...page }),
      attempt > 3 ? WHOLE_NAMESPACE : PAGE,
      (page) => {
        for (const { key, namespace: at, value, updatedAt } of page)
          if (sameNamespace(at, namespace) && value?.source === source)
            items.set(key, { key, value, updatedAt: timeOf(updatedAt) });
        return true;
      },
    );
    if (met) return [...items.values()];
  }
}

// A store's timestamp as a Date (a custom store may give a string), or undefined when it has none.
function timeOf(value: unknown): Date | undefined {
  const time = value instanceof Date ? value : typeof value === "string" ? new Date(value) : undefined;
  return time && !Number.isNaN(time.getTime()) ? time : undefined;
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
