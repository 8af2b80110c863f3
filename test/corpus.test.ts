import { describe, expect, it } from "vitest";
import { discoverResources } from "../src/core/resources/skill-resources.js";
import { findSkillDirectories } from "../src/node/find-skill-directories.js";
import { createCatalog } from "../src/index.js";
import { createLocalSource, validateSkillDirectory } from "../src/node.js";
import { corpusRepositories, SHARED_CORPUS as corpus, useSharedCorpus } from "./helpers/test-environment.js";

// The shared corpus of real skills sits beside the checkout (../shared/corpus); without it these
// tests skip, except under CI=true.
const withCorpus = useSharedCorpus();
const repos = withCorpus ? corpusRepositories() : [];

describe.skipIf(!withCorpus)("the real-skills corpus", () => {
  it("loads every one of its 175 skills at runtime, with a diagnostic for each problem", async () => {
    const catalog = createCatalog(repos.map((path) => createLocalSource({ path, recursive: true, watch: false })));
    const snapshot = await catalog.refresh();
    expect(findSkillDirectories(corpus)).toHaveLength(175);
    // 175 load; anthropics' skill-creator is shadowed by openai's (a later source), leaving 174.
    expect(snapshot.skills.length + snapshot.shadowed.length).toBe(175);
    expect(snapshot.shadowed.map((skill) => skill.path.slice(corpus.length + 1))).toEqual([
      "anthropics+skills/skills/skill-creator/SKILL.md",
    ]);
    expect(snapshot.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warnings = snapshot.diagnostics
      .filter((d) => d.severity === "warning")
      .map((d) => [d.file.slice(corpus.length + 1), d.message.slice(0, 48)]);
    expect(warnings.sort()).toEqual([
      [
        "K-Dense-AI+claude-scientific-skills/scientific-skills/adaptyv/SKILL.md",
        "Unexpected fields in frontmatter: author. Only [",
      ],
      [
        "K-Dense-AI+claude-scientific-skills/scientific-skills/database-lookup/SKILL.md",
        "Description exceeds 1024 character limit (1929 c",
      ],
      [
        "K-Dense-AI+claude-scientific-skills/scientific-skills/markdown-mermaid-writing/SKILL.md",
        "Field 'metadata.skill-contributors' must be a st",
      ],
      [
        "K-Dense-AI+claude-scientific-skills/scientific-skills/rowan/SKILL.md",
        "Field 'metadata.trigger-keywords' must be a stri",
      ],
      ["anthropics+skills/skills/claude-api/SKILL.md", "Description exceeds 1024 character limit (1068 c"],
      ["anthropics+skills/template/SKILL.md", "Directory name 'template' must match skill name "],
      [
        "vercel-labs+agent-skills/skills/composition-patterns/SKILL.md",
        "Directory name 'composition-patterns' must match",
      ],
      [
        "vercel-labs+agent-skills/skills/react-best-practices/SKILL.md",
        "Directory name 'react-best-practices' must match",
      ],
      [
        "vercel-labs+agent-skills/skills/react-native-skills/SKILL.md",
        "Directory name 'react-native-skills' must match ",
      ],
      [
        "vercel-labs+agent-skills/skills/react-view-transitions/SKILL.md",
        "Directory name 'react-view-transitions' must mat",
      ],
    ]);
    // Hidden collections (openai's skills/.system, .curated, .experimental) are found too.
    expect(snapshot.skills.filter((skill) => skill.path.includes("/skills/.")).length).toBe(10);
  });

  it("reads every skill in full and lists its resources", async () => {
    const sources = repos.map((path) => createLocalSource({ path, recursive: true, watch: false }));
    let resources = 0;
    for (const source of sources) {
      for (const skill of (await source.scan()).skills) {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(await source.readSkill(skill));
        expect(text).toContain(`description:`);
        const discovery = await discoverResources(source, skill);
        expect(discovery.error).toBeUndefined();
        resources += discovery.resources.length;
      }
    }
    expect(resources).toBeGreaterThan(1000);
  });

  it("validates strictly: 166 valid, and each of the 9 invalid skills has the reference's reason", () => {
    const reports = findSkillDirectories(corpus).map((directory) => validateSkillDirectory(directory));
    expect(reports.filter((report) => report.valid)).toHaveLength(166);
    expect(
      reports
        .filter((report) => !report.valid)
        .map((report) => [report.path.slice(corpus.length + 1), report.errors.map((error) => error.slice(0, 40))])
        .sort(),
    ).toEqual([
      ["K-Dense-AI+claude-scientific-skills/scientific-skills/adaptyv", ["Unexpected fields in frontmatter: author"]],
      [
        "K-Dense-AI+claude-scientific-skills/scientific-skills/database-lookup",
        ["Description exceeds 1024 character limit"],
      ],
      ["K-Dense-AI+claude-scientific-skills/scientific-skills/rowan", ["Invalid YAML in frontmatter: flow style "]],
      ["anthropics+skills/skills/claude-api", ["Description exceeds 1024 character limit"]],
      ["anthropics+skills/template", ["Directory name 'template' must match ski"]],
      ["vercel-labs+agent-skills/skills/composition-patterns", ["Directory name 'composition-patterns' mu"]],
      ["vercel-labs+agent-skills/skills/react-best-practices", ["Directory name 'react-best-practices' mu"]],
      ["vercel-labs+agent-skills/skills/react-native-skills", ["Directory name 'react-native-skills' mus"]],
      ["vercel-labs+agent-skills/skills/react-view-transitions", ["Directory name 'react-view-transitions' "]],
    ]);
  });
});
