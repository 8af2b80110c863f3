import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SkillCollector } from "../core/catalog/collect-skills.js";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { createLocalSkillCache, type LocalSkillCache } from "./local-skill-cache.js";
import { createLocalSkillReader } from "./local-skill-reader.js";
import { resolveLocalSourceOptions, type LocalSourceOptions } from "./local-source-options.js";
import { scanLocalFolder } from "./scan-local-folder.js";
import type { TimeSlice } from "../core/time-slice.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

function library() {
  const tree = tempTree();
  trees.push(tree);
  tree.skill("a");
  tree.skill("group/b");
  return realpathSync(tree.root);
}

/** Scans with a slice that is never due, counting its pauses; returns the result in plain values. */
async function scan(options: LocalSourceOptions, previous: LocalSkillCache = new Map(), usePolling = false) {
  let pauses = 0;
  const slice: TimeSlice = { due: () => false, pause: async () => void pauses++ };
  const result = await scanLocalFolder({ settings: resolveLocalSourceOptions(options), previous, usePolling, slice });
  return {
    result,
    pauses,
    skills: result.skills.map((skill) => skill.name),
    folders: result.folders,
    entries: [...result.entries].map(([directory]) => directory),
    unscannable: result.unscannable,
  };
}

describe("scanLocalFolder", () => {
  it("returns the skills, the folders walked then the skill folders, and the entries read, pausing before and after the walk", async () => {
    const root = library();
    const { result, ...flat } = await scan({ path: root });
    expect(flat).toEqual({
      pauses: 2,
      skills: ["a"],
      folders: [root, `${root}/a`],
      entries: [`${root}/a`],
      unscannable: false,
    });
    expect(result.diagnostics).toEqual([]);
    const recursive = await scan({ path: root, recursive: true });
    expect(recursive.folders).toEqual([root, `${root}/group`, `${root}/a`, `${root}/group/b`]);
    expect(recursive.skills).toEqual(["a", "b"]);
  });

  it("collects many skills in slices, and finds the same", async () => {
    const tree = tempTree();
    trees.push(tree);
    for (let at = 0; at < 600; at++) tree.skill(`s${String(at).padStart(3, "0")}`);
    const settings = resolveLocalSourceOptions({ path: realpathSync(tree.root) });
    const add = vi.spyOn(SkillCollector.prototype, "add");
    try {
      let dueCalls = 0;
      const addsAtPauses: number[] = [];
      const slice: TimeSlice = {
        due: () => ++dueCalls % 2 === 0,
        pause: async () => void addsAtPauses.push(add.mock.calls.length),
      };
      const sliced = await scanLocalFolder({ settings, previous: new Map(), usePolling: false, slice });
      expect(addsAtPauses.some((adds) => adds > 0 && adds < 600)).toBe(true);
      const whole = (await scan({ path: settings.root })).result;
      expect(sliced.skills).toEqual(whole.skills);
      expect(sliced.diagnostics).toEqual(whole.diagnostics);
    } finally {
      add.mockRestore();
    }
  });

  it("reuses the previous entries on a polling re-scan of an unchanged folder", async () => {
    const root = library();
    const cold = await scan({ path: root, recursive: true });
    const warm = await scan({ path: root, recursive: true }, cold.result.entries, true);
    expect([...warm.result.entries]).toEqual([...cold.result.entries]);
    for (const [directory, entry] of warm.result.entries) expect(entry).toBe(cold.result.entries.get(directory));
    expect([cold.result.unchanged, warm.result.unchanged]).toEqual([false, true]);
  });

  it("says whether a re-scan kept every entry: not after a frontmatter changed, a skill was added or one was removed", async () => {
    const tree = tempTree();
    trees.push(tree);
    for (const name of ["a", "b", "c"]) tree.skill(name);
    const root = realpathSync(tree.root);
    let entries = (await scan({ path: root })).result.entries;
    const unchanged = async () => {
      const { result } = await scan({ path: root }, entries, true);
      entries = result.entries;
      return result.unchanged;
    };
    expect(await unchanged()).toBe(true);
    tree.write("b/SKILL.md", "---\nname: b\ndescription: Changed.\n---\n");
    expect([await unchanged(), await unchanged()]).toEqual([false, true]);
    tree.skill("d");
    expect([await unchanged(), await unchanged()]).toEqual([false, true]);
    rmSync(join(root, "a"), { recursive: true });
    expect([await unchanged(), await unchanged()]).toEqual([false, true]);
    expect([...entries].map(([directory]) => directory)).toEqual(["b", "c", "d"].map((name) => `${root}/${name}`));
  });

  it("reads a skill folder given as the source itself, without walking", async () => {
    const root = library();
    const { result, ...solo } = await scan({ path: join(root, "a") });
    expect(solo).toEqual({
      pauses: 2,
      skills: ["a"],
      folders: [`${root}/a`],
      entries: [`${root}/a`],
      unscannable: false,
    });
    expect(result.diagnostics).toEqual([]);
  });

  it("reports a missing source folder as unscannable", async () => {
    const root = join(library(), "missing");
    const { result, ...missing } = await scan({ path: root });
    expect(missing).toEqual({ pauses: 2, skills: [], folders: [], entries: [], unscannable: true });
    expect(result.diagnostics).toEqual([
      {
        severity: "warning",
        code: "source-missing",
        file: root,
        message: `Skills folder ${root} does not exist`,
        source: `local:${root}`,
      },
    ]);
  });

  it("reports paths it cannot expand and reads nothing", async () => {
    const root = library();
    const { result, ...unexpanded } = await scan({ path: "~nobody/skills", allowedRoots: [root, "~other"] });
    expect(unexpanded).toEqual({ pauses: 2, skills: [], folders: [], entries: [], unscannable: false });
    expect(result.diagnostics).toEqual([
      {
        severity: "warning",
        code: "unsupported-path",
        file: "~nobody/skills",
        message:
          "Cannot use ~nobody/skills: only ~ and ~/ (your home folder) are expanded; write the folder's full path",
        source: "local:~nobody/skills",
      },
      {
        severity: "warning",
        code: "unsupported-path",
        file: "~other",
        message: "Cannot use ~other: only ~ and ~/ (your home folder) are expanded; write the folder's full path",
        source: "local:~nobody/skills",
      },
    ]);
  });
});

describe("scanLocalFolder reading skill files in runs", () => {
  // Every kind of folder a run may meet; each makes `name` and returns the skill folders it made.
  type Kind = (tree: ReturnType<typeof tempTree>, name: string, random: () => number) => string[];
  const file = (tree: ReturnType<typeof tempTree>, name: string, content: string | Buffer) => {
    mkdirSync(join(tree.root, name), { recursive: true });
    writeFileSync(join(tree.root, name, "SKILL.md"), content);
    return [name];
  };
  const kinds: Kind[] = [
    (tree, name) => (tree.skill(name), [name]),
    // Frontmatter about as long as a slot of a run, or longer.
    (tree, name, random) => (tree.skill(name, name, "é".repeat(8_150 + Math.floor(random() * 100))), [name]),
    (tree, name, random) => (
      tree.skill(name, name, "Big body.", `x: y\n---\n${"b".repeat(Math.floor(random() * 80_000))}\n`),
      [name]
    ),
    (tree, name) => file(tree, name, `---\nname: ${name}\nno closing line\n`),
    (tree, name) => file(tree, name, ""),
    (tree, name) => file(tree, name, `---\nname: other\ndescription: Wrong name.\n---\n`),
    // Not UTF-8 at its very end, within a slot of a run or past it.
    (tree, name, random) =>
      file(
        tree,
        name,
        Buffer.from(
          `---\nname: ${name}\ndescription: D.\n---\n${"b".repeat(Math.floor(random() * 40_000))}\xc3`,
          "latin1",
        ),
      ),
    (tree, name) => (tree.write(`${name}/skill.md`, `---\nname: ${name}\ndescription: Lowercase.\n---\n`), [name]),
    (tree, name) => (mkdirSync(join(tree.root, name, "SKILL.md"), { recursive: true }), [name]),
    (tree, name) => (mkdirSync(join(tree.root, name, "notes"), { recursive: true }), []),
    (tree, name) => {
      tree.skill(`linked-${name}`);
      mkdirSync(join(tree.root, name));
      symlinkSync(join(tree.root, `linked-${name}`, "SKILL.md"), join(tree.root, name, "SKILL.md"));
      return [name, `linked-${name}`];
    },
  ];

  it("reads every folder as the reader does one folder at a time, pausing anywhere (property, seed 29)", async () => {
    let seed = 29;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 4; round++) {
      const tree = tempTree();
      trees.push(tree);
      const root = realpathSync(tree.root);
      const expected: string[] = [];
      for (let at = 0; at < 60; at++)
        expected.push(...kinds[Math.floor(random() * kinds.length)]!(tree, `s${String(at).padStart(2, "0")}`, random));
      const settings = resolveLocalSourceOptions({ path: root });
      const slice: TimeSlice = { due: () => random() < 0.2, pause: async () => {} };
      const { entries } = await scanLocalFolder({ settings, previous: new Map(), usePolling: false, slice });
      const one = createLocalSkillReader({
        previous: createLocalSkillCache(),
        usePolling: false,
        sourceId: settings.id,
        allowedRoots: settings.allowedRoots,
      });
      for (const [directory] of entries) one.readSkillAt(directory, directory);
      expect([...entries]).toEqual([...one.entries]);
      expect([...entries].map(([directory]) => directory.slice(root.length + 1))).toEqual(expected.sort());
    }
  });

  it("reads the right files when two cold scans take turns between every folder", async () => {
    const roots = ["a", "b"].map((prefix) => {
      const tree = tempTree();
      trees.push(tree);
      for (let at = 0; at < 40; at++) tree.skill(`${prefix}${at}`, `${prefix}${at}`, `Skill ${at} of ${prefix}.`);
      return realpathSync(tree.root);
    });
    // Due at every other check, and each folder is preceded by one: a turn per folder.
    const turns = (): TimeSlice => {
      let checks = 0;
      return { due: () => ++checks % 2 === 0, pause: () => new Promise((resolve) => setImmediate(resolve)) };
    };
    const together = await Promise.all(
      roots.map((root) =>
        scanLocalFolder({
          settings: resolveLocalSourceOptions({ path: root }),
          previous: new Map(),
          usePolling: false,
          slice: turns(),
        }),
      ),
    );
    const alone = await Promise.all(roots.map((root) => scan({ path: root })));
    expect(together.map((result) => result.skills)).toEqual(alone.map(({ result }) => result.skills));
    expect(together[1]!.skills.map((skill) => skill.description).slice(0, 2)).toEqual([
      "Skill 0 of b.",
      "Skill 1 of b.",
    ]);
  });
});

describe("scanLocalFolder on a folder of collections", () => {
  const nestedWarning = (root: string, file: string) => ({
    severity: "warning",
    code: "nested-skills",
    file: root,
    message: `No skill folder in this folder, but skills lie deeper (the first: ${file}): read nested folders with the source's recursive option (--recursive on the command line)`,
    source: `local:${root}`,
  });
  const tree = () => {
    const made = tempTree();
    trees.push(made);
    return { ...made, root: realpathSync(made.root) };
  };

  it("says where skills lie deeper when none is a child, naming the first in name order, and reads them with recursive", async () => {
    const { root, skill } = tree();
    skill("zeta/skills/late");
    skill("acme/repo/skills/pdf");
    skill("acme/repo/skills/docx");
    const { result, skills } = await scan({ path: root });
    expect(skills).toEqual([]);
    expect(result.diagnostics).toEqual([nestedWarning(root, join(root, "acme/repo/skills/docx/SKILL.md"))]);

    const recursive = await scan({ path: root, recursive: true });
    expect(recursive.skills).toEqual(["docx", "pdf", "late"]);
    expect(recursive.result.diagnostics).toEqual([]);
  });

  it("says nothing when a child is a skill folder, even a broken one, or when skills lie only past four levels, in node_modules or behind a link", async () => {
    const mixed = tree();
    mixed.skill("top");
    mixed.skill("group/deeper");
    expect((await scan({ path: mixed.root })).result.diagnostics).toEqual([]);

    const broken = tree();
    broken.write("bad/SKILL.md", "---\nname: bad\n---\n");
    broken.skill("group/inner/good");
    expect((await scan({ path: broken.root })).result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "description-missing",
    ]);

    const far = tree();
    far.skill("a/b/c/d/e");
    far.skill("node_modules/pkg/skills/x");
    far.skill(".git/hooks/skills/y");
    const outside = tree();
    outside.skill("skills/linked");
    symlinkSync(outside.root, join(far.root, "link"));
    const options = { path: far.root, allowedRoots: [realpathSync(outside.root)] };
    expect((await scan(options)).result.diagnostics).toEqual([]);
    far.skill("a/b/c/d");
    expect((await scan(options)).result.diagnostics).toEqual([
      nestedWarning(far.root, join(far.root, "a/b/c/d/SKILL.md")),
    ]);
  });
});
