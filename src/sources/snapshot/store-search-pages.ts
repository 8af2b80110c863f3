/** An item of a LangGraph store search, as far as paging needs it. */
export interface PagedItem {
  namespace: string[];
  key: string;
}

/**
 * A page size that holds any namespace: one query, which PostgreSQL answers from one snapshot of
 * the table. For when pages never meet: not writes then, but an order with ties (PostgresStore
 * sorts a search by `created_at` alone, which items written by one statement share, and orders
 * the ties anew for each page).
 */
export const WHOLE_NAMESPACE = Number.MAX_SAFE_INTEGER;

/**
 * Runs a store search page after page (`limit`/`offset`, as LangGraph's stores page), calling
 * `visit` with each page's new items until a page comes back short or `visit` returns false.
 * Each page after the first is asked from the previous page's last item: an item written or
 * deleted before it shifts that item, and then the pages no longer meet. A delete would otherwise
 * skip an item unseen, and a write show one twice. Returns false when the pages did not meet (the
 * caller reads again, in the end with {@link WHOLE_NAMESPACE}), true otherwise.
 */
export async function searchInPages<T extends PagedItem>(
  search: (page: { limit: number; offset: number }) => Promise<T[]>,
  pageSize: number,
  visit: (items: readonly T[]) => boolean,
): Promise<boolean> {
  let last: PagedItem | undefined;
  for (let read = 0; ; read += pageSize) {
    const overlap = last ? 1 : 0;
    const page = await search({ limit: pageSize + overlap, offset: read - overlap });
    if (last) {
      const first = page[0];
      if (!first || first.key !== last.key || !sameNamespace(first.namespace, last.namespace)) return false;
    }
    last = page.at(-1);
    if (!visit(overlap ? page.slice(1) : page)) return true;
    if (page.length < pageSize + overlap) return true;
  }
}

/** Whether two namespaces are the same path. */
export function sameNamespace(one: readonly string[], other: readonly string[]): boolean {
  return one.length === other.length && one.every((part, at) => part === other[at]);
}
