import { SkillsetError } from "../../errors/skillset-error.js";

/**
 * The part of a LangGraph store (`BaseStore`: `PostgresStore`, `InMemoryStore`, …) that a
 * snapshot source uses: one item read, written or deleted at a time.
 */
export interface SnapshotStore {
  get(namespace: string[], key: string): Promise<{ value: Record<string, unknown> } | null | undefined>;
  put(namespace: string[], key: string, value: Record<string, unknown>): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
}

/** How often, and how patiently, a store that does not answer is asked again. */
export interface StoreRetry {
  /** Tries in all. @default 3 */
  attempts?: number;
  /** Wait before the second try; it doubles for each further one. @default 200 */
  delayMs?: number;
}

/** A store's three calls, each tried again on failure and reported as `store-unavailable` naming the store. */
export interface RetryingStore {
  get(key: string): Promise<Record<string, unknown> | undefined>;
  put(key: string, value: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<void>;
}

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
  return {
    get: (key) => call(`reading ${key}`, async () => (await store.get(namespace, key))?.value ?? undefined),
    put: (key, value) => call(`writing ${key}`, () => store.put(namespace, key, value)),
    delete: (key) => call(`deleting ${key}`, () => store.delete(namespace, key)),
  };
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
