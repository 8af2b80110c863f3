// Decision 11: symlinks are followed only while they stay inside the allowed folders (discovery)
// or inside the skill's folder (resources). File and folder links, relative and absolute
// targets, chains and loops, at discovery, listing, reading and in a real agent loop.
import { renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLocalSource } from "../../src/node.js";
import { listSkillFiles } from "../../src/sources/skill-folder-files.js";
import { readContainedFile } from "../../src/sources/local-source.js";
import { load } from "../langchain/helpers.js";
import { Sandbox, link, put, readCall, runSkillsAgent, skillMd, timed } from "./helpers.js";

const sandbox = new Sandbox();
const originalHome = process.env.HOME;
afterEach(() => {
  sandbox.cleanupAll();
  process.env.HOME = originalHome;
});

const SECRET = "SYMLINK-SECRET-0c41e2";
const OUTSIDE_DESCRIPTION = "Outside-description-93ad";
const OUTSIDE_BODY = "OUTSIDE-BODY-6d2f";

/** A source root full of links that point out, plus one legitimate skill. */
function discoveryWorld() {
  const base = sandbox.folder();
  const root = `${base}/skills`;
  put(base, "secret.txt", `${SECRET}\n`);
  put(base, "outside-skill/SKILL.md", skillMd("outside-skill", OUTSIDE_DESCRIPTION, "", OUTSIDE_BODY));
  put(root, "good/SKILL.md", skillMd("good"));
  link(root, "linked-abs", `${base}/outside-skill`);
  link(root, "linked-rel", "../outside-skill");
  link(root, "chain-a", "chain-b");
  link(root, "chain-b", "../outside-skill");
  link(root, "loop-a", "loop-b");
  link(root, "loop-b", "loop-a");
  link(root, "skl-abs/SKILL.md", `${base}/outside-skill/SKILL.md`);
  link(root, "skl-rel/SKILL.md", "../../outside-skill/SKILL.md");
  link(root, "skl-chain/SKILL.md", "next.md");
  link(root, "skl-chain/next.md", "../../outside-skill/SKILL.md");
  link(root, "skl-passwd/SKILL.md", "/etc/passwd");
  link(root, "skl-loop/SKILL.md", "SKILL.md");
  link(root, "skl-dangling/SKILL.md", "does-not-exist.md");
  link(root, "up", "..");
  link(root, "self", ".");
  return { base, root };
}

describe("discovery (createLocalSource) does not follow links out of the source", () => {
  it("skips linked folders and linked SKILL.md files that point outside, naming each, in bounded time", async () => {
    const { base, root } = discoveryWorld();
    const source = createLocalSource({ path: root, watch: false });
    const { value: scan, ms } = await timed(() => source.scan());
    source.close?.();
    expect(ms).toBeLessThan(3000);
    expect(scan.skills.map((skill) => skill.name)).toEqual(["good"]);
    const text = JSON.stringify(scan);
    expect(text).not.toContain(OUTSIDE_DESCRIPTION);
    expect(text).not.toContain(OUTSIDE_BODY);
    expect(text).not.toContain("root:x:0:0");
    const named = (file: string) => scan.diagnostics.filter((diagnostic) => diagnostic.file === `${root}/${file}`);
    for (const file of ["linked-abs", "linked-rel", "chain-a", "chain-b"]) {
      expect(
        named(file).map((diagnostic) => diagnostic.code),
        file,
      ).toContain("symlink-escape");
    }
    for (const file of ["skl-abs/SKILL.md", "skl-rel/SKILL.md", "skl-chain/SKILL.md", "skl-passwd/SKILL.md"]) {
      expect(
        named(file).map((diagnostic) => diagnostic.code),
        file,
      ).toContain("symlink-escape");
      expect(named(file)[0]!.message).toContain(file);
    }
    // A self-referencing SKILL.md is reported, not followed forever; so are folder loops, and a
    // dangling link says what it is (not "Missing required file").
    expect(named("skl-loop/SKILL.md").map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      ["symlink-loop", `${root}/skl-loop/SKILL.md is a symbolic link that leads back to itself (a loop)`],
    ]);
    for (const file of ["loop-a", "loop-b"])
      expect(
        named(file).map((diagnostic) => diagnostic.code),
        file,
      ).toEqual(["symlink-loop"]);
    expect(named("skl-dangling/SKILL.md").map((diagnostic) => [diagnostic.severity, diagnostic.message])).toEqual([
      [
        "error",
        `${root}/skl-dangling/SKILL.md is a symbolic link whose target does not exist (it points to does-not-exist.md)`,
      ],
    ]);
    expect(`${base}`.length).toBeGreaterThan(0);
  });

  it("recursive discovery terminates on link loops (`up -> ..`, `self -> .`, a <-> b) and still refuses escapes", async () => {
    const { root } = discoveryWorld();
    put(root, "nested/deeper/inner/SKILL.md", skillMd("inner"));
    link(root, "nested/deeper/back", "../..");
    link(root, "nested/out", "../../outside-skill");
    const source = createLocalSource({ path: root, recursive: true, maxDepth: 10, watch: false });
    const { value: scan, ms } = await timed(() => source.scan());
    source.close?.();
    expect(ms).toBeLessThan(5000);
    expect(scan.skills.map((skill) => skill.name).sort()).toEqual(["good", "inner"]);
    expect(JSON.stringify(scan)).not.toContain(OUTSIDE_DESCRIPTION);
  });

  it("control: with the outside folder in allowedRoots the linked skill does load (the links above are real)", async () => {
    const { base, root } = discoveryWorld();
    const source = createLocalSource({ path: root, allowedRoots: [root, `${base}/outside-skill`], watch: false });
    const scan = await source.scan();
    source.close?.();
    expect(scan.skills.some((skill) => skill.description === OUTSIDE_DESCRIPTION)).toBe(true);
  });

  it("readSkill refuses a SKILL.md that became a link to outside after discovery", async () => {
    const base = sandbox.folder();
    const root = `${base}/skills`;
    put(base, "outside.md", skillMd("good", "swapped", "", OUTSIDE_BODY));
    const file = put(root, "good/SKILL.md", skillMd("good"));
    const source = createLocalSource({ path: root, watch: false });
    const scan = await source.scan();
    unlinkSync(file);
    symlinkSync(`${base}/outside.md`, file);
    await expect(source.readSkill(scan.skills[0]!)).rejects.toThrow(/outside the allowed folders/);
    source.close?.();
  });
});

/** The skill `good` with resource links of every kind. */
function resourceWorld() {
  const base = sandbox.folder();
  const root = `${base}/skills`;
  const skill = `${root}/good`;
  put(base, "secret.txt", `${SECRET}\n`);
  put(base, "outside-dir/secret.txt", `${SECRET}\n`);
  put(root, "other/SKILL.md", skillMd("other", "Sibling.", "", `${SECRET} sibling`));
  put(skill, "SKILL.md", skillMd("good"));
  put(skill, "references/guide.md", "# Guide\n\nInside the skill.\n");
  put(skill, "scripts/run.sh", "#!/bin/sh\necho run\n");
  link(skill, "references/rel.txt", "../../../secret.txt");
  link(skill, "references/abs.txt", `${base}/secret.txt`);
  link(skill, "references/passwd", "/etc/passwd");
  link(skill, "references/dirlink", `${base}/outside-dir`);
  link(skill, "references/dirlink-rel", "../../../outside-dir");
  link(skill, "references/loop-a", "loop-b");
  link(skill, "references/loop-b", "loop-a");
  link(skill, "references/chain", "c1");
  link(skill, "references/c1", "c2");
  link(skill, "references/c2", "../../../secret.txt");
  link(skill, "references/sibling.md", "../../other/SKILL.md");
  link(skill, "references/inside.md", "guide.md");
  link(skill, "references/inside-dir", "../scripts");
  link(skill, "assets/self", ".");
  link(skill, "scripts/escape", "/etc");
  return { base, root, skill };
}

const ESCAPING = [
  "references/rel.txt",
  "references/abs.txt",
  "references/passwd",
  "references/dirlink/secret.txt",
  "references/dirlink-rel/secret.txt",
  "references/chain",
  "references/c1",
  "references/c2",
  "references/sibling.md",
  "scripts/escape/passwd",
  "scripts/escape/hostname",
];

describe("listSkillFiles and readContainedFile stay inside the skill's folder", () => {
  it("lists no link that points outside (files, folders, chains), skips loops, keeps links that stay inside", () => {
    const { skill } = resourceWorld();
    const { value: listing, ms } = (() => {
      const started = performance.now();
      const value = listSkillFiles(skill, { maxDepth: 4, maxFiles: 200 });
      return { value, ms: performance.now() - started };
    })();
    expect(ms).toBeLessThan(2000);
    const listed = listing.files.map((file) => file.relativePath);
    for (const path of [
      ...ESCAPING,
      "references/dirlink",
      "references/dirlink-rel",
      "references/loop-a",
      "references/loop-b",
    ]) {
      expect(listed, path).not.toContain(path);
    }
    expect(listed.some((path) => path.startsWith("references/dirlink") || path.startsWith("scripts/escape"))).toBe(
      false,
    );
    expect(listed).toContain("references/guide.md");
    expect(listed).toContain("references/inside.md");
    expect(listed).toContain("references/inside-dir/run.sh");
    for (const file of listing.files) expect(file.path.startsWith(skill + "/")).toBe(true);
  });

  it("refuses to read every escaping link, and reads the inside link", () => {
    const { skill } = resourceWorld();
    for (const path of [...ESCAPING, "references/loop-a"]) {
      let content: string | undefined;
      try {
        content = Buffer.from(readContainedFile(skill, path, 1024 * 1024)).toString();
      } catch (error) {
        expect((error as { name?: string }).name, path).toBe("SkillsetError");
        expect((error as Error).message).toContain(path);
      }
      expect(content, path).toBeUndefined();
    }
    expect(Buffer.from(readContainedFile(skill, "references/inside.md", 1024)).toString()).toContain(
      "Inside the skill.",
    );
  });
});

describe("end to end: load_skill and read_skill_resource with escaping links", () => {
  it("lists none of them as resources and refuses to read any, without showing the secret", async () => {
    const { root } = resourceWorld();
    const calls = ESCAPING.map((path, index) => readCall("good", path, `read-${index}`));
    const { outputs, seen, result } = await runSkillsAgent({
      root,
      steps: [[load("good")], calls, [readCall("good", "references/inside.md", "inside")]],
    });
    const resources = (result.skillResources.good ?? []).map((resource) => resource.relativePath);
    expect(resources).toContain("references/guide.md");
    for (const path of ESCAPING) expect(resources).not.toContain(path);
    const loadText = outputs.find((output) => output.id === "load-good")!.content;
    for (const path of ["rel.txt", "abs.txt", "passwd", "dirlink", "chain", "sibling.md", "scripts/escape"])
      expect(loadText).not.toContain(path);
    for (const [index, path] of ESCAPING.entries()) {
      const output = outputs.find((candidate) => candidate.id === `read-${index}`)!;
      expect(output.status, `${path}: ${output.content}`).toBe("error");
    }
    expect(outputs.find((output) => output.id === "inside")!.content).toContain("Inside the skill.");
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain("root:x:0:0");
  });

  it("load_skill refuses a SKILL.md swapped for a link to outside after discovery", async () => {
    const base = sandbox.folder();
    const root = `${base}/skills`;
    put(base, "outside.md", skillMd("good", "swapped", "", OUTSIDE_BODY));
    const file = put(root, "good/SKILL.md", skillMd("good"));
    const swap = tool(
      async () => {
        unlinkSync(file);
        symlinkSync(`${base}/outside.md`, file);
        return "swapped";
      },
      { name: "swap", description: "test helper", schema: z.object({}) },
    );
    const { outputs, seen } = await runSkillsAgent({
      root,
      tools: [swap],
      steps: [[{ name: "swap", args: {}, id: "swap" }], [load("good")]],
    });
    expect(outputs.find((output) => output.id === "load-good")!.status).toBe("error");
    expect(seen).not.toContain(OUTSIDE_BODY);
  });

  // Found by this suite (fixed): every read and listing checks the skill's folder against the
  // allowed roots again, so a folder swapped for a link after loading is refused.
  it("read_skill_resource refuses when the loaded skill's folder became a link to outside", async () => {
    const base = sandbox.folder();
    const root = `${base}/skills`;
    put(base, "elsewhere/secret.txt", `${SECRET}\n`);
    put(root, "good/SKILL.md", skillMd("good"));
    const swap = tool(
      async () => {
        renameSync(`${root}/good`, `${root}/.good-old`);
        symlinkSync(`${base}/elsewhere`, `${root}/good`);
        return "swapped";
      },
      { name: "swap", description: "test helper", schema: z.object({}) },
    );
    const { outputs, seen } = await runSkillsAgent({
      root,
      tools: [swap],
      steps: [[load("good")], [{ name: "swap", args: {}, id: "swap" }], [readCall("good", "secret.txt", "read")]],
    });
    expect(outputs.find((output) => output.id === "read")!.status).toBe("error");
    expect(seen).not.toContain(SECRET);
  });
});

/**
 * A project as installers leave it (package.json at its root): `other` canonical in
 * .agents/skills and linked from .claude/skills, `pkg-helper` shipped in node_modules and linked
 * from .agents/skills; an outside folder with a skill and a secret; HOME a folder of its own.
 */
function installedWorld() {
  const base = sandbox.folder();
  const project = `${base}/project`;
  const home = `${base}/home`;
  const outside = `${base}/outside`;
  put(project, "package.json", '{ "name": "project" }\n');
  put(project, ".agents/skills/other/SKILL.md", skillMd("other"));
  put(project, ".agents/skills/other/references/guide.md", "# Inside guide\n");
  link(project, ".claude/skills/other", "../../.agents/skills/other");
  put(project, "node_modules/pkgskills/skills/pkg-helper/SKILL.md", skillMd("pkg-helper"));
  link(project, ".agents/skills/pkg-helper", "../../node_modules/pkgskills/skills/pkg-helper");
  put(outside, "other/SKILL.md", skillMd("other", OUTSIDE_DESCRIPTION, "", OUTSIDE_BODY));
  put(outside, "other/references/guide.md", `${SECRET}\n`);
  put(outside, "SKILL.md", skillMd("other", OUTSIDE_DESCRIPTION, "", OUTSIDE_BODY));
  put(home, ".agents/skills/.keep", "");
  process.env.HOME = home;
  return { base, project, home, outside, claude: `${project}/.claude/skills`, agents: `${project}/.agents/skills` };
}

/** Points the link at `path` elsewhere, as an attacker with write access to the folder would. */
function retarget(path: string, target: string): void {
  unlinkSync(path);
  symlinkSync(target, path);
}

describe("installers' links: followed inside the project and the user's skills folders only", () => {
  it("follows the project's links (into .agents/skills and node_modules) and refuses the same links pointed outside", async () => {
    const { project, outside, claude, agents } = installedWorld();
    link(project, ".claude/skills/escape", `${outside}/other`);
    const inside = createLocalSource({ path: agents, watch: false });
    expect((await inside.scan()).skills.map((skill) => [skill.name, skill.realPath])).toEqual([
      ["other", undefined],
      ["pkg-helper", `${project}/node_modules/pkgskills/skills/pkg-helper/SKILL.md`],
    ]);
    const scan = await createLocalSource({ path: claude, watch: false }).scan();
    expect(scan.skills.map((skill) => [skill.path, skill.realPath])).toEqual([
      [`${claude}/other/SKILL.md`, `${agents}/other/SKILL.md`],
    ]);
    expect(scan.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.file])).toEqual([
      ["error", "symlink-escape", `${claude}/escape`],
    ]);
    expect(JSON.stringify(scan)).not.toContain(OUTSIDE_DESCRIPTION);
  });

  it("refuses a package's skill folder (or SKILL.md, or the package itself) in node_modules that links out of the project", async () => {
    const { project, outside, agents } = installedWorld();
    // The package's skill folder links out; so does another package's SKILL.md; a third package is itself a link out.
    link(project, "node_modules/evil/skills/grab", `${outside}/other`);
    link(project, ".agents/skills/grab", "../../node_modules/evil/skills/grab");
    put(project, "node_modules/sneaky/skills/file/README.md", "");
    link(project, "node_modules/sneaky/skills/file/SKILL.md", `${outside}/SKILL.md`);
    link(project, ".agents/skills/file", "../../node_modules/sneaky/skills/file");
    link(project, "node_modules/linked-pkg", outside);
    link(project, ".agents/skills/whole", "../../node_modules/linked-pkg/other");
    const source = createLocalSource({ path: agents, watch: false });
    const scan = await source.scan();
    source.close?.();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["other", "pkg-helper"]);
    // The walk's refusals (linked folders) first, then the skill files' (a linked SKILL.md).
    expect(scan.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.file])).toEqual([
      ["error", "symlink-escape", `${agents}/grab`],
      ["error", "symlink-escape", `${agents}/whole`],
      ["error", "symlink-escape", `${agents}/file/SKILL.md`],
    ]);
    const text = JSON.stringify(scan);
    expect(text).not.toContain(OUTSIDE_DESCRIPTION);
    expect(text).not.toContain(OUTSIDE_BODY);
  });

  it("refuses links into another user's skills folder, and a package.json in the home folder does not make all of it a project", async () => {
    const { base, home, claude } = installedWorld();
    put(base, "someone-else/.agents/skills/theirs/SKILL.md", skillMd("theirs", OUTSIDE_DESCRIPTION));
    link(claude, "theirs", `${base}/someone-else/.agents/skills/theirs`);
    // Home has a package.json (and .git): a folder of it that is no project allows nothing above itself.
    put(home, "package.json", "{}\n");
    put(home, ".git/HEAD", "ref: refs/heads/main\n");
    put(home, "private/SKILL.md", skillMd("private", OUTSIDE_DESCRIPTION, "", OUTSIDE_BODY));
    put(home, "loose/skills/.keep", "");
    link(home, "loose/skills/private", `${home}/private`);
    link(home, "loose/skills/mine", `${home}/.agents/skills/mine`);
    put(home, ".agents/skills/mine/SKILL.md", skillMd("mine"));
    const theirs = await createLocalSource({ path: claude, watch: false }).scan();
    expect(
      theirs.diagnostics
        .filter((diagnostic) => diagnostic.code === "symlink-escape")
        .map((diagnostic) => diagnostic.file),
    ).toEqual([`${claude}/theirs`]);
    const loose = await createLocalSource({ path: `${home}/loose/skills`, watch: false }).scan();
    expect(loose.skills.map((skill) => skill.name)).toEqual(["mine"]);
    expect(loose.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["symlink-escape", `${home}/loose/skills/private`],
    ]);
    expect(JSON.stringify([theirs, loose])).not.toContain(OUTSIDE_DESCRIPTION);
  });
});

describe("link-swap races: a link that pointed inside at discovery and points outside at read time", () => {
  it("readSkill, listFiles and readFile refuse a skill folder link retargeted outside after discovery", async () => {
    const { outside, claude } = installedWorld();
    const source = createLocalSource({ path: claude, watch: false });
    const [skill] = (await source.scan()).skills;
    expect(skill!.path).toBe(`${claude}/other/SKILL.md`);
    retarget(`${claude}/other`, `${outside}/other`);
    await expect(source.readSkill(skill!)).rejects.toThrow(
      `the skill's folder ${claude}/other now resolves to ${outside}/other, outside the allowed folders; refused`,
    );
    await expect(source.listFiles(skill!, { maxDepth: 3, maxFiles: 10 })).rejects.toThrow(
      /outside the allowed folders/,
    );
    await expect(source.readFile!(skill!, "references/guide.md", 1024)).rejects.toThrow(/outside the allowed folders/);
    source.close?.();
  });

  it("readSkill refuses a SKILL.md link retargeted outside after discovery (the folder itself unchanged)", async () => {
    const { project, outside, agents } = installedWorld();
    put(project, "canonical/linked/SKILL.md", skillMd("linked"));
    put(agents, "linked/.keep", "");
    link(agents, "linked/SKILL.md", "../../../canonical/linked/SKILL.md");
    const source = createLocalSource({ path: agents, watch: false });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "linked")!;
    expect(skill.realPath).toBe(`${project}/canonical/linked/SKILL.md`);
    retarget(`${agents}/linked/SKILL.md`, `${outside}/SKILL.md`);
    await expect(source.readSkill(skill)).rejects.toThrow(
      `${agents}/linked/SKILL.md is a symbolic link to ${outside}/SKILL.md, outside the allowed folders`,
    );
    source.close?.();
  });

  it("a package's folder swapped for a link out after discovery is refused at read time, also inside node_modules", async () => {
    const { project, outside, agents } = installedWorld();
    const source = createLocalSource({ path: agents, watch: false });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "pkg-helper")!;
    renameSync(`${project}/node_modules/pkgskills`, `${project}/node_modules/.pkgskills-old`);
    symlinkSync(outside, `${project}/node_modules/pkgskills`);
    put(outside, "skills/pkg-helper/SKILL.md", skillMd("pkg-helper", OUTSIDE_DESCRIPTION, "", OUTSIDE_BODY));
    await expect(source.readSkill(skill)).rejects.toThrow(/now resolves to .*outside the allowed folders; refused/);
    source.close?.();
  });

  it("end to end: load_skill and read_skill_resource refuse after the agent's folder link was retargeted", async () => {
    const { outside, claude } = installedWorld();
    const swap = tool(
      async () => {
        retarget(`${claude}/other`, `${outside}/other`);
        return "swapped";
      },
      { name: "swap", description: "test helper", schema: z.object({}) },
    );
    // Loaded before the swap, read after it.
    const { outputs, seen } = await runSkillsAgent({
      root: claude,
      tools: [swap],
      steps: [
        [load("other")],
        [{ name: "swap", args: {}, id: "swap" }],
        [readCall("other", "references/guide.md", "read")],
      ],
    });
    expect(outputs.find((output) => output.id === "load-other")!.status).not.toBe("error");
    expect(outputs.find((output) => output.id === "read")!.status).toBe("error");
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain(OUTSIDE_BODY);
  });

  it("end to end: load_skill refuses a skill whose folder link was retargeted after the catalog was read", async () => {
    const { outside, claude } = installedWorld();
    const swap = tool(
      async () => {
        retarget(`${claude}/other`, `${outside}/other`);
        return "swapped";
      },
      { name: "swap", description: "test helper", schema: z.object({}) },
    );
    const { outputs, seen } = await runSkillsAgent({
      root: claude,
      tools: [swap],
      steps: [[{ name: "swap", args: {}, id: "swap" }], [load("other")]],
    });
    const loaded = outputs.find((output) => output.id === "load-other")!;
    expect([loaded.status, loaded.content]).toEqual(["error", expect.stringContaining("outside the allowed folders")]);
    expect(seen).not.toContain(OUTSIDE_BODY);
  });

  it("discovery itself refuses the retargeted link on the next scan, naming it", async () => {
    const { outside, claude } = installedWorld();
    const source = createLocalSource({ path: claude, watch: false });
    expect((await source.scan()).skills.map((skill) => skill.name)).toEqual(["other"]);
    retarget(`${claude}/other`, `${outside}/other`);
    writeFileSync(`${outside}/other/touched`, "");
    const rescan = await source.scan();
    expect(rescan.skills).toEqual([]);
    expect(rescan.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.file])).toEqual([
      ["error", "symlink-escape", `${claude}/other`],
    ]);
    source.close?.();
  });
});
