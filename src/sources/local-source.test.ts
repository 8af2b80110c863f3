import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { MAX_SKILL_FILE_BYTES } from "../core/skill-source.js";
import { notedParentFolder, parentOf } from "../core/catalog/skill-parent-folder.js";
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

const names = async (source: ReturnType<typeof createLocalSource>) =>
  (await source.scan()).skills.map((skill) => skill.name).sort();

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
    expect(await names(createLocalSource({ path: t.root, recursive: true, watch: false }))).toEqual([
      "creator",
      "nested",
      "top",
    ]);
    expect(await names(createLocalSource({ path: t.root, recursive: true, maxDepth: 2, watch: false }))).toEqual([
      "creator",
      "top",
    ]);
  });

  it("notes on each skill the folder that holds its folder, for the catalog's groups, on cold and polling scans", async () => {
    const t = tree();
    for (const path of ["team/ops/deploy", "team/ops/audit", "team/web/lint", "vendor/pdf"]) t.skill(path);
    const source = createLocalSource({ path: t.root, recursive: true, watch: false });
    const noted = async () =>
      (await source.scan()).skills.map((skill) => [skill.name, notedParentFolder(skill), parentOf(skill.path)]);
    expect(await noted()).toEqual([
      ["audit", join(t.root, "team/ops"), join(t.root, "team/ops")],
      ["deploy", join(t.root, "team/ops"), join(t.root, "team/ops")],
      ["lint", join(t.root, "team/web"), join(t.root, "team/web")],
      ["pdf", join(t.root, "vendor"), join(t.root, "vendor")],
    ]);
    // A skill read by a polling scan is noted too; the others keep theirs.
    t.skill("team/web/format");
    expect((await noted()).filter(([, folder, parent]) => folder === parent).map(([name]) => name)).toEqual([
      "audit",
      "deploy",
      "format",
      "lint",
      "pdf",
    ]);
  });

  it("walks depth-first in name order, so of two skills with one name the deeper one in an earlier folder wins", async () => {
    const t = tree();
    const deep = t.skill("a/group/same");
    const shallow = t.skill("b/same");
    const scan = await createLocalSource({ path: t.root, recursive: true, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.path)).toEqual([deep]);
    expect(scan.diagnostics.map((d) => [d.code, d.file])).toEqual([["duplicate-name", shallow]]);
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
    expect(scan.diagnostics).toEqual([
      expect.objectContaining({ code: "scan-limit", severity: "warning", file: t.root }),
    ]);
  });

  it("says when the depth limit left folders out: a skill 7 folders below is not found, and not silently", async () => {
    const t = tree();
    t.skill("1/2/3/4/5/6/7", "seven");
    t.skill("a/b/c/d/e/six", "six");
    const scan = await createLocalSource({ path: t.root, recursive: true, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["six"]);
    expect(scan.diagnostics).toEqual([
      {
        severity: "warning",
        code: "depth-limit",
        file: t.root,
        message: `Stopped scanning ${t.root} at depth 6: the folders below ${join(t.root, "1/2/3/4/5/6")} were not searched; skills there may be missing`,
        source: `local:${t.root}`,
      },
    ]);
    expect(await names(createLocalSource({ path: t.root, recursive: true, maxDepth: 7, watch: false }))).toEqual([
      "seven",
      "six",
    ]);
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
    expect(scan.diagnostics).toContainEqual(
      expect.objectContaining({ code: "duplicate-name", severity: "error", file: second }),
    );
  });

  it("accepts a lowercase skill.md with a warning", async () => {
    const t = tree();
    const file = t.write("lower/skill.md", "---\nname: lower\ndescription: d\n---\n");
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.path)).toEqual([file]);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "lowercase-file", severity: "warning" })]);
  });

  it("accepts a large SKILL.md whose frontmatter comes first", async () => {
    const t = tree();
    t.write("big/SKILL.md", `---\nname: big\ndescription: d\n---\n${"x".repeat(5_000_000)}\n\xff`);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["big"]);
    expect(scan.diagnostics).toEqual([]);
  });
});

describe("createLocalSource: source folders that cannot be scanned", () => {
  it("warns, naming the folder, when it does not exist", async () => {
    const t = tree();
    const missing = join(t.root, "nope");
    const scan = await createLocalSource({ path: missing, watch: false }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([
      {
        severity: "warning",
        code: "source-missing",
        file: missing,
        source: `local:${missing}`,
        message: `Skills folder ${missing} does not exist`,
      },
    ]);
  });

  it("warns when the path is a file", async () => {
    const t = tree();
    const file = t.write("notes.txt", "hello");
    const scan = await createLocalSource({ path: file, watch: false }).scan();
    expect(scan.diagnostics.map((d) => [d.severity, d.code, d.file, d.message])).toEqual([
      ["warning", "source-not-a-folder", file, `Skills folder ${file} is not a folder`],
    ]);
  });

  it.skipIf(process.getuid?.() === 0)("warns when the folder cannot be read", async () => {
    const t = tree();
    const locked = join(t.root, "locked");
    mkdirSync(locked, { mode: 0o000 });
    try {
      const scan = await createLocalSource({ path: locked, watch: false }).scan();
      expect(scan.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
        ["warning", "source-unreadable", `Cannot read skills folder ${locked}: EACCES`],
      ]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  for (const watch of [false, true]) {
    it(`returns the same scan while the folder stays missing, and finds its skills once it appears (watch: ${watch})`, async () => {
      const t = tree();
      const later = join(t.root, "later");
      const source = createLocalSource({ path: later, watch });
      try {
        const first = await source.scan();
        expect(await source.scan()).toBe(first);
        expect(await source.scan()).toBe(first);
        t.skill("later/arrived");
        const found = await source.scan();
        expect(found.skills.map((skill) => skill.name)).toEqual(["arrived"]);
        expect(found.diagnostics).toEqual([]);
      } finally {
        source.close?.();
      }
    });
  }
});

describe("createLocalSource: SKILL.md files that cannot be loaded are skipped at discovery", () => {
  it("skips a SKILL.md over 10 MiB even when its frontmatter is valid, naming the file", async () => {
    const t = tree();
    const file = t.skill("huge");
    truncateSync(file, MAX_SKILL_FILE_BYTES + 1);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([
      {
        severity: "error",
        code: "too-large",
        file,
        source: `local:${t.root}`,
        message: `${file} exceeds the maximum size (10485760 bytes)`,
      },
    ]);
  });

  it("accepts a SKILL.md of exactly 10 MiB", async () => {
    const t = tree();
    const file = t.skill("limit");
    truncateSync(file, MAX_SKILL_FILE_BYTES);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["limit"]);
  });

  it("skips a SKILL.md whose body is not valid UTF-8, naming the file", async () => {
    const t = tree();
    const file = t.skill("latin1");
    appendFileSync(file, Buffer.from("caf\xe9\n", "latin1"));
    const good = t.skill("fine");
    appendFileSync(good, "café ☕ 𝄞\n");
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["fine"]);
    expect(scan.diagnostics).toEqual([
      { severity: "error", code: "not-utf8", file, source: `local:${t.root}`, message: `${file} is not valid UTF-8` },
    ]);
  });

  it("notices on a re-scan that a listed skill's body became invalid UTF-8", async () => {
    const t = tree();
    const file = t.skill("edited");
    const source = createLocalSource({ path: t.root, watch: false });
    expect((await source.scan()).skills).toHaveLength(1);
    appendFileSync(file, Buffer.from([0xc3, 0x28]));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const rescan = await source.scan();
    expect(rescan.skills).toEqual([]);
    expect(rescan.diagnostics.map((d) => [d.code, d.file])).toEqual([["not-utf8", file]]);
  });
});

describe("createLocalSource: ~ is the home folder", () => {
  let savedHome: string | undefined;
  afterEach(() => {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
  });
  const useHome = (folder: string) => {
    savedHome = process.env.HOME;
    process.env.HOME = folder;
  };

  it("expands ~/ and ~ in path, naming the source by the real folder", async () => {
    const h = tree();
    useHome(h.root);
    h.skill(".agents/skills/mine");
    const skills = join(h.root, ".agents", "skills");
    const scan = await createLocalSource({ path: "~/.agents/skills", watch: false }).scan();
    expect(scan.skills.map((skill) => [skill.name, skill.path, skill.source])).toEqual([
      ["mine", join(skills, "mine", "SKILL.md"), `local:${skills}`],
    ]);
    expect(scan.diagnostics).toEqual([]);
    const whole = await createLocalSource({ path: "~", recursive: true, watch: false }).scan();
    expect(whole.skills.map((skill) => skill.name)).toEqual(["mine"]);
  });

  it("expands ~/ in allowedRoots", async () => {
    const h = tree();
    const t = tree();
    useHome(h.root);
    h.skill("shared/linked-skill");
    symlinkSync(join(h.root, "shared", "linked-skill"), join(t.root, "linked-skill"));
    const refused = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(refused.skills).toEqual([]);
    const allowed = await createLocalSource({ path: t.root, allowedRoots: [t.root, "~/shared"], watch: false }).scan();
    expect(allowed.skills.map((skill) => skill.name)).toEqual(["linked-skill"]);
  });

  it("refuses ~user/ with a warning and never reads a folder named ~user", async () => {
    const t = tree();
    t.skill("~other/skills/decoy");
    const cwd = process.cwd();
    process.chdir(t.root);
    try {
      const source = createLocalSource({ path: "~other/skills", recursive: true, watch: false });
      const scan = await source.scan();
      expect(scan.skills).toEqual([]);
      expect(scan.diagnostics).toEqual([
        {
          severity: "warning",
          code: "unsupported-path",
          file: "~other/skills",
          source: "local:~other/skills",
          message:
            "Cannot use ~other/skills: only ~ and ~/ (your home folder) are expanded; write the folder's full path",
        },
      ]);
      expect(await source.scan()).toBe(scan);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("createLocalSource: the event loop keeps running during a scan", () => {
  it("pauses between slices of work, letting other callbacks run", async () => {
    const t = tree();
    for (let i = 0; i < 40; i++) t.skill(`s${String(i).padStart(2, "0")}`);
    // Every clock reading is 4 ms later, so a 10 ms slice ends every few skills.
    let now = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => (now += 4));
    let ticks = 0;
    let scanning = true;
    const tick = () => {
      ticks++;
      if (scanning) setImmediate(tick);
    };
    try {
      setImmediate(tick);
      const scan = await createLocalSource({ path: t.root, watch: false }).scan();
      scanning = false;
      expect(scan.skills).toHaveLength(40);
    } finally {
      clock.mockRestore();
    }
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it("gives calls made while a scan runs that scan's result", async () => {
    const t = tree();
    t.skill("one");
    const source = createLocalSource({ path: t.root, watch: false });
    const [a, b] = await Promise.all([source.scan(), source.scan()]);
    expect(b).toBe(a);
    expect(a.skills.map((skill) => skill.name)).toEqual(["one"]);
  });
});

describe("createLocalSource: confinement (decision 11)", () => {
  it("follows symlinked skill folders that stay inside the root; a link to a skill of the same source is the same skill, listed once by its real folder", async () => {
    const t = tree();
    t.skill("store/real");
    symlinkSync(join(t.root, "store", "real"), join(t.root, "store", "linked"));
    const store = join(t.root, "store");
    const scan = await createLocalSource({ path: store, watch: false }).scan();
    expect(scan.skills.map((skill) => [skill.path, skill.realPath])).toEqual([
      [join(store, "real", "SKILL.md"), undefined],
    ]);
    expect(
      scan.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.file, diagnostic.message]),
    ).toEqual([
      ["warning", "spec", join(store, "linked", "SKILL.md"), "Directory name 'linked' must match skill name 'real'"],
      [
        "info",
        "same-skill",
        join(store, "linked", "SKILL.md"),
        `Skill 'real' is the same skill as ${join(store, "real", "SKILL.md")} from local:${store} (both are ${join(store, "real", "SKILL.md")}); listed once`,
      ],
    ]);
  });

  it("gives a skill reached through a link its real path, and keeps two different skills of one name apart", async () => {
    const t = tree();
    t.skill("canonical/one");
    t.skill("store/two", "one", "Another skill named one.");
    symlinkSync(join(t.root, "canonical", "one"), join(t.root, "store", "one"));
    const store = join(t.root, "store");
    const scan = await createLocalSource({
      path: store,
      allowedRoots: [join(t.root, "canonical")],
      watch: false,
    }).scan();
    expect(scan.skills.map((skill) => [skill.path, skill.realPath])).toEqual([
      [join(store, "one", "SKILL.md"), join(t.root, "canonical", "one", "SKILL.md")],
    ]);
    expect(scan.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toContainEqual([
      "duplicate-name",
      join(store, "two", "SKILL.md"),
    ]);
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
    // Errors: each link is a skipped entry, counted as skipped by `skillset list`.
    expect(scan.diagnostics.map((d) => [d.severity, d.code]).sort()).toEqual([
      ["error", "symlink-escape"],
      ["error", "symlink-escape"],
    ]);
    const allowed = await createLocalSource({
      path: join(t.root, "skills"),
      allowedRoots: [join(t.root, "skills"), outside.root],
      watch: false,
    }).scan();
    expect(allowed.skills.map((skill) => skill.name).sort()).toEqual(["leak", "secret"]);
  });

  it("follows links into its project and the user's skills folders by default, not elsewhere", async () => {
    const t = tree();
    const originalHome = process.env.HOME;
    process.env.HOME = join(t.root, "home");
    try {
      t.write("project/package.json", "{}");
      t.skill("project/.agents/skills/shared");
      t.skill("project/node_modules/pkg/skills/packaged");
      t.skill("home/.agents/skills/personal");
      t.skill("elsewhere/stranger");
      const claude = join(t.root, "project/.claude/skills");
      mkdirSync(claude, { recursive: true });
      symlinkSync("../../.agents/skills/shared", join(claude, "shared"));
      symlinkSync("../../node_modules/pkg/skills/packaged", join(claude, "packaged"));
      symlinkSync(join(t.root, "home/.agents/skills/personal"), join(claude, "personal"));
      symlinkSync(join(t.root, "elsewhere/stranger"), join(claude, "stranger"));
      const scan = await createLocalSource({ path: claude, watch: false }).scan();
      expect(scan.skills.map((skill) => [skill.name, skill.realPath])).toEqual([
        ["packaged", join(t.root, "project/node_modules/pkg/skills/packaged/SKILL.md")],
        ["personal", join(t.root, "home/.agents/skills/personal/SKILL.md")],
        ["shared", join(t.root, "project/.agents/skills/shared/SKILL.md")],
      ]);
      expect(scan.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
        ["symlink-escape", join(claude, "stranger")],
      ]);
      // allowedRoots adds to the defaults.
      const wider = await createLocalSource({
        path: claude,
        allowedRoots: [join(t.root, "elsewhere")],
        watch: false,
      }).scan();
      expect(wider.skills.map((skill) => skill.name)).toEqual(["packaged", "personal", "shared", "stranger"]);
    } finally {
      process.env.HOME = originalHome;
    }
  });

  it("reports a dangling link once per scan and keeps an unchanged scan unchanged", async () => {
    const t = tree();
    t.skill("good");
    symlinkSync("../gone", join(t.root, "dangling"));
    mkdirSync(join(t.root, "broken"));
    symlinkSync("nowhere.md", join(t.root, "broken", "SKILL.md"));
    const source = createLocalSource({ path: t.root, watch: false });
    const first = await source.scan();
    expect(first.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.message])).toEqual([
      [
        "error",
        "symlink-dangling",
        `${join(t.root, "dangling")} is a symbolic link whose target does not exist (it points to ../gone); skipped`,
      ],
      [
        "error",
        "symlink-dangling",
        `${join(t.root, "broken", "SKILL.md")} is a symbolic link whose target does not exist (it points to nowhere.md)`,
      ],
    ]);
    // Polling scans see the same, and return the same scan.
    expect(await source.scan()).toBe(first);
    expect(await source.scan()).toBe(first);
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
    expect(scan.diagnostics).toEqual([
      expect.objectContaining({ code: "not-a-file", severity: "error", file: join(t.root, "fifo", "SKILL.md") }),
    ]);
  });

  it("refuses a SKILL.md larger than 10 MiB without reading it", async () => {
    const t = tree();
    const file = t.write("huge/SKILL.md", "---\n");
    execFileSync("truncate", ["-s", "1G", file]);
    const scan = await createLocalSource({ path: t.root, watch: false }).scan();
    expect(scan.diagnostics).toEqual([
      expect.objectContaining({ code: "too-large", message: `${file} exceeds the maximum size (10485760 bytes)` }),
    ]);
  });

  it("refuses invalid UTF-8 in the frontmatter", async () => {
    const t = tree();
    mkdirSync(join(t.root, "bin"));
    writeFileSync(
      join(t.root, "bin", "SKILL.md"),
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
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
        expect(second.skills.find((skill) => skill.name === "keep")).toBe(
          first.skills.find((skill) => skill.name === "keep"),
        );
        expect(await source.scan()).toBe(second);
      } finally {
        source.close?.();
      }
    });
  }
});
