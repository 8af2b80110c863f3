// Types for metrics.mjs, so TypeScript tests can import it.

/** One request of the evaluation set: what a user types, and every skill that answers it (none: no skill fits). */
export interface SearchEvalRequest {
  id: string;
  request: string;
  relevant: string[];
  /** The product, library or file type the request names (held-out.json), if it names one. */
  names?: string;
}

/** How one request fared: the first `k` names returned and the rank of the first relevant one. */
export interface SearchEvalResult extends SearchEvalRequest {
  ranked: string[];
  firstRelevantRank: number | null;
}

/** Quality of a ranker over a set of requests. */
export interface SearchEvalReport {
  recallAt1: number;
  recallAt5: number;
  mrr: number;
  perRequest: SearchEvalResult[];
}

/** Skill names, best first. */
export type SearchRanker = (query: string) => readonly string[] | Promise<readonly string[]>;

/** The evaluation set beside metrics.mjs (the one the ranker was tuned on). */
export const REQUESTS_PATH: string;
/** The held-out set: never tuned on; some requests have no right skill. */
export const HELD_OUT_PATH: string;
/** Requests phrased as goals, written before it was scored and never tuned on. */
export const GOAL_PHRASED_PATH: string;
/** Requests no corpus skill fits, which the relevance floor was chosen on. */
export const NO_MATCH_PATH: string;
/** How deep a ranking is read unless `k` says otherwise. */
export const DEFAULT_DEPTH: number;

/** Reads and checks the evaluation set against a catalog snapshot or a list of skill names. */
export function loadRequests(
  catalog: { skills: readonly { name: string }[] } | readonly string[],
  path?: string,
): SearchEvalRequest[];

/** recall@1, recall@5 and MRR (first relevant rank up to `k`, default 10) of `rank` over `requests`. */
export function evaluateRanker(
  rank: SearchRanker,
  requests: readonly SearchEvalRequest[],
  options?: { k?: number },
): Promise<SearchEvalReport>;

/** How a relevance floor sorted a set of requests. */
export interface SearchFloorReport {
  /** Share of requests with a right skill whose first result (above the floor) is right. */
  answered: number;
  /** Share of requests with a right skill whose first result above the floor is wrong. */
  falseAnswers: number;
  /** Share of requests no skill fits with nothing above the floor (NaN when there are none). */
  silent: number;
  perRequest: Array<SearchEvalRequest & { results: readonly string[]; weakMatches: readonly string[] }>;
}

/** Scores a search that splits its hits into results above a relevance floor and weak matches. */
export function evaluateFloor(
  search: (
    query: string,
  ) =>
    | { results: readonly string[]; weakMatches: readonly string[] }
    | Promise<{ results: readonly string[]; weakMatches: readonly string[] }>,
  requests: readonly SearchEvalRequest[],
): Promise<SearchFloorReport>;
