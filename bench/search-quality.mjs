// Table "Search quality": skillset's lexical ranker against plain BM25 and the AI SDK's
// toolSearch scorer on the evaluation sets of bench/search-eval, and the relevance floor.
import { DEFAULT_RELEVANCE_FLOOR } from "../dist/index.js";
import { DISTRACTORS, searchQuality } from "./search-eval/evaluate.mjs";

/** The Search quality table (needs the shared corpus). */
export async function searchQualityTable() {
  const report = await searchQuality();
  const figure = (value) => (Number.isNaN(value) ? "–" : value.toFixed(3));
  const rows = report.rankings.map((row) => ({
    Set: `${row.set} (${row.requests})`,
    Library: `${row.library} (${report.libraries[row.library].toLocaleString("en-US")})`,
    Ranker: row.ranker,
    "R@1": figure(row.recallAt1),
    "R@5": figure(row.recallAt5),
    MRR: figure(row.mrr),
    Target: row.set === "held-out" && row.ranker === "skillset" ? "R@5 ≥ 0.92, MRR ≥ 0.80" : "",
  }));
  for (const row of report.floor) {
    rows.push({
      Set: `${row.set}, floor`,
      Library: `${row.library} (${report.libraries[row.library].toLocaleString("en-US")})`,
      Ranker: "skillset search",
      "R@1": `answered ${figure(row.answered)}`,
      "R@5": `wrong ${figure(row.falseAnswers)}`,
      MRR: `silent ${figure(row.silent)} of ${row.noMatch}`,
      Target: "",
    });
  }
  const floor = `score ${DEFAULT_RELEVANCE_FLOOR.score} / coverage ${DEFAULT_RELEVANCE_FLOOR.coverage}`;
  return {
    title: "Search quality",
    rows,
    notes: [
      "",
      `- Sets (bench/search-eval): "tuned" is requests.json, the set the ranker was developed on; "held-out" was written before the last ranker changes and never tuned on, "held-out naming" is its requests that name a product, library or file type; "goal-phrased" (goal-phrased.json) asks for what the user wants done in their own words, written before it was scored and never tuned on. Libraries: the corpus catalog (174 skills: 175 SKILL.md files, two share a name), and the same with ${DISTRACTORS.toLocaleString("en-US")} generated skills (bench/generate-library.mjs, seeded) as distractors. recall@k = share of requests with a right skill in the top k; MRR over the top 10.`,
      "- Baselines: plain BM25 is MiniSearch over name and description; AI SDK toolSearch is the default scorer of `toolSearch` in ai 7 (a query word in the name counts 2, in the description 1).",
      `- Floor rows: \`search_skills\` (limit 5) with the default relevance floor (${floor}) on the set plus its requests no skill fits (no-match.json for tuned, the held-out set's own 20): answered = share of answerable requests whose first result is right, wrong = whose first result above the floor is wrong, silent = share of requests no skill fits with no result above the floor.`,
    ],
  };
}
