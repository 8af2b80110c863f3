import { describe, expect, it } from "vitest";
import { turnsDuring } from "../../../test/helpers/event-loop-turns.js";
import { createMemorySource } from "../../sources/memory-source.js";
import { createCatalog } from "./catalog.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../skill-source.js";

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n`;

// A source that lists whatever `scan` returns.
const listing = (id: string, scan: () => SkillSourceScan): SkillSource => ({
  specificationVersion: "v1",
  id,
  scan: async () => scan(),
  readSkill: async () => new Uint8Array(),
  listFiles: async () => ({ files: [], truncated: false }),
  readFile: async () => new Uint8Array(),
});

const named = (name: string, path = `/s/${name}/SKILL.md`): SkillMetadata => ({
  name,
  description: name,
  path,
  source: "fixed",
  metadata: {},
  allowedTools: [],
});

// A skill whose name takes a millisecond to read: a merge of a dozen cannot fit one 5 ms slice.
const slowlyNamed = (name: string): SkillMetadata =>
  Object.defineProperty(named(name), "name", {
    enumerable: true,
    get() {
      for (const end = performance.now() + 1; performance.now() < end;);
      return name;
    },
  });

describe("createCatalog", () => {
  it("merges sources in order: a later source wins by name, the loser is reported as shadowed", async () => {
    const user = createMemorySource({
      id: "user",
      files: { "/u/pdf/SKILL.md": skill("pdf", "User PDF"), "/u/zip/SKILL.md": skill("zip", "Zip") },
    });
    const project = createMemorySource({
      id: "project",
      files: { "/p/pdf/SKILL.md": skill("pdf", "Project PDF"), "/p/csv/SKILL.md": skill("csv", "CSV") },
    });
    const snapshot = await createCatalog([user, project]).refresh();
    expect(snapshot.skills.map((entry) => [entry.name, entry.description, entry.source])).toEqual([
      ["csv", "CSV", "project"],
      ["pdf", "Project PDF", "project"],
      ["zip", "Zip", "user"],
    ]);
    expect(snapshot.shadowed.map((entry) => entry.path)).toEqual(["/u/pdf/SKILL.md"]);
    expect(snapshot.diagnostics).toEqual([
      {
        severity: "info",
        code: "shadowed",
        file: "/u/pdf/SKILL.md",
        skill: "pdf",
        source: "user",
        message: "Skill 'pdf' is shadowed by /p/pdf/SKILL.md from project",
      },
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
    const source = createMemorySource({
      files: {
        "/s/b/SKILL.md": skill("b", "x"),
        "/s/a-b/SKILL.md": skill("a-b", "x"),
        "/s/ab/SKILL.md": skill("ab", "x"),
        "/s/é/SKILL.md": skill("é", "x"),
      },
    });
    expect((await createCatalog([source]).refresh()).skills.map((entry) => entry.name)).toEqual([
      "a-b",
      "ab",
      "b",
      "é",
    ]);
  });

  it("finds every skill of a single source by name (code point order, astral names too), and no other", async () => {
    const names = ["a-b", "ab", "b", "é", "\u{1F600}x", "\uE000x", "z"];
    const source = createMemorySource({
      files: Object.fromEntries(names.map((name, at) => [`/s/${at}/SKILL.md`, skill(name, "x")])),
    });
    const snapshot = await createCatalog([source]).refresh();
    expect(snapshot.skills.map((entry) => entry.name)).toEqual(["a-b", "ab", "b", "z", "é", "\uE000x", "\u{1F600}x"]);
    for (const name of names) expect(snapshot.get(name)?.name).toBe(name);
    for (const name of ["", "a", "aa", "c", "zz", "\u{1F600}", "constructor", "__proto__"])
      expect(snapshot.get(name)).toBeUndefined();
  });

  it("merges sources out of name order in slices, letting the event loop run, into code point order", async () => {
    const slow = Array.from({ length: 12 }, (_, at) => slowlyNamed(`slow-${String(at).padStart(2, "0")}`)).reverse();
    const names = ["z", "\u{1F600}x", "\uE000x", "é", "b", "ab", "a-b"];
    const source = listing("fixed", () => ({
      version: "1",
      skills: [...names.map((name) => named(name)), ...slow],
      diagnostics: [],
    }));
    const { result: snapshot, turns } = await turnsDuring(() => createCatalog([source]).refresh());
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(snapshot.skills.map((entry) => entry.name)).toEqual([
      "a-b",
      "ab",
      "b",
      ...slow.map((entry) => entry.name).reverse(),
      "z",
      "é",
      "\uE000x",
      "\u{1F600}x",
    ]);
  });

  it("keeps the snapshot of the refresh that started last when refreshes overlap, and merges a version once", async () => {
    const slowScan = {
      version: "1",
      skills: [slowlyNamed("b"), ...Array.from({ length: 8 }, () => slowlyNamed("a"))],
      diagnostics: [],
    };
    const quickScan = { version: "2", skills: [named("d"), named("c")], diagnostics: [] };
    let scans = 0;
    const catalog = createCatalog([listing("fixed", () => (scans++ === 0 ? slowScan : quickScan))]);
    const [first, second] = await Promise.all([catalog.refresh(), catalog.refresh()]);
    expect([first.version, second.version]).toEqual(["1", "2"]);
    expect(second.skills.map((entry) => entry.name)).toEqual(["c", "d"]);
    // The slower merge of the earlier refresh ended last, and is not kept.
    expect(await catalog.refresh()).toBe(second);
    const again = createCatalog([listing("fixed", () => slowScan)]);
    const [one, other] = await Promise.all([again.refresh(), again.refresh()]);
    expect(one).toBe(other);
  });

  it("keeps every diagnostic of sources that report hundreds of thousands", async () => {
    const many = Array.from({ length: 300_000 }, (_, at) => ({
      severity: "warning" as const,
      code: "x",
      file: `/s/${at}/SKILL.md`,
      message: "x",
    }));
    const first = listing("first", () => ({ version: "1", skills: [named("b")], diagnostics: many }));
    const second = listing("second", () => ({ version: "1", skills: [named("a")], diagnostics: many }));
    const snapshot = await createCatalog([first, second]).refresh();
    expect(snapshot.diagnostics.length).toBe(600_000);
    expect(snapshot.skills.map((entry) => entry.name)).toEqual(["a", "b"]);
  });

  it("reports a name a single source lists twice as shadowed, as it does across sources", async () => {
    const source = listing("fixed", () => ({
      version: "1",
      skills: [named("twice", "/a/SKILL.md"), named("twice", "/b/SKILL.md")],
      diagnostics: [],
    }));
    const snapshot = await createCatalog([source]).refresh();
    expect(snapshot.skills.map((entry) => entry.path)).toEqual(["/b/SKILL.md"]);
    expect(snapshot.shadowed.map((entry) => entry.path)).toEqual(["/a/SKILL.md"]);
    expect(snapshot.get("twice")?.path).toBe("/b/SKILL.md");
  });

  it("lists a skill reached through a link and through its real folder once, from the later source, and says so", async () => {
    const meta = (path: string, source: string, realPath?: string, description = "Other."): SkillMetadata => ({
      name: "other",
      description,
      path,
      source,
      metadata: {},
      allowedTools: [],
      ...(realPath === undefined ? {} : { realPath }),
    });
    const fixed = (id: string, skills: SkillMetadata[]) =>
      listing(id, () => ({ version: id, skills, diagnostics: [] }));
    const real = "/p/.agents/skills/other/SKILL.md";
    const claude = fixed("claude", [meta("/p/.claude/skills/other/SKILL.md", "claude", real)]);
    const agents = fixed("agents", [meta(real, "agents")]);
    const snapshot = await createCatalog([claude, agents]).refresh();
    expect(snapshot.skills.map((entry) => [entry.path, entry.source])).toEqual([[real, "agents"]]);
    expect(snapshot.shadowed).toEqual([]);
    expect(snapshot.diagnostics).toEqual([
      {
        severity: "info",
        code: "same-skill",
        file: "/p/.claude/skills/other/SKILL.md",
        skill: "other",
        source: "claude",
        message: `Skill 'other' is the same skill as ${real} from agents (both are ${real}); listed once`,
      },
    ]);
    // Precedence is unchanged: the later source is listed even when it is the link.
    const reversed = await createCatalog([agents, claude]).refresh();
    expect(reversed.skills.map((entry) => entry.source)).toEqual(["claude"]);
    expect(reversed.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["same-skill", real],
    ]);
    // A different file of the same name still shadows, and equal paths without a link are not "the same".
    const elsewhere = fixed("elsewhere", [
      meta("/q/other/SKILL.md", "elsewhere", "/q/real/other/SKILL.md", "Elsewhere."),
    ]);
    const twice = await createCatalog([
      claude,
      agents,
      elsewhere,
      fixed("again", [meta("/q/other/SKILL.md", "again")]),
    ]).refresh();
    expect(twice.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["same-skill", "/p/.claude/skills/other/SKILL.md"],
      ["shadowed", real],
      ["shadowed", "/q/other/SKILL.md"],
    ]);
  });
});
