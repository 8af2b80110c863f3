import { nextTurn } from "../event-loop-turn.js";
import { createLexicalIndex } from "./lexical-index.js";
import type { RankedSkill } from "./ranked-skill.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { type KnownOptions, refuseUnknownOptions } from "../../errors/known-options.js";

export type { RankedSkill };

/**
 * Ranks the catalog's skills for a query, best first, at most `limit`. Called with the same
 * `skills` array while the catalog is unchanged, so a ranker may keep an index keyed by it.
 */
export type SkillRanker = (
  query: string,
  skills: readonly SkillMetadata[],
  limit: number,
) => Promise<readonly RankedSkill[]> | readonly RankedSkill[];

/** Texts to vectors, one per text, e.g. `(texts) => embeddings.embedDocuments(texts)`. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/**
 * Where the lexical ranker's weak matches start: a match is weak when its BM25 score is under
 * `score` and it covers under `coverage` of the query's informative words (so a short request
 * fully matched is not weak, nor a long one matched in many words). Chosen on bench/search-eval
 * (tuned set plus requests no skill fits); see docs/large-libraries.md for the figures.
 */
export const DEFAULT_RELEVANCE_FLOOR: Readonly<RelevanceFloor> = { score: 8, coverage: 0.5 };

/** A relevance floor of {@link createLexicalRanker}: see {@link DEFAULT_RELEVANCE_FLOOR}. */
export interface RelevanceFloor {
  /** BM25 score (name weighted twice, as the ranker scores) from which a match is not weak. */
  score: number;
  /** Share of the query's informative words, 0 to 1, from which a match is not weak. */
  coverage: number;
}

/** Options of {@link createLexicalRanker}. */
export interface LexicalRankerOptions {
  /** Where weak matches start; default {@link DEFAULT_RELEVANCE_FLOOR}; `false` marks none weak. */
  relevanceFloor?: Partial<RelevanceFloor> | false;
}

const LEXICAL_RANKER_OPTIONS = {
  relevanceFloor: { score: true, coverage: true } satisfies KnownOptions<RelevanceFloor>,
} as const satisfies KnownOptions<LexicalRankerOptions>;

/**
 * The default ranker: BM25 over the name, split at hyphens and weighted twice, and the
 * description, with Porter2 stemming, prefix matches for longer words (at a lower weight), for
 * words no skill uses typo tolerance (one edit), and in queries the aliases of file types and
 * products ("PowerPoint" finds `pptx`) and a lower weight for verbs like "make". Matches under
 * the relevance floor are marked `weak`. The index follows the catalog: when it changes,
 * only added, removed or changed skills are indexed again.
 */
export function createLexicalRanker(options: LexicalRankerOptions = {}): SkillRanker {
  refuseUnknownOptions("createLexicalRanker", options, LEXICAL_RANKER_OPTIONS);
  const floor =
    options.relevanceFloor === false
      ? { score: 0, coverage: 0 }
      : { ...DEFAULT_RELEVANCE_FLOOR, ...options.relevanceFloor };
  const index = createLexicalIndex();
  let current: readonly SkillMetadata[] | undefined;
  // A library being indexed in slices: searches wait for it.
  let following: Promise<void> | undefined;
  const search = (query: string, limit: number) =>
    index
      .search(query, limit)
      .map(({ name, score, coverage }) => ({ name, score, weak: score < floor.score && coverage < floor.coverage }));
  return async (query, skills, limit) => {
    while (skills !== current) {
      if (following) {
        await following;
        continue;
      }
      if (skills.length < SLICED_FROM) {
        index.follow(skills);
        current = skills;
        break;
      }
      const slice = timeSlice();
      following = index
        .followInSlices(skills, slice.due, slice.pause)
        .then(() => void (current = skills))
        .finally(() => (following = undefined));
    }
    return search(query, limit);
  };
}

// Libraries from this size are indexed in slices of about 10 ms, with a turn of the event loop
// between them: indexing 100,000 skills in one go held it for half a second or more.
const SLICED_FROM = 5000;
const SLICE_MS = 10;
function timeSlice(): { due(): boolean; pause(): Promise<void> } {
  let start = Date.now();
  return {
    due: () => Date.now() - start >= SLICE_MS,
    async pause() {
      await nextTurn();
      start = Date.now();
    },
  };
}

/**
 * Reciprocal rank fusion: each ranking gives a skill `1 / (60 + rank)`; the sums decide. Robust
 * to rankers whose scores are on different scales, which is why it fuses lexical and vector search.
 * A skill is weak when a ranking judged it weak and none judged it a match.
 */
export function fuseRankings(rankings: ReadonlyArray<readonly RankedSkill[]>, limit: number): RankedSkill[] {
  const fused = new Map<string, RankedSkill>();
  for (const ranking of rankings) {
    ranking.forEach((entry, rank) => {
      const sum = fused.get(entry.name) ?? { name: entry.name, score: 0 };
      sum.score += 1 / (60 + rank + 1);
      if (entry.weak !== undefined) sum.weak = (sum.weak ?? true) && entry.weak;
      fused.set(entry.name, sum);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)).slice(0, limit);
}
