/**
 * One skill a ranker found, with the ranker's own score (higher is better). On its own so that
 * the rankers (skill-search.ts) and the lexical index they use can both name it without importing
 * each other.
 */
export interface RankedSkill {
  name: string;
  score: number;
}
