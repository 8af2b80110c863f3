// Search quality on the evaluation sets beside this file: recall@1, recall@5 and MRR of any
// ranker, and how well a relevance floor tells answers from requests no skill fits.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The evaluation set beside this file (the one the ranker was tuned on). */
export const REQUESTS_PATH = fileURLToPath(new URL("./requests.json", import.meta.url));
/** Requests written before the ranker's last changes and never tuned on; 20 have no right skill. */
export const HELD_OUT_PATH = fileURLToPath(new URL("./held-out.json", import.meta.url));
/** Requests phrased as goals (what the user wants done, in their words), written before it was scored; never tuned on. */
export const GOAL_PHRASED_PATH = fileURLToPath(new URL("./goal-phrased.json", import.meta.url));
/** Requests no corpus skill fits, which the relevance floor was chosen on. */
export const NO_MATCH_PATH = fileURLToPath(new URL("./no-match.json", import.meta.url));

/** How deep a ranking is read unless `k` says otherwise: MRR counts a first hit up to rank 10. */
export const DEFAULT_DEPTH = 10;

const ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Reads and checks the evaluation set. `catalog` is a catalog snapshot (`{ skills: [{ name }] }`)
 * or a list of skill names; every name in an entry's `relevant` must be one of them, so a renamed
 * or missing skill fails loudly instead of counting as a miss. An empty `relevant` marks a request
 * no skill fits. Throws an Error naming the file and the entry at the first problem.
 */
export function loadRequests(catalog, path = REQUESTS_PATH) {
  const names = new Set(Array.isArray(catalog) ? catalog : catalog.skills.map((skill) => skill.name));
  const entries = JSON.parse(readFileSync(path, "utf8"));
  if (!Array.isArray(entries) || entries.length === 0)
    throw new Error(`${path}: expected a non-empty JSON array of requests.`);
  const ids = new Set();
  entries.forEach((entry, index) => {
    const where = `${path}: entry ${index}${typeof entry?.id === "string" ? ` "${entry.id}"` : ""}`;
    if (typeof entry?.id !== "string" || !ID_PATTERN.test(entry.id))
      throw new Error(`${where}: "id" must be a kebab-case string.`);
    if (ids.has(entry.id)) throw new Error(`${where}: the id is used by an earlier entry.`);
    ids.add(entry.id);
    if (typeof entry.request !== "string" || entry.request.trim() === "")
      throw new Error(`${where}: "request" must be a non-empty string.`);
    if (!Array.isArray(entry.relevant) || !entry.relevant.every((name) => typeof name === "string")) {
      throw new Error(`${where}: "relevant" must be an array of skill names (empty when no skill fits).`);
    }
    const unknown = entry.relevant.filter((name) => !names.has(name));
    if (unknown.length > 0) throw new Error(`${where}: relevant skill(s) not in the catalog: ${unknown.join(", ")}.`);
  });
  return entries;
}

/**
 * Runs `rank(query)` (skill names, best first; sync or async) on every request that has a right
 * skill (requests no skill fits are left to {@link evaluateFloor}), one at a time,
 * and scores the first `k` names (at least 5, default 10). recall@n is the share of requests with
 * a relevant skill among the first n; MRR the mean of 1/rank of the first relevant skill, 0 when
 * none is in the first k. `perRequest` keeps each request's ranking and first relevant rank
 * (null when missed) so a report can show the misses.
 */
export async function evaluateRanker(rank, requests, { k = DEFAULT_DEPTH } = {}) {
  if (!Number.isInteger(k) || k < 5)
    throw new RangeError(`k must be an integer of at least 5 (recall@5 reads 5 results), got ${k}.`);
  const answerable = requests.filter((entry) => entry.relevant.length > 0);
  if (answerable.length === 0) throw new RangeError("No requests to evaluate.");
  const perRequest = [];
  for (const { id, request, relevant } of answerable) {
    const ranked = (await rank(request)).slice(0, k);
    const position = ranked.findIndex((name) => relevant.includes(name)) + 1;
    perRequest.push({ id, request, relevant, ranked, firstRelevantRank: position === 0 ? null : position });
  }
  const share = (hit) => perRequest.filter(hit).length / perRequest.length;
  return {
    recallAt1: share((r) => r.firstRelevantRank === 1),
    recallAt5: share((r) => r.firstRelevantRank !== null && r.firstRelevantRank <= 5),
    mrr:
      perRequest.reduce((sum, r) => sum + (r.firstRelevantRank === null ? 0 : 1 / r.firstRelevantRank), 0) /
      perRequest.length,
    perRequest,
  };
}

/**
 * How a relevance floor sorts requests: `search(query)` returns `{ results, weakMatches }` (names,
 * best first; results are above the floor). `answered` is the share of requests with a right skill
 * whose first result is a right skill; `falseAnswers` the share of those whose first result is a
 * wrong skill above the floor (a right one below it, or nothing, is not counted); `silent` the share
 * of requests no skill fits for which nothing is above the floor.
 */
export async function evaluateFloor(search, requests) {
  let answerable = 0;
  let answered = 0;
  let falseAnswers = 0;
  let unanswerable = 0;
  let silent = 0;
  const perRequest = [];
  for (const { id, request, relevant } of requests) {
    const { results, weakMatches } = await search(request);
    perRequest.push({ id, request, relevant, results, weakMatches });
    if (relevant.length === 0) {
      unanswerable++;
      if (results.length === 0) silent++;
      continue;
    }
    answerable++;
    if (results.length > 0 && relevant.includes(results[0])) answered++;
    else if (results.length > 0) falseAnswers++;
  }
  const share = (count, of) => (of === 0 ? Number.NaN : count / of);
  return {
    answered: share(answered, answerable),
    falseAnswers: share(falseAnswers, answerable),
    silent: share(silent, unanswerable),
    perRequest,
  };
}
