import { describe, expect, it, vi } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import { createCatalog } from "../catalog/catalog.js";
import { createSkillEngine, type SkillRequest } from "../engine/skill-engine.js";
import type { SkillsLogEntry } from "../skill-events.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { createEmbeddingRanker } from "./embedding-ranker.js";
import { createLexicalIndex } from "./lexical-index.js";
import { createLexicalRanker, fuseRankings, type SkillRanker } from "./skill-search.js";
import { referenceSearch, type ReferenceHit } from "../../../test/helpers/bm25-reference.js";

const skill = (name: string, description: string, extra: Partial<SkillMetadata> = {}): SkillMetadata => ({
  name,
  description,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
  ...extra,
});

const LIBRARY = [
  skill("pdf-processing", "Extract text and tables from PDF files, fill forms, merge documents."),
  skill("xlsx", "Create and edit spreadsheets with formulas and charts."),
  skill("git-workflow", "Branches, rebases and pull requests in git repositories."),
  skill("release-notes", "Write release notes from merged pull requests."),
  skill("image-resizer", "Resize and crop images for the web."),
];
// The best `found.length` of `expected`, to the bit; among hits tied with the last one kept, any may be kept.
const expectTopOf = (found: readonly ReferenceHit[], expected: readonly ReferenceHit[]) => {
  expect(found.map((hit) => hit.score)).toEqual(expected.slice(0, found.length).map((hit) => hit.score));
  const last = found.at(-1)?.score;
  const tied = new Set(expected.filter((hit) => hit.score === last).map((hit) => hit.name));
  for (const [at, hit] of found.entries())
    expect(hit.score === last ? tied.has(hit.name) : hit.name).toBe(hit.score === last ? true : expected[at]!.name);
};
const search = async (rank: SkillRanker, query: string, skills: readonly SkillMetadata[], limit = 5) =>
  (await rank(query, skills, limit)).map((hit) => hit.name);

describe("createLexicalRanker", () => {
  it("ranks by name and description words, best first, at most `limit`", async () => {
    const rank = createLexicalRanker();
    // "merged" meets "merge" now (Porter2), so release-notes follows, far behind.
    expect(await search(rank, "merge PDF documents", LIBRARY, 5)).toEqual(["pdf-processing", "release-notes"]);
    expect(await search(rank, "pull requests", LIBRARY, 1)).toHaveLength(1);
    expect((await search(rank, "pull requests", LIBRARY, 5)).sort()).toEqual(["git-workflow", "release-notes"]);
  });

  it("meets inflections, prefixes and one-letter typos", async () => {
    const rank = createLexicalRanker();
    const top = async (query: string) => (await search(rank, query, LIBRARY, 1))[0];
    expect(await top("merging pdfs")).toBe("pdf-processing");
    expect(await top("resizing photos")).toBe("image-resizer");
    expect(await top("spreadsh")).toBe("xlsx");
    expect(await top("spreadshets")).toBe("xlsx");
    expect(await top("rebasing")).toBe("git-workflow");
  });

  it("reaches a skill named after a file type by the names people use for it, from the query only", async () => {
    const rank = createLexicalRanker();
    const library = [skill("pptx", "Create, edit and analyze presentations."), ...LIBRARY];
    expect(await search(rank, "make a PowerPoint deck", library, 1)).toEqual(["pptx"]);
    expect(await search(rank, "put numbers in an Excel workbook", library, 1)).toEqual(["xlsx"]);
    // A phrase alias: "word" alone is an ordinary word.
    const docx = [
      skill("docx", "Create and edit documents with tracked changes."),
      skill("glossary", "Define each word of a domain."),
    ];
    expect(await search(rank, "fix my Word document", docx, 1)).toEqual(["docx"]);
    expect(await search(rank, "define a word", docx, 1)).toEqual(["glossary"]);
    // Skills are indexed as written: a skill saying "PowerPoint" is not found by "pptx" through the skill's text.
    expect(await search(rank, "pptx", [skill("slides", "PowerPoint decks.")], 5)).toEqual(["slides"]);
  });

  it("meets word forms the old suffix list missed, and counts request verbs less than the task", async () => {
    const rank = createLexicalRanker();
    const library = [
      skill("web-design-guidelines", "Review UI code; check accessibility and UX."),
      skill("release-notes", "Write and create release notes, make changelogs."),
    ];
    expect(await search(rank, "make my website accessible", library, 1)).toEqual(["web-design-guidelines"]);
    const [guidelines] = await rank("make my website accessible", library, 2);
    expect(guidelines).toMatchObject({ name: "web-design-guidelines", weak: false });
  });

  it("marks matches under the relevance floor weak, and none with relevanceFloor false", async () => {
    const library = [
      skill("mcp-builder", "Build MCP servers for an app's API."),
      skill("deploy-to-vercel", "Deploy apps and websites to Vercel."),
    ];
    const hits = await createLexicalRanker()("write a Dockerfile for my node app", library, 5);
    expect(hits.map((hit) => hit.name).sort()).toEqual(["deploy-to-vercel", "mcp-builder"]);
    expect(hits.every((hit) => hit.weak === true)).toBe(true);
    expect(
      (await createLexicalRanker({ relevanceFloor: false })("write a Dockerfile for my node app", library, 5)).every(
        (hit) => hit.weak === false,
      ),
    ).toBe(true);
    // Half the query's informative words covered is enough, whatever the score.
    expect(
      (await createLexicalRanker({ relevanceFloor: { score: 1000 } })("deploy to vercel", library, 1))[0],
    ).toMatchObject({ name: "deploy-to-vercel", weak: false });
    expect(
      (
        await createLexicalRanker({ relevanceFloor: { score: 1000, coverage: 1.01 } })("deploy to vercel", library, 1)
      )[0],
    ).toMatchObject({ weak: true });
  });

  it("finds nothing for stop words alone or unknown words", async () => {
    const rank = createLexicalRanker();
    expect(await search(rank, "how do I use the", LIBRARY)).toEqual([]);
    expect(await search(rank, "zebra", LIBRARY)).toEqual([]);
  });

  it("follows a changed catalog: a changed description is indexed again, a removed skill is gone", async () => {
    const rank = createLexicalRanker();
    expect(await search(rank, "crop", LIBRARY, 5)).toEqual(["image-resizer"]);
    const changed = [...LIBRARY.slice(0, 4), skill("image-resizer", "Convert videos to animated GIFs.")];
    expect(await search(rank, "crop", changed)).toEqual([]);
    expect(await search(rank, "videos", changed, 5)).toEqual(["image-resizer"]);
    expect(await search(rank, "spreadsheets", changed.slice(0, 1), 5)).toEqual([]);
    expect(await search(rank, "spreadsheets", LIBRARY, 5)).toEqual(["xlsx"]);
  });
  it("scores alike after any changes as a new index over the same skills, and a new index as the simplest scoring does, large libraries and gaps included (property, seed 36)", async () => {
    let seed = 36;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    // Aliases, prefixes and typos among them, so that words reach several terms.
    const WORDS =
      "pdf forms merge tables spreadsheet spreadsheets charts git rebase release releasing notes image crop resize video deploy report test review pptx slides presentation k8s kubectl deck docx pr".split(
        " ",
      );
    const QUERIES = [
      "make a powerpoint deck",
      "kubernetes",
      "word document",
      "spread",
      "deplo",
      "relase notes",
      "spreadsheat",
    ];
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const text = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(" ");
    const ranked = async (rank: SkillRanker, query: string, skills: readonly SkillMetadata[]) =>
      [...(await rank(query, skills, skills.length))].map(({ name, score, weak }) => `${score} ${name} ${weak}`).sort();
    let skills = Array.from({ length: 1500 }, (_, at) => skill(`s-${at}`, text(1 + Math.floor(random() * 10))));
    const followed = createLexicalRanker();
    for (let round = 0; round < 6; round++) {
      // Rounds remove up to two thirds of the skills, so the gaps they leave outnumber the live docs.
      const share = round % 2 === 0 ? 0.66 : 0.1;
      skills = skills
        .filter(() => random() > share)
        .map((kept) => (random() < 0.1 ? skill(kept.name, text(6)) : kept))
        .concat(Array.from({ length: 300 }, (_, at) => skill(`r${round}-${at}`, text(8))));
      const fresh = createLexicalRanker();
      const index = createLexicalIndex();
      index.follow(skills);
      // Common words reach most skills; a name's number, one (the index then lists the docs it reaches).
      const queries = [text(1), text(2), text(4), `${pick(skills).name.split("-")[1]} ${text(1)}`, ...QUERIES];
      for (const query of [...queries, "deploying reports"]) {
        expect(await ranked(followed, query, skills)).toEqual(await ranked(fresh, query, skills));
        const expected = referenceSearch(skills, query);
        expect(index.search(query, skills.length)).toEqual(expected);
        expectTopOf(index.search(query, 5), expected);
      }
    }
  });
  it("indexes a large library in slices: searches made meanwhile wait for it, and one for a newer catalog follows it", async () => {
    const WORDS = "pdf forms merge tables spreadsheet charts git rebase release notes image crop".split(" ");
    const large = Array.from({ length: 6000 }, (_, at) =>
      skill(`s-${at}`, `${WORDS[at % WORDS.length]} ${WORDS[(at * 7) % WORDS.length]} task ${at}`),
    );
    const newer = [...large.slice(0, 5000), skill("zz-crop", "Crop crop crop images.")];
    const expected = async (skills: SkillMetadata[], query: string) => {
      const index = createLexicalIndex();
      index.follow(skills);
      return index.search(query, 5).map((hit) => hit.name);
    };
    const rank = createLexicalRanker();
    const [first, same, later] = await Promise.all([
      search(rank, "merge tables", large),
      search(rank, "merge tables", large),
      search(rank, "crop images", newer),
    ]);
    expect(first).toEqual(await expected(large, "merge tables"));
    expect(same).toEqual(first);
    expect(later).toEqual(await expected(newer, "crop images"));
    expect(later[0]).toBe("zz-crop");
  });
  it("sorts the terms for prefix matches in turns of their own after the slices, not in the first search's", async () => {
    const skills = Array.from({ length: 50 }, (_, at) => skill(`s-${at}`, `merging tables ${at}`));
    const index = createLexicalIndex();
    let pauses = 0;
    await index.followInSlices(
      skills,
      () => false,
      async () => void pauses++,
    );
    const sort = vi.spyOn(Array.prototype, "sort");
    try {
      expect(index.search("merg", 1).map((hit) => hit.name)).toEqual(["s-0"]);
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
    expect(pauses).toBe(1);
  });
});

describe("fuseRankings and createEmbeddingRanker", () => {
  it("fuses by reciprocal rank: agreement wins, ties by name", () => {
    expect(
      fuseRankings(
        [
          [
            { name: "a", score: 9 },
            { name: "b", score: 5 },
          ],
          [
            { name: "b", score: 0.9 },
            { name: "c", score: 0.8 },
          ],
        ],
        3,
      ).map((hit) => hit.name),
    ).toEqual(["b", "a", "c"]);
  });

  it("fuses the weak verdicts: weak when a ranking judged it so and none judged it a match", () => {
    const fused = fuseRankings(
      [
        [
          { name: "a", score: 9, weak: true },
          { name: "b", score: 5, weak: true },
          { name: "c", score: 4, weak: false },
        ],
        [
          { name: "b", score: 0.9, weak: false },
          { name: "d", score: 0.8 },
          { name: "a", score: 0.7 },
        ],
      ],
      4,
    );
    expect(Object.fromEntries(fused.map((hit) => [hit.name, hit.weak]))).toEqual({
      a: true,
      b: false,
      c: false,
      d: undefined,
    });
  });

  it("ranks by cosine similarity and embeds each skill text once, even across calls", async () => {
    const embedded: string[][] = [];
    const vector = (text: string) => [text.includes("PDF") ? 1 : 0, text.includes("images") ? 1 : 0, 0.1];
    const rank = createEmbeddingRanker(async (texts) => {
      embedded.push(texts);
      return texts.map(vector);
    });
    expect((await rank("images", LIBRARY, 2))[0]!.name).toBe("image-resizer");
    await rank("PDF", LIBRARY, 2);
    expect(embedded.map((batch) => batch.length)).toEqual([5, 1, 1]);
  });
});

describe("the engine's search", () => {
  async function setup(files: Record<string, string>, options: Parameters<typeof createSkillEngine>[0] = {}) {
    const catalog = createCatalog([createMemorySource({ files })]);
    const entries: SkillsLogEntry[] = [];
    const engine = createSkillEngine({ ...options, logger: (entry) => entries.push(entry) });
    const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
    // Only the version, as the LangChain host keeps it: the engine finds the catalog by it.
    const request: SkillRequest = {
      state: { catalogVersion: refreshed.version, loaded: [], resources: {} },
      sources: async () => catalog.sources,
    };
    return { engine, request, entries };
  }
  const file = (name: string, description: string, extra = "") =>
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody.\n`;
  const many = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        `/s/t${index}/SKILL.md`,
        file(`tool-${index}`, `Handles chore ${index} of the quarterly accounting close.`),
      ]),
    );

  it("returns the text for the model and the results as data, without skills only a user may invoke", async () => {
    const { engine, request } = await setup({
      "/s/pdf/SKILL.md": file("pdf", "Fill PDF forms.", "argument-hint: '[file]'\n"),
      "/s/manual-pdf/SKILL.md": file("manual-pdf", "PDF forms, by hand.", "disable-model-invocation: true\n"),
    });
    const reply = await engine.search(request, { query: "pdf forms" });
    expect(reply).toEqual({
      ok: true,
      text: "Skills matching 'pdf forms', best first:\n- pdf (arguments: [file]): Fill PDF forms.\nLoad one with load_skill to use it.",
      results: [
        {
          name: "pdf",
          description: "Fill PDF forms.",
          argumentHint: "[file]",
          path: "/s/pdf/SKILL.md",
          score: expect.any(Number),
        },
      ],
      weakMatches: [],
    });
    expect(await engine.search(request, { query: "  " })).toEqual({
      ok: false,
      text: "Error: The search query is empty. Describe the task in a few words.",
      results: [],
      weakMatches: [],
    });
    expect((await engine.search(request, { query: "zebra" })).text).toBe(
      "No skills match 'zebra'. Try other words, or go on without a skill.",
    );
  });

  it("says that no skill matches well and shows the weak matches apart, instead of answering with them", async () => {
    const { engine, request, entries } = await setup({
      "/s/mcp/SKILL.md": file("mcp-builder", "Build MCP servers for an app's API."),
      "/s/vercel/SKILL.md": file("deploy-to-vercel", "Deploy apps and websites to Vercel."),
    });
    const reply = await engine.search(request, { query: "write a Dockerfile for my node app" });
    expect(reply.results).toEqual([]);
    expect(reply.weakMatches.map((hit) => hit.name).sort()).toEqual(["deploy-to-vercel", "mcp-builder"]);
    expect(reply.text).toMatch(
      /^No skill matches 'write a Dockerfile for my node app' well\. The closest, weak matches \(probably not what the task needs\):\n- (mcp-builder|deploy-to-vercel): .+\n- (mcp-builder|deploy-to-vercel): .+\nLoad one only if it clearly fits; otherwise try other words, or go on without a skill\.$/,
    );
    expect(entries.find((entry) => entry.event === "skills_searched")).toMatchObject({ results: 0, weakMatches: 2 });
    const both = await engine.search(request, { query: "deploy my app to Vercel" });
    expect(both.results.map((hit) => hit.name)).toEqual(["deploy-to-vercel"]);
    expect(both.weakMatches.map((hit) => hit.name)).toEqual(["mcp-builder"]);
    expect(both.text).toBe(
      "Skills matching 'deploy my app to Vercel', best first:\n- deploy-to-vercel: Deploy apps and websites to Vercel.\n" +
        "Weak matches (probably not what the task needs):\n- mcp-builder: Build MCP servers for an app's API.\nLoad one with load_skill to use it.",
    );
  });

  it("offers search only while the catalog is over its budget, and logs what the budget left out once, when the catalog is first rendered", async () => {
    const small = await setup(many(3));
    expect(await small.engine.offersSearch(small.request)).toBe(false);
    const large = await setup(many(300), { catalogBudget: 800 });
    expect(await large.engine.offersSearch(large.request)).toBe(true);
    const events = large.entries.filter((entry) => entry.event === "catalog_over_budget");
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toMatch(
      /^The skills catalog is over its budget of 800 tokens: 0 whole, 0 shortened, \d+ by name only, \d+ left out \(search_skills finds them\); it now takes \d+ tokens$/,
    );
    const prompt = await large.engine.systemPrompt(large.request);
    expect(prompt).toContain("more skills are not listed here: find them with `search_skills`.");
    const unsearchable = await setup(many(300), { catalogBudget: 800, search: { offer: "never" } });
    await unsearchable.engine.catalog(unsearchable.request);
    expect(unsearchable.entries.find((entry) => entry.event === "catalog_over_budget")!.level).toBe("warn");
  });

  it("answers a load of an unknown name in a large catalog with the closest names, not the whole list", async () => {
    const { engine, request } = await setup(many(60));
    expect(await engine.load(request, { skill: "tool-7x", id: "1" })).toEqual({
      ok: false,
      text: expect.stringMatching(
        /^Error: Skill 'tool-7x' not found\. Closest matches: tool-\d+, tool-\d+, tool-\d+\.$/,
      ),
    });
    // A hidden skill is still loadable by name.
    expect((await engine.load(request, { skill: "tool-59", id: "2" })).ok).toBe(true);
  });

  it("finds a thread's catalog by version alone, and scans the sources again when it is not in memory", async () => {
    const files = many(2);
    const { engine, request } = await setup(files);
    const other = createSkillEngine();
    // A second engine (another process) with no refresh yet: it rescans the request's sources.
    expect((await other.load(request, { skill: "tool-1", id: "1" })).ok).toBe(true);
    expect((await engine.load(request, { skill: "tool-1", id: "1" })).ok).toBe(true);
  });
});
