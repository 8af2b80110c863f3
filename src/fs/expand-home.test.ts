import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { expandHome } from "./expand-home.js";
import { findSkillDirectories } from "../node/find-skill-directories.js";
import { validateSkillDirectory } from "../node/validate-skill-directory.js";

// Assigning undefined to process.env would store the string "undefined".
function restoreHome(saved: string | undefined) {
  if (saved === undefined) delete process.env.HOME;
  else process.env.HOME = saved;
}

describe("expandHome", () => {
  it.each([
    ["~", "/home/me"],
    ["~/", "/home/me"],
    ["~/.agents/skills", "/home/me/.agents/skills"],
    ["./~/skills", "./~/skills"],
    ["skills/~", "skills/~"],
    ["/abs/~/x", "/abs/~/x"],
    ["", ""],
  ])("%j becomes %j", (path, expected) => {
    expect(expandHome(path, "/home/me")).toBe(expected);
  });

  it.each(["~other", "~other/skills", "~+/skills"])("refuses %j, naming it", (path) => {
    expect(() => expandHome(path, "/home/me")).toThrow(
      `Cannot use ${path}: only ~ and ~/ (your home folder) are expanded; write the folder's full path`,
    );
  });

  it("uses HOME by default", () => {
    const saved = process.env.HOME;
    process.env.HOME = "/tmp/some-home";
    try {
      expect(expandHome("~/x")).toBe("/tmp/some-home/x");
    } finally {
      restoreHome(saved);
    }
  });
});

describe("on-disk validation accepts ~/", () => {
  let cleanups: Array<() => void> = [];
  let savedHome: string | undefined;
  afterEach(() => {
    restoreHome(savedHome);
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
  });

  it("validateSkillDirectory and findSkillDirectories read ~/ from HOME, and refuse ~user", () => {
    const home = tempTree();
    cleanups.push(home.cleanup);
    savedHome = process.env.HOME;
    process.env.HOME = home.root;
    mkdirSync(join(home.root, "skills", "mine"), { recursive: true });
    writeFileSync(join(home.root, "skills", "mine", "SKILL.md"), "---\nname: mine\ndescription: Mine.\n---\n");
    expect(validateSkillDirectory("~/skills/mine")).toEqual({
      path: join(home.root, "skills", "mine"),
      valid: true,
      name: "mine",
      errors: [],
      warnings: [],
    });
    expect(findSkillDirectories("~/skills")).toEqual([join(home.root, "skills", "mine")]);
    expect(validateSkillDirectory("~nobody/skills/mine")).toEqual({
      path: "~nobody/skills/mine",
      valid: false,
      name: null,
      errors: [
        "Cannot use ~nobody/skills/mine: only ~ and ~/ (your home folder) are expanded; write the folder's full path",
      ],
      warnings: [],
    });
  });
});
