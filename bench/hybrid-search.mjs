// Table "Search by meaning": search quality of the lexical ranker, an embedding ranker and the two
// fused (reciprocal rank, as search_skills fuses them) on bench/search-eval, with a deterministic
// local embedder; and what the on-disk vector cache saves at 10,000 generated skills.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCatalog, createEmbeddingRanker, createLexicalRanker, fuseRankings } from "../dist/index.js";
import { createEmbeddingCache, createLocalSource } from "../dist/node.js";
import { CORPUS_ROOT, hasCorpus } from "./contenders.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { time } from "./measure.mjs";
import { localEmbedder } from "./search-eval/local-embedder.mjs";
import { evaluateRanker, loadRequests } from "./search-eval/metrics.mjs";
import { formatMs } from "./stats.mjs";

// As search_skills: each ranker gives 50 candidates when several are fused.
const FUSION_DEPTH = 50;
const CACHE_SKILLS = 10_000;
// text-embedding-3-small's size, so the cache file is as large as a real one.
const CACHE_DIMENSIONS = 1536;

/** The Search by meaning table. */
export async function hybridSearchTable() {
  const rows = [];
  if (hasCorpus()) rows.push(...(await qualityRows()));
  rows.push(...(await cacheRows()));
  return {
    title: "Search by meaning",
    rows,
    notes: [
      "",
      "- Quality: bench/search-eval's requests over the shared corpus; recall@k = share of requests with an acceptable skill in the top k, MRR over the top 10. The embedder is a deterministic local one (bench/search-eval/local-embedder.mjs: hashed words and character trigrams, 512 dimensions), not a semantic model: the rows show the fusion at work, not what a real embedding model adds.",
      `- Cache: ${CACHE_SKILLS.toLocaleString("en-US")} generated skills, ${CACHE_DIMENSIONS.toLocaleString("en-US")}-dimension vectors, createEmbeddingCache in a new temporary folder. "First process": a new ranker and cache, nothing on disk; "next process": a new ranker and cache over the same folder. Time: the first search, embedding included.`,
    ],
  };
}

async function qualityRows() {
  const folders = readdirSync(CORPUS_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CORPUS_ROOT, entry.name));
  const skills = (await createCatalog(folders.map((path) => createLocalSource({ path, recursive: true }))).refresh())
    .skills;
  const requests = loadRequests(skills.map((skill) => skill.name));
  const lexical = createLexicalRanker();
  const embedding = createEmbeddingRanker(localEmbedder(512));
  const names = (ranking) => ranking.map((hit) => hit.name);
  const reports = {
    lexical: await evaluateRanker(async (query) => names(await lexical(query, skills, 10)), requests),
    embedding: await evaluateRanker(async (query) => names(await embedding(query, skills, 10)), requests),
    hybrid: await evaluateRanker(
      async (query) =>
        names(
          fuseRankings([await lexical(query, skills, FUSION_DEPTH), await embedding(query, skills, FUSION_DEPTH)], 10),
        ),
      requests,
    ),
  };
  const format = (report) =>
    `${report.recallAt1.toFixed(3)} / ${report.recallAt5.toFixed(3)} / ${report.mrr.toFixed(3)}`;
  return [
    {
      Metric: `R@1 / R@5 / MRR, ${requests.length} requests, ${skills.length} skills: lexical ranker`,
      Value: format(reports.lexical),
    },
    { Metric: "… local embedder alone", Value: format(reports.embedding) },
    { Metric: "… hybrid (lexical + local embedder, reciprocal rank fusion)", Value: format(reports.hybrid) },
  ];
}

async function cacheRows() {
  const skills = (await createCatalog([createLocalSource({ path: ensureLibrary(CACHE_SKILLS) })]).refresh()).skills;
  const folder = mkdtempSync(join(tmpdir(), "skillset-bench-vectors-"));
  try {
    const embedder = localEmbedder(CACHE_DIMENSIONS);
    const process = async () => {
      let texts = 0;
      const counting = async (batch) => {
        texts += batch.length;
        return embedder(batch);
      };
      const ranker = createEmbeddingRanker(counting, { cache: createEmbeddingCache({ model: "local:bench", folder }) });
      const { ms } = await time(() => ranker("audit kubernetes manifests before a release", skills, 5));
      return { texts: texts - 1, ms };
    };
    const first = await process();
    const next = await process();
    const bytes = readdirSync(folder).reduce((sum, file) => sum + statSync(join(folder, file)).size, 0);
    return [
      {
        Metric: `skill texts embedded, first process / next process (${CACHE_SKILLS.toLocaleString("en-US")} skills)`,
        Value: `${first.texts.toLocaleString("en-US")} / ${next.texts.toLocaleString("en-US")}`,
      },
      {
        Metric: "first search, embedding included (ms): first process / next process",
        Value: `${formatMs(first.ms)} / ${formatMs(next.ms)}`,
      },
      { Metric: "cache file (MB)", Value: (bytes / 2 ** 20).toFixed(1) },
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
