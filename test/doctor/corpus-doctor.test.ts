// diagnoseLibrary on the shared corpus of real skills (../shared/corpus): what it finds in
// libraries people publish. Skips without the corpus, except under CI=true.
import { describe, expect, it } from "vitest";
import { createCatalog, diagnoseLibrary } from "../../src/index.js";
import { createLocalSource } from "../../src/node.js";
import { corpusRepositories, SHARED_CORPUS as corpus, useSharedCorpus } from "../helpers/test-environment.js";

const withCorpus = useSharedCorpus();

describe.skipIf(!withCorpus)("doctor on the real-skills corpus", () => {
  it("finds one rival pair, the one shadowed skill, and a fix for every finding", async () => {
    const catalog = createCatalog(
      corpusRepositories().map((path) => createLocalSource({ path, recursive: true, watch: false })),
    );
    const report = await diagnoseLibrary({ snapshot: await catalog.refresh(), sources: catalog.sources });
    const counts: Record<string, number> = {};
    for (const finding of report.findings) counts[finding.code] = (counts[finding.code] ?? 0) + 1;
    // Lint that depends only on the files; the catalog's placements follow the default budget.
    expect(counts).toMatchObject({
      "description-without-when": 43,
      "unmentioned-resource": 159,
      "body-too-many-lines": 42,
      "body-too-many-tokens": 28,
      "catalog-name-only": 78,
      "catalog-shortened": 1,
    });
    const pairs = report.findings
      .filter((finding) => finding.code === "rival-skills")
      .map((finding) => [finding.skill, finding.related]);
    expect(pairs).toEqual([["executing-plans", "subagent-driven-development"]]);
    const shadowed = report.findings
      .filter((finding) => finding.code === "shadowed")
      .map((finding) => finding.file.slice(corpus.length + 1));
    expect(shadowed).toEqual(["anthropics+skills/skills/skill-creator/SKILL.md"]);
    expect(counts["unreadable-skill"]).toBeUndefined();
    expect(report.findings.every((finding) => finding.fix !== "" && finding.file !== "" && finding.skill !== "")).toBe(
      true,
    );
  });
});
