import { createLexicalIndex } from "../search/lexical-index.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { skillText } from "../search/embedding-ranker.js";
import type { EmbedTexts } from "../search/skill-search.js";
import { unitVector } from "../search/text-vectors.js";
import type { DoctorFinding } from "./doctor-finding.js";
import { similarVectorPairs } from "./similar-vector-pairs.js";

/** Default of `DiagnoseLibraryOptions.rivalOverlap`. */
export const DEFAULT_RIVAL_OVERLAP = 0.6;
/** Default of `DiagnoseLibraryOptions.rivalSimilarity`. */
export const DEFAULT_RIVAL_SIMILARITY = 0.85;

// Each skill's description is asked of the search index; the skills it ranks just below the
// skill itself are the ones a model may take for it.
const CANDIDATES = 6;

interface Pair {
  first: SkillMetadata;
  second: SkillMetadata;
  overlap?: number;
  similarity?: number;
}

/**
 * Pairs of skills whose descriptions overlap enough that one can be picked for the other's
 * requests. Lexically: each description is a `search_skills` query (BM25, the default ranker's
 * index); the overlap of a pair is how close the other skill scores to the skill itself, as a
 * share of the skill's own score, the larger of the two directions. With `embed`, also pairs
 * whose description vectors have a cosine similarity of at least `similarity`; when `embed`
 * fails, `onEmbedError` is told and the lexical pairs stand alone (without it, the error is thrown).
 */
export async function findRivalSkills(
  skills: readonly SkillMetadata[],
  options: { overlap: number; similarity: number; embed?: EmbedTexts; onEmbedError?: (error: unknown) => void },
): Promise<DoctorFinding[]> {
  const pairs = new Map<string, Pair>();
  const pairOf = (a: SkillMetadata, b: SkillMetadata) => {
    const [first, second] = a.name < b.name ? [a, b] : [b, a];
    const key = `${first.name}\u0000${second.name}`;
    let pair = pairs.get(key);
    if (!pair) pairs.set(key, (pair = { first, second }));
    return pair;
  };
  for (const [a, b, overlap] of lexicalOverlaps(skills)) {
    if (overlap < options.overlap) continue;
    const pair = pairOf(a, b);
    pair.overlap = Math.max(pair.overlap ?? 0, overlap);
  }
  const vectors =
    options.embed && skills.length > 1 ? await embedOrReport(options.embed, skills, options.onEmbedError) : undefined;
  if (vectors) {
    for (const [i, j, similarity] of similarVectorPairs(vectors, options.similarity))
      pairOf(skills[i]!, skills[j]!).similarity = similarity;
  }
  return [...pairs.values()].map(rivalFinding);
}

async function embedOrReport(
  embed: EmbedTexts,
  skills: readonly SkillMetadata[],
  onError: ((error: unknown) => void) | undefined,
): Promise<Float32Array[] | undefined> {
  try {
    const vectors = await embed(skills.map(skillText));
    if (vectors.length !== skills.length)
      throw new Error(`The embeddings provider returned ${vectors.length} vectors for ${skills.length} texts`);
    // Unit vectors, so that each pair's cosine is one dot product.
    return vectors.map(unitVector);
  } catch (error) {
    if (!onError) throw error;
    onError(error);
    return undefined;
  }
}

// For every skill, the skills its own description ranks near it, with their share of its score.
function* lexicalOverlaps(skills: readonly SkillMetadata[]): Generator<[SkillMetadata, SkillMetadata, number]> {
  const index = createLexicalIndex();
  index.follow(skills);
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  for (const skill of skills) {
    const ranked = index.search(skill.description, CANDIDATES);
    const own = ranked.find((entry) => entry.name === skill.name)?.score;
    if (!own) continue;
    for (const entry of ranked) {
      if (entry.name !== skill.name) yield [skill, byName.get(entry.name)!, Math.min(1, entry.score / own)];
    }
  }
}

function rivalFinding(pair: Pair): DoctorFinding {
  const measures = [
    ...(pair.overlap === undefined ? [] : [`lexical overlap ${percent(pair.overlap)}`]),
    ...(pair.similarity === undefined ? [] : [`embedding similarity ${pair.similarity.toFixed(3)}`]),
  ];
  return {
    code: "rival-skills",
    severity: "warning",
    skill: pair.first.name,
    related: pair.second.name,
    file: pair.first.path,
    value: round(pair.overlap ?? pair.similarity!),
    message: `'${pair.first.name}' and '${pair.second.name}' describe the same job (${measures.join(", ")}): a model may load either for the other's requests`,
    fix: `Say in each description what sets it apart (its inputs, its task, when not to use it), or merge the two skills; check with \`skillset search\` on requests meant for each`,
  };
}

const percent = (value: number) => `${Math.round(value * 100)}%`;
const round = (value: number) => Math.round(value * 1000) / 1000;
