import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import type { SkillSource } from "../skill-source.js";
import { classifyResource, discoverResources, summarizeResources } from "./skill-resources.js";

const files = {
  "/s/demo/SKILL.md": "---\nname: demo\ndescription: d\n---\n",
  "/s/demo/template.md": "t",
  "/s/demo/scripts/run.py": "p",
  "/s/demo/scripts/lib/helper.py": "h",
  "/s/demo/references/guide.md": "g",
  "/s/demo/assets/logo.png": "l",
  "/s/demo/temp/scratch.txt": "ignored",
};

describe("discoverResources", () => {
  it("classifies scripts, references, assets and root files, at any depth, ignoring other folders", async () => {
    const source = createMemorySource({ files });
    const [skill] = (await source.scan()).skills;
    const discovery = await discoverResources(source, skill!);
    expect(discovery.truncated).toBe(false);
    expect(discovery.resources.map((resource) => [resource.relativePath, resource.type])).toEqual([
      ["assets/logo.png", "asset"],
      ["references/guide.md", "reference"],
      ["scripts/lib/helper.py", "script"],
      ["scripts/run.py", "script"],
      ["template.md", "other"],
    ]);
  });

  it("says when a limit cut the listing", async () => {
    const source = createMemorySource({ files });
    const [skill] = (await source.scan()).skills;
    expect((await discoverResources(source, skill!, { maxDepth: 4, maxFiles: 2 })).truncated).toBe(true);
    const shallow = await discoverResources(source, skill!, { maxDepth: 1, maxFiles: 100 });
    expect(shallow.truncated).toBe(true);
    expect(shallow.resources.map((resource) => resource.relativePath)).not.toContain("scripts/lib/helper.py");
  });

  it("returns no resources and the reason when the source fails (seed §7.1)", async () => {
    const memory = createMemorySource({ files });
    const [skill] = (await memory.scan()).skills;
    const failing: SkillSource = { ...memory, listFiles: async () => Promise.reject(new Error("backend down")) };
    expect(await discoverResources(failing, skill!)).toEqual({
      resources: [],
      truncated: false,
      error: "backend down",
    });
  });
});

describe("classifyResource and summarizeResources", () => {
  it("maps folders to types", () => {
    expect(["scripts/a.sh", "references/b.md", "assets/c.png", "d.md", "examples/e.md"].map(classifyResource)).toEqual([
      "script",
      "reference",
      "asset",
      "other",
      undefined,
    ]);
  });

  it("counts by type in a fixed order, plural when needed", () => {
    expect(summarizeResources([{ type: "reference" }, { type: "script" }, { type: "script" }])).toBe(
      "2 scripts, 1 reference",
    );
    expect(summarizeResources([])).toBe("");
  });
});
