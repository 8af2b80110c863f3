// Table "Catalog over budget": on bench/search-eval's requests, how often the catalog at the
// default budget shows the right skill (a line or its name), or names the group it is in, when the
// corpus's collections share one skills folder with thousands of other skills. Today's catalog
// (names in alphabetical order while they fit, then a count) against the grouped one.
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { countTokens, createCatalog, DEFAULT_CATALOG_BUDGET, renderCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { CORPUS_ROOT } from "./contenders.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { loadRequests } from "./search-eval/metrics.mjs";

// Where the library is said to live: a user's skills folder with the collections installed in it.
const ROOT = "/home/user/.claude/skills";
const SOURCE = `local:${ROOT}`;
const LIBRARIES = [
  { label: "corpus + 2,000 in one collection", generated: 2_000, collections: 1 },
  { label: "corpus + 10,000 in 50 collections", generated: 10_000, collections: 50 },
];

/** The Catalog over budget table; it needs the shared corpus. */
export async function catalogCoverageTable() {
  const corpus = await corpusSkills();
  const requests = loadRequests(corpus.map((skill) => skill.name));
  const check = await checkToday(await generatedSkills({ generated: 2_000, collections: 1 }, false));
  const measured = [];
  for (const library of LIBRARIES)
    measured.push({ ...library, ...(await coverage([...corpus, ...(await generatedSkills(library))], requests)) });
  const column = (pick) => Object.fromEntries(measured.map((entry) => [entry.label, pick(entry)]));
  const share = (value) => `${(value * 100).toFixed(1)}%`;
  return {
    title: "Catalog over budget",
    rows: [
      { Metric: "skills", ...column((entry) => entry.skills.toLocaleString("en-US")) },
      {
        Metric: "skills named or with a line: today / grouped",
        ...column((entry) => `${entry.today.shown} / ${entry.grouped.shown}`),
      },
      {
        Metric: "right skill shown: today / grouped",
        ...column((entry) => `${share(entry.today.visible)} / ${share(entry.grouped.visible)}`),
      },
      {
        Metric: "right skill shown, or its group named: today / grouped",
        ...column((entry) => `${share(entry.today.visible)} / ${share(entry.grouped.visibleOrGroup)}`),
      },
      {
        Metric: "catalog tokens: today / grouped",
        ...column(
          (entry) => `${entry.today.tokens.toLocaleString("en-US")} / ${entry.grouped.tokens.toLocaleString("en-US")}`,
        ),
      },
    ],
    notes: [
      "",
      `- ${requests.length} requests of bench/search-eval; the right skills are the corpus's ${corpus.length}. The library is one skills folder (${ROOT}) holding the corpus's five collections and generated skills (bench/generate-library.mjs) in one or in 50 collections; the default budget of ${DEFAULT_CATALOG_BUDGET.toLocaleString("en-US")} tokens, \`search_skills\` offered.`,
      `- Today: the catalog before skillset grouped skills, reproduced here (every name in alphabetical order while the text fits, then the number left out); checked against renderCatalog on the 2,000 generated skills alone, under their own names (skill-00000, …), which make no groups: ${check.reproduced} names reproduced, ${check.planned} planned (the planner counts entries apart, with a margin, so the reproduction favours today slightly). Grouped: renderCatalog as it is (collections take turns for the named lines; the left-out skills summarised by collection, largest first, the 8 largest with 3 names each, up to 80 named).`,
      '- "Shown": a relevant skill has a line or its name in the catalog. "Group named": a relevant skill is left out but its collection is in the summary, so the model knows such skills exist and searches.',
    ],
  };
}

async function corpusSkills() {
  const folders = readdirSync(CORPUS_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CORPUS_ROOT, entry.name));
  const skills = (await createCatalog(folders.map((path) => createLocalSource({ path, recursive: true }))).refresh())
    .skills;
  return skills.map((skill) => ({
    ...skill,
    path: `${ROOT}/${relative(CORPUS_ROOT, skill.path).split("\\").join("/")}`,
    source: SOURCE,
  }));
}

async function generatedSkills({ generated, collections }, rename = true) {
  const skills = (await createCatalog([createLocalSource({ path: ensureLibrary(generated) })]).refresh()).skills;
  const size = Math.ceil(skills.length / collections);
  return skills.map((skill, index) => {
    const collection =
      collections === 1 ? "generated" : `generated-${String(Math.floor(index / size) + 1).padStart(2, "0")}`;
    // Named as people name skills, from what they do ("audit-terraform-plans-0042"), so that they
    // spread over the alphabet like the corpus's, not all under "skill-".
    const name = !rename
      ? skill.name
      : `${skill.description
          .toLowerCase()
          .match(/[a-z]+/g)
          .slice(0, 3)
          .join("-")}-${String(index).padStart(5, "0")}`;
    return { ...skill, name, path: `${ROOT}/${collection}/${name}/SKILL.md`, source: SOURCE };
  });
}

async function coverage(all, requests) {
  const skills = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const grouped = await renderCatalog(skills, {
    budget: DEFAULT_CATALOG_BUDGET,
    searchTool: "search_skills",
    sourceOrder: [SOURCE],
  });
  const today = await todayCatalog(skills, grouped.text);
  const shownNow = new Set([...grouped.full, ...grouped.short, ...grouped.named]);
  const groupOf = new Map(
    skills.map((skill) => [
      skill.name,
      `${relative(ROOT, dirname(dirname(skill.path)))
        .split("\\")
        .join("/")}/`,
    ]),
  );
  const summary = grouped.text.slice(grouped.text.indexOf("more skills are not listed here"));
  const named = (name) =>
    summary.includes(`\n  - ${groupOf.get(name)}: `) || summary.includes(` ${groupOf.get(name)} (`);
  const rate = (test) => requests.filter((request) => request.relevant.some(test)).length / requests.length;
  return {
    skills: skills.length,
    today: { shown: today.named.size, tokens: today.tokens, visible: rate((name) => today.named.has(name)) },
    grouped: {
      shown: shownNow.size,
      tokens: grouped.tokens,
      visible: rate((name) => shownNow.has(name)),
      visibleOrGroup: rate((name) => shownNow.has(name) || named(name)),
    },
  };
}

// Today's planner when not every name fits and nothing is pinned: names in catalog (alphabetical)
// order while the whole text fits the budget, then a count. Guidance and footer come from the
// current catalog, which has the same ones.
async function todayCatalog(skills, current) {
  const guidance = current.slice(0, current.indexOf("\n\n- "));
  const footer = current.slice(current.lastIndexOf("\n") + 1);
  const text = (count) => {
    const lines = [
      `- More skills, by name only (\`load_skill\` shows what one does): ${skills
        .slice(0, count)
        .map((skill) => skill.name)
        .join(", ")}`,
    ];
    if (count < skills.length)
      lines.push(`- ${skills.length - count} more skills are not listed here: find them with \`search_skills\`.`);
    return `${guidance}\n\n${lines.join("\n")}\n${footer}`;
  };
  let low = 0;
  let high = skills.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((await countTokens(text(middle))) <= DEFAULT_CATALOG_BUDGET) low = middle;
    else high = middle - 1;
  }
  return { named: new Set(skills.slice(0, low).map((skill) => skill.name)), tokens: await countTokens(text(low)) };
}

// On a library without groups (one folder, names sharing one first word) renderCatalog plans as
// today: the reproduction must name the same alphabetical prefix, give or take the planner's
// slack (it sums entries' counts with a margin, the reproduction counts the whole text).
async function checkToday(skills) {
  const current = await renderCatalog(skills, {
    budget: DEFAULT_CATALOG_BUDGET,
    searchTool: "search_skills",
    sourceOrder: [SOURCE],
  });
  const today = await todayCatalog(skills, current.text);
  const prefix = current.named.every((name, index) => name === skills[index].name);
  if (
    !prefix ||
    current.full.length + current.short.length > 0 ||
    Math.abs(today.named.size - current.named.length) > current.named.length * 0.005
  ) {
    throw new Error(
      `Today's catalog, reproduced, names ${today.named.size} skills where renderCatalog names ${current.named.length} on a library without groups`,
    );
  }
  return { reproduced: today.named.size, planned: current.named.length };
}
