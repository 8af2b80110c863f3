// diagnoseLibrary on a library with one of each planted problem, in real folders (two sources).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCatalog,
  diagnoseLibrary,
  type CatalogSnapshot,
  type DoctorFinding,
  type SkillSource,
} from "../../src/index.js";
import { createLocalSource } from "../../src/node.js";
import { plantedLibrary } from "./library-fixture.js";

let library: ReturnType<typeof plantedLibrary>;
let input: { snapshot: CatalogSnapshot; sources: readonly SkillSource[] };
beforeAll(async () => {
  library = plantedLibrary();
  const catalog = createCatalog(
    [library.user, library.project].map((path) => createLocalSource({ path, watch: false })),
  );
  input = { snapshot: await catalog.refresh(), sources: catalog.sources };
});
afterAll(() => library.cleanup());

const brief = (findings: readonly DoctorFinding[]) =>
  findings.map((finding) => [
    finding.severity,
    finding.code,
    finding.skill,
    ...(finding.related ? [finding.related] : []),
  ]);

describe("diagnoseLibrary", () => {
  it("finds each planted problem, errors first, then by skill and code, and nothing else", async () => {
    const report = await diagnoseLibrary(input);
    const project = (path: string) => join(library.project, path);
    expect(report.skills).toBe(7);
    expect(brief(report.findings)).toEqual([
      ["error", "placeholder-description", "draft-skill"],
      ["warning", "body-too-many-lines", "db-migrate"],
      ["warning", "body-too-many-tokens", "db-migrate"],
      ["warning", "placeholder-body", "draft-skill"],
      ["warning", "rival-skills", "pdf-extract", "pdf-text"],
      ["warning", "shadowed", "pdf-tools", project("pdf-tools/SKILL.md")],
      ["warning", "description-without-when", "sql-format"],
      ["warning", "unmentioned-resource", "sql-format"],
    ]);
    const byCode = (code: string) => report.findings.find((finding) => finding.code === code)!;
    expect(byCode("body-too-many-lines")).toMatchObject({
      value: 522,
      message: "The body of 'db-migrate' has 522 lines, over the 500 the Agent Skills guidance recommends",
    });
    expect(byCode("body-too-many-tokens").value).toBeGreaterThan(5000);
    expect(byCode("rival-skills")).toMatchObject({
      file: project("pdf-extract/SKILL.md"),
      message: expect.stringMatching(/^'pdf-extract' and 'pdf-text' describe the same job \(lexical overlap 9\d%\)/),
    });
    expect(byCode("shadowed").file).toBe(join(library.user, "pdf-tools/SKILL.md"));
    // Named resources (by path, by folder) and a licence file are not findings; the unnamed asset is.
    expect(byCode("unmentioned-resource")).toMatchObject({
      file: project("sql-format/assets/logo.txt"),
      fix: "Say in SKILL.md when to read or run assets/logo.txt, or remove it",
    });
    for (const finding of report.findings) expect(finding.fix.length).toBeGreaterThan(20);
  });

  it("gives each skill's catalog cost, most expensive first, and the default budget leaves none out", async () => {
    const { catalog } = await diagnoseLibrary(input);
    expect(catalog.budget).toBe(5000);
    expect(catalog.skills.map((cost) => cost.name)).toEqual([
      "csv-report",
      "pdf-extract",
      "pdf-text",
      "pdf-tools",
      "db-migrate",
      "draft-skill",
      "sql-format",
    ]);
    expect(catalog.skills.every((cost) => cost.place === "whole" && cost.tokens > 10)).toBe(true);
    expect(catalog.wholeTokens).toBe(catalog.skills.reduce((sum, cost) => sum + cost.tokens, 0));
    expect(catalog.tokens).toBeGreaterThan(catalog.wholeTokens);
  });

  it("under a small budget, says which skills it shortens, names only or leaves to search", async () => {
    const report = await diagnoseLibrary(input, { budget: 200 });
    const places = Object.fromEntries(report.catalog.skills.map((cost) => [cost.name, cost.place]));
    const catalogFindings = report.findings.filter((finding) => finding.code.startsWith("catalog-"));
    expect(catalogFindings.length).toBeGreaterThan(0);
    for (const finding of catalogFindings) {
      const place = places[finding.skill];
      expect(finding.code).toBe(
        { shortened: "catalog-shortened", "name only": "catalog-name-only", "search only": "catalog-search-only" }[
          place as string
        ],
      );
      expect(finding.message).toMatch(/^Under the catalog budget of 200 tokens, the model's catalog shows '/);
    }
    expect(report.catalog.tokens).toBeLessThanOrEqual(200);
    expect(
      (await diagnoseLibrary(input, { budget: false })).catalog.skills.every((cost) => cost.place === "whole"),
    ).toBe(true);
  });

  it("with recorded threads, names each skill none of them loaded", async () => {
    const threads = [
      { id: "a", loaded: ["pdf-tools"] },
      { id: "b", loaded: ["pdf-tools", "csv-report", "sql-format"] },
    ];
    const report = await diagnoseLibrary(input, { threads });
    const never = report.findings.filter((finding) => finding.code === "never-loaded");
    expect(never.map((finding) => finding.skill)).toEqual(["db-migrate", "draft-skill", "pdf-extract", "pdf-text"]);
    expect(never[0]).toMatchObject({ severity: "info", message: "None of the 2 recorded threads loaded 'db-migrate'" });
    expect(report.threads).toBe(2);
    expect(
      (await diagnoseLibrary(input, { threads: [] })).findings.some((finding) => finding.code === "never-loaded"),
    ).toBe(false);
  });

  it("with embed, also pairs skills whose vectors are close, however different their words", async () => {
    // A stand-in for an embedding model: one direction per skill, except that csv-report and
    // db-migrate share one (0.995 apart), which their words never would.
    const embed = async (texts: string[]) =>
      texts.map((text, index) =>
        text.startsWith("csv report:")
          ? [1, 0, ...texts.map(() => 0)]
          : text.startsWith("db migrate:")
            ? [1, 0.1, ...texts.map(() => 0)]
            : [0, 0, ...texts.map((_, other) => (other === index ? 1 : 0))],
      );
    const report = await diagnoseLibrary(input, { embed, rivalSimilarity: 0.99 });
    const rivals = report.findings.filter((finding) => finding.code === "rival-skills");
    expect(brief(rivals)).toEqual([
      ["warning", "rival-skills", "csv-report", "db-migrate"],
      ["warning", "rival-skills", "pdf-extract", "pdf-text"],
    ]);
    expect(rivals[0]).toMatchObject({
      value: 0.995,
      message:
        "'csv-report' and 'db-migrate' describe the same job (embedding similarity 0.995): a model may load either for the other's requests",
    });
    expect(rivals[1]!.message).toMatch(
      /^'pdf-extract' and 'pdf-text' describe the same job \(lexical overlap 9\d%\): /,
    );
  });

  it("when embed fails, onEmbedError hears it once and the lexical rivals stand; without it the error is thrown", async () => {
    const down = new Error("The embeddings service is down");
    const heard: unknown[] = [];
    const report = await diagnoseLibrary(input, {
      embed: () => Promise.reject(down),
      onEmbedError: (error) => heard.push(error),
    });
    expect(heard).toEqual([down]);
    expect(brief(report.findings.filter((finding) => finding.code === "rival-skills"))).toEqual([
      ["warning", "rival-skills", "pdf-extract", "pdf-text"],
    ]);
    await expect(diagnoseLibrary(input, { embed: () => Promise.reject(down) })).rejects.toBe(down);
    // A provider that answers with too few vectors is a failure too, never a crash on a missing one.
    const short = await diagnoseLibrary(input, {
      embed: async () => [[1, 0]],
      onEmbedError: (error) => heard.push(error),
    });
    expect((heard[1] as Error).message).toBe("The embeddings provider returned 1 vectors for 7 texts");
    expect(short.findings.filter((finding) => finding.code === "rival-skills")).toHaveLength(1);
  });
});
