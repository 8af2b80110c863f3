import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { createLocalSource } from "./local-source.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
const tree = () => {
  const created = tempTree();
  trees.push(created);
  return created;
};
afterEach(() => {
  for (const created of trees) created.cleanup();
  trees = [];
});

const names = async (source: ReturnType<typeof createLocalSource>) => (await source.scan()).skills.map((skill) => skill.name).sort();

describe("createLocalSource: discovery", () => {
  it("finds the skill folders of a folder, with absolute SKILL.md paths", async () => {
    const t = tree();
    t.skill("alpha");
    t.skill("beta");
    t.write("README.md", "not a skill");
    mkdirSync(join(t.root, "empty"));
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => [skill.name, skill.path])).toEqual([
      ["alpha", join(t.root, "alpha", "SKILL.md")],
      ["beta", join(t.root, "beta", "SKILL.md")],
    ]);
    expect(scan.diagnostics).toEqual([]);
  });

  it("treats a skill folder itself as a source of one skill", async () => {
    const t = tree();
    t.skill("solo");
    expect(await names(createLocalSource({ path: join(t.root, "solo"), watch: false }))).toEqual(["solo"]);
  });

  it("finds nested and hidden collections only when recursive, skipping node_modules and .git", async () => {
    const t = tree();
    t.skill("top");
    t.skill(".system/creator");
    t.skill("group/deep/er/nested");
    t.skill("node_modules/pkg/bundled");
    t.skill(".git/hooked");
    expect(await names(createLocalSource({ path: t.root, watch: false }))).toEqual(["top"]);
    expect(await names(createLocalSource({ path: t.root, recursive: true, watch: false }))).toEqual(["creator", "nested", "top"]);
    expect(await names(createLocalSource({ path: t.root, recursive: true, maxDepth: 2, watch: false }))).toEqual(["creator", "top"]);
  });

  it("does not look for skills inside a skill folder", async () => {
    const t = tree();
    t.skill("outer");
    t.skill("outer/references/inner");
    expect(await names(createLocalSource({ path: t.root, recursive: true, watch: false }))).toEqual(["outer"]);
  });

  it("stops at maxDirectories with a warning", async () => {
    const t = tree();
    for (let i = 0; i < 5; i++) t.skill(`g${i}/s${i}`);
    const scan = await createLocalSource({ path: t.root, recursive: true, maxDirectories: 2, watch: false }).scan();
    expect(scan.skills).toHaveLength(2);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "scan-limit", severity: "warning", file: t.root })]);
  });

  it("reports skipped and warned skills with their files", async () => {
    const t = tree();
    const noDescription = t.write("broken/SKILL.md", "---\nname: broken\n---\n");
    const mismatch = t.skill("folder", "other-name");
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["other-name"]);
    expect(scan.diagnostics.map((d) => [d.severity, d.file, d.message])).toEqual([
      ["error", noDescription, "Missing required field in frontmatter: description"],
      ["warning", mismatch, "Directory name 'folder' must match skill name 'other-name'"],
    ]);
  });

  it("keeps the first of two skills with the same name in one source and reports the second", async () => {
    const t = tree();
    t.skill("a", "same");
    const second = t.skill("b", "same");
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.path)).toEqual([join(t.root, "a", "SKILL.md")]);
    expect(scan.diagnostics).toContainEqual(expect.objectContaining({ code: "duplicate-name", severity: "error", file: second }));
  });

  it("accepts a lowercase skill.md with a warning", async () => {
    const t = tree();
    const file = t.write("lower/skill.md", "---\nname: lower\ndescription: d\n---\n");
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.path)).toEqual([file]);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "lowercase-file", severity: "warning" })]);
  });

  it("reads only the frontmatter of a large SKILL.md", async () => {
    const t = tree();
    t.write("big/SKILL.md", `---\nname: big\ndescription: d\n---\n${"x".repeat(5_000_000)}\n\xff`);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["big"]);
  });

  it("reports a missing source folder as info, not an exception", async () => {
    const t = tree();
    const scan = await createLocalSource({ path: join(t.root, "nope"), watch: false }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "source-missing", severity: "info" })]);
  });
});

describe("createLocalSource: confinement (decision 11)", () => {
  it("follows symlinked skill folders that stay inside the root", async () => {
    const t = tree();
    t.skill("store/real");
    symlinkSync(join(t.root, "store", "real"), join(t.root, "store", "linked"));
    const scan = await createLocalSource({ path: join(t.root, "store"), watch: false }).scan();
    expect(scan.skills.map((skill) => skill.path)).toEqual([join(t.root, "store", "linked", "SKILL.md")]);
    expect(scan.diagnostics).toContainEqual(expect.objectContaining({ code: "duplicate-name" }));
  });

  it("refuses symlinked folders and SKILL.md files that point outside the allowed roots", async () => {
    const t = tree();
    const outside = tree();
    outside.skill("secret");
    outside.write("secret-file.md", "---\nname: leak\ndescription: d\n---\n");
    mkdirSync(join(t.root, "skills", "leak"), { recursive: true });
    symlinkSync(join(outside.root, "secret"), join(t.root, "skills", "escape"));
    symlinkSync(join(outside.root, "secret-file.md"), join(t.root, "skills", "leak", "SKILL.md"));
    const scan = await createLocalSource({ path: join(t.root, "skills"), watch: false }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics.map((d) => d.code).sort()).toEqual(["symlink-escape", "symlink-escape"]);
    const allowed = await createLocalSource({ path: join(t.root, "skills"), allowedRoots: [join(t.root, "skills"), outside.root], watch: false }).scan();
    expect(allowed.skills.map((skill) => skill.name).sort()).toEqual(["leak", "secret"]);
  });

  it("survives symlink loops", async () => {
    const t = tree();
    mkdirSync(join(t.root, "a"));
    symlinkSync(join(t.root, "a"), join(t.root, "a", "loop"));
    t.skill("a/real");
    expect(await names(createLocalSource({ path: t.root, recursive: true, watch: false }))).toEqual(["real"]);
  });

  it("refuses a FIFO named SKILL.md without blocking", async () => {
    const t = tree();
    mkdirSync(join(t.root, "fifo"));
    execFileSync("mkfifo", [join(t.root, "fifo", "SKILL.md")]);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "not-a-file", severity: "error", file: join(t.root, "fifo", "SKILL.md") })]);
  });

  it("refuses a SKILL.md larger than 10 MiB without reading it", async () => {
    const t = tree();
    const file = t.write("huge/SKILL.md", "---\n");
    execFileSync("truncate", ["-s", "1G", file]);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "too-large", message: `${file} exceeds the maximum size (10485760 bytes)` })]);
  });

  it("refuses invalid UTF-8 in the frontmatter", async () => {
    const t = tree();
    mkdirSync(join(t.root, "bin"));
    writeFileSync(join(t.root, "bin", "SKILL.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]));
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "not-utf8", severity: "error" })]);
  });
});

describe("createLocalSource: re-scans", () => {
  for (const watch of [false, true]) {
    it(`returns the same scan when nothing changed, and sees additions, edits and removals (watch: ${watch})`, async () => {
      const t = tree();
      t.skill("keep");
      t.skill("edit");
      t.skill("drop");
      const source = createLocalSource({ path: t.root, watch });
      try {
        const first = await source.scan();
        expect(await source.scan()).toBe(first);
        expect(await source.scan()).toBe(first);

        t.skill("added");
        const file = t.skill("edit", "edit", "A changed description that is longer.");
        utimesSync(file, new Date(), new Date(Date.now() + 5_000));
        rmSync(join(t.root, "drop"), { recursive: true });
        const second = await source.scan();
        expect(second.version).not.toBe(first.version);
        expect(second.skills.map((skill) => [skill.name, skill.description])).toEqual([
          ["added", "Use added for tests."],
          ["edit", "A changed description that is longer."],
          ["keep", "Use keep for tests."],
        ]);
        expect(second.skills.find((skill) => skill.name === "keep")).toBe(first.skills.find((skill) => skill.name === "keep"));
        expect(await source.scan()).toBe(second);
      } finally {
        source.close?.();
      }
    });
  }
});
