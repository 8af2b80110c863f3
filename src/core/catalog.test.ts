import { describe, expect, it } from "vitest";
import { createMemorySource } from "../sources/memory-source.js";
import { createCatalog } from "./catalog.js";

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n`;

describe("createCatalog", () => {
  it("merges sources in order: a later source wins by name, the loser is reported as shadowed", async () => {
    const user = createMemorySource({ id: "user", files: { "/u/pdf/SKILL.md": skill("pdf", "User PDF"), "/u/zip/SKILL.md": skill("zip", "Zip") } });
    const project = createMemorySource({ id: "project", files: { "/p/pdf/SKILL.md": skill("pdf", "Project PDF"), "/p/csv/SKILL.md": skill("csv", "CSV") } });
    const snapshot = await createCatalog([user, project]).refresh();
    expect(snapshot.skills.map((entry) => [entry.name, entry.description, entry.source])).toEqual([
      ["csv", "CSV", "project"],
      ["pdf", "Project PDF", "project"],
      ["zip", "Zip", "user"],
    ]);
    expect(snapshot.shadowed.map((entry) => entry.path)).toEqual(["/u/pdf/SKILL.md"]);
    expect(snapshot.diagnostics).toEqual([
      { severity: "info", code: "shadowed", file: "/u/pdf/SKILL.md", skill: "pdf", source: "user", message: "Skill 'pdf' is shadowed by /p/pdf/SKILL.md from project" },
    ]);
    expect(snapshot.get("pdf")?.source).toBe("project");
    expect(snapshot.get("nope")).toBeUndefined();
  });

  it("returns the same snapshot while no source changed, and a new one when one did", async () => {
    const source = createMemorySource({ files: { "/s/a/SKILL.md": skill("a", "A") } });
    const catalog = createCatalog([source]);
    const first = await catalog.refresh();
    expect(await catalog.refresh()).toBe(first);
    source.write("/s/b/SKILL.md", skill("b", "B"));
    const second = await catalog.refresh();
    expect(second).not.toBe(first);
    expect(second.skills.map((entry) => entry.name)).toEqual(["a", "b"]);
  });

  it("sorts by code point, so the order never depends on the sources' listing order", async () => {
    const source = createMemorySource({ files: { "/s/b/SKILL.md": skill("b", "x"), "/s/a-b/SKILL.md": skill("a-b", "x"), "/s/ab/SKILL.md": skill("ab", "x"), "/s/é/SKILL.md": skill("é", "x") } });
    expect((await createCatalog([source]).refresh()).skills.map((entry) => entry.name)).toEqual(["a-b", "ab", "b", "é"]);
  });
});
