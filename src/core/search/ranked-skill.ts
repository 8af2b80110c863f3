/**
 * One skill a ranker found, with the ranker's own score (higher is better). On its own so that
 * the rankers (skill-search.ts) and the lexical index they use can both name it without importing
 * each other.
 */
export interface RankedSkill {
  name: string;
  score: number;
  /**
   * The ranker's judgement that the skill matches the query only weakly (below its relevance
   * floor): search shows it apart, as a weak match, not as an answer. Absent when the ranker
   * does not judge (an embedding ranker, for one).
   */
  weak?: boolean;
}
