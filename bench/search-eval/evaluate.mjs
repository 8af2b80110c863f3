// Search quality of one build of skillset against the baselines, on every evaluation set and two
// library sizes. `npm run bench` prints it as a table; run it alone to compare builds or to list
// misses: node bench/search-eval/evaluate.mjs [--dist DIR] [--misses SET/LIBRARY/RANKER]
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import MiniSearch from "minisearch";
import { generatedSkillMetadata } from "../generate-library.mjs";
import {
  evaluateFloor,
  evaluateRanker,
  GOAL_PHRASED_PATH,
  HELD_OUT_PATH,
  loadRequests,
  NO_MATCH_PATH,
} from "./metrics.mjs";

const CORPUS_ROOT = resolve(import.meta.dirname, "../../../shared/corpus");
/** Generated skills added to the corpus catalog's 174 for the large library (1,999 skills). */
export const DISTRACTORS = 1_825;

/**
 * Every figure of the search-quality table for the build in `dist` (default: this checkout's).
 * Rankers: skillset's, plain BM25 (MiniSearch over name and description), and the AI SDK's
 * `toolSearch` default scorer. The floor figures come from skillset's engine `search`.
 */
export async function searchQuality(dist = resolve(import.meta.dirname, "../../dist")) {
  const core = await import(pathToFileURL(join(dist, "index.js")).href);
  const { createLocalSource } = await import(pathToFileURL(join(dist, "node.js")).href);
  const host = await import(pathToFileURL(join(dist, "host.js")).href);
  const folders = readdirSync(CORPUS_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CORPUS_ROOT, entry.name));
  const corpus = (
    await core
      .createCatalog(folders.map((path) => createLocalSource({ path, recursive: true, watch: false })))
      .refresh()
  ).skills;
  const libraries = {
    corpus,
    "corpus + generated": [
      ...corpus,
      ...generatedSkillMetadata(DISTRACTORS).map((skill) => ({ ...skill, path: `/generated/${skill.name}/SKILL.md` })),
    ],
  };
  const names = corpus.map((skill) => skill.name);
  const heldOut = loadRequests(names, HELD_OUT_PATH);
  // The held-out requests that name a product, library or file type, and the goal-phrased set.
  const sets = {
    tuned: loadRequests(names),
    "held-out": heldOut,
    "held-out naming": heldOut.filter((entry) => entry.names !== undefined),
    "goal-phrased": loadRequests(names, GOAL_PHRASED_PATH),
  };
  const noMatch = [...loadRequests(names, NO_MATCH_PATH), ...heldOut.filter((entry) => entry.relevant.length === 0)];
  const report = { libraries: {}, rankings: [], floor: [] };
  for (const [library, skills] of Object.entries(libraries)) {
    report.libraries[library] = skills.length;
    const rankers = {
      skillset: skillsetRanker(core, skills),
      "plain BM25": plainBm25(skills),
      "AI SDK toolSearch": toolSearchScorer(skills),
    };
    for (const [set, requests] of Object.entries(sets)) {
      for (const [ranker, rank] of Object.entries(rankers))
        report.rankings.push({
          set,
          library,
          ranker,
          requests: requests.filter((entry) => entry.relevant.length > 0).length,
          ...(await evaluateRanker(rank, requests)),
        });
    }
    const search = engineSearch(host, skills);
    for (const [set, requests] of Object.entries({
      tuned: [...sets.tuned, ...loadRequests(names, NO_MATCH_PATH)],
      "held-out": heldOut,
    })) {
      report.floor.push({
        set,
        library,
        ...(await evaluateFloor(search, requests)),
        noMatch: requests.filter((entry) => entry.relevant.length === 0).length,
      });
    }
  }
  report.noMatchRequests = noMatch.length;
  return report;
}

function skillsetRanker(core, skills) {
  const rank = core.createLexicalRanker();
  return async (query) => (await rank(query, skills, 10)).map((hit) => hit.name);
}

// What `search_skills` answers: results above the floor and weak matches (a build without a
// floor puts everything in results).
function engineSearch(host, skills) {
  const engine = host.createSkillEngine();
  const state = { skills, loaded: [], resources: {} };
  return async (query) => {
    const reply = await engine.search({ state, sources: async () => [] }, { query, limit: 5 });
    return {
      results: reply.results.map((hit) => hit.name),
      weakMatches: (reply.weakMatches ?? []).map((hit) => hit.name),
    };
  };
}

function plainBm25(skills) {
  const index = new MiniSearch({ fields: ["name", "description"], storeFields: ["name"] });
  index.addAll(skills.map((skill, id) => ({ id, name: skill.name, description: skill.description })));
  return (query) =>
    index
      .search(query)
      .slice(0, 10)
      .map((hit) => hit.name);
}

// The default scorer of the AI SDK's `toolSearch` (ai 7.0.173, no `search` option): each query
// word found in the name counts 2, in the description 1; words split at case changes and at
// anything but letters and digits; ties keep catalog order.
function toolSearchScorer(skills) {
  const tokenize = (text) =>
    text
      .replace(/([a-z\d])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const docs = skills.map((skill) => ({
    name: skill.name,
    nameTerms: new Set(tokenize(skill.name)),
    descriptionTerms: new Set(tokenize(skill.description)),
  }));
  return (query) => {
    const terms = [...new Set(tokenize(query))];
    return docs
      .map((doc) => ({
        name: doc.name,
        score: terms.reduce(
          (score, term) => score + (doc.nameTerms.has(term) ? 2 : 0) + (doc.descriptionTerms.has(term) ? 1 : 0),
          0,
        ),
      }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 10)
      .map((hit) => hit.name);
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const argument = (flag) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
  const report = await searchQuality(argument("--dist") ? resolve(argument("--dist")) : undefined);
  const figure = (value) => (Number.isNaN(value) ? "–" : value.toFixed(3));
  for (const row of report.rankings)
    console.log(
      `${row.set.padEnd(15)} ${row.library.padEnd(19)} ${row.ranker.padEnd(18)} R@1 ${figure(row.recallAt1)}  R@5 ${figure(row.recallAt5)}  MRR ${figure(row.mrr)}`,
    );
  for (const row of report.floor)
    console.log(
      `floor ${row.set.padEnd(15)} ${row.library.padEnd(19)} answered ${figure(row.answered)}  false answers ${figure(row.falseAnswers)}  silent on no-match ${figure(row.silent)} (${row.noMatch})`,
    );
  const misses = argument("--misses");
  if (misses) {
    const [set, library, ranker] = misses.split("/");
    const row = report.rankings.find(
      (entry) => entry.set === set && entry.library === library && entry.ranker === ranker,
    );
    for (const miss of row?.perRequest.filter(
      (entry) => entry.firstRelevantRank === null || entry.firstRelevantRank > 1,
    ) ?? []) {
      console.log(
        `${miss.firstRelevantRank ?? "-"}\t${miss.request}\t[${miss.relevant.join(",")}]\t${miss.ranked.slice(0, 5).join(", ")}`,
      );
    }
  }
  if (argument("--floor-misses")) {
    for (const row of report.floor.filter((entry) => entry.set === argument("--floor-misses"))) {
      for (const entry of row.perRequest) {
        const wrong =
          entry.relevant.length === 0 ? entry.results.length > 0 : !entry.relevant.includes(entry.results[0]);
        if (wrong)
          console.log(
            `${row.library}\t${entry.request}\t[${entry.relevant.join(",")}]\tresults: ${entry.results.join(", ")}\tweak: ${entry.weakMatches.join(", ")}`,
          );
      }
    }
  }
}
