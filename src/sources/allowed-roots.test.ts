import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import type { SkillMetadata } from "../core/skill-file/skill-metadata.js";
import {
  allowedLinkTarget,
  allowedSkillFolder,
  isInsideAllowedRoots,
  readSkillFileWithinRoots,
  readSkillHeadWithinRoots,
} from "./allowed-roots.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

// A real temp folder with `skills/` (the allowed root) beside `skills-evil/` (a sibling whose
// name starts with the root's).
function folders() {
  const tree = tempTree();
  trees.push(tree);
  const base = realpathSync(tree.root);
  const skills = join(base, "skills");
  const evil = join(base, "skills-evil");
  const text = "---\nname: one\ndescription: One.\n---\n\n# One\n";
  tree.write("skills/one/SKILL.md", text);
  tree.write("skills-evil/bad/SKILL.md", text);
  return { base, skills, evil, text, bytes: new TextEncoder().encode(text) };
}

const skill = (path: string) => ({ path }) as SkillMetadata;

describe("isInsideAllowedRoots", () => {
  it.each([
    ["/a/skills", true],
    ["/a/skills/one", true],
    ["/a/skills/one/SKILL.md", true],
    ["/a/skills/..hidden", true],
    ["/a/skills-evil", false],
    ["/a/skills-evil/one", false],
    ["/a/skillsx", false],
    ["/a/skill", false],
    ["/a", false],
    ["/", false],
    ["/b/skills", false],
    ["/b/other/x", true],
    ["/b/other-x", false],
  ])("%j with roots /a/skills and /b/other: %j", (path, inside) => {
    expect(isInsideAllowedRoots(path, ["/a/skills", "/b/other"])).toBe(inside);
  });

  it("allows nothing without roots", () => {
    expect(isInsideAllowedRoots("/a/skills", [])).toBe(false);
  });

  it("the file system's root as a root allows every path", () => {
    expect(["/", "/etc/passwd", "/home/me/skills/x"].map((path) => isInsideAllowedRoots(path, ["/"]))).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe("allowedLinkTarget", () => {
  it("returns the real target of a link inside the roots and refuses one into a sibling folder", () => {
    const { base, skills, evil } = folders();
    symlinkSync(join(skills, "one"), join(base, "inside"));
    symlinkSync(join(evil, "bad"), join(skills, "escape"));
    expect(allowedLinkTarget(join(base, "inside"), [skills])).toBe(join(skills, "one"));
    expect(() => allowedLinkTarget(join(skills, "escape"), [skills])).toThrow(
      expect.objectContaining({
        code: "symlink-escape",
        message: `${join(skills, "escape")} is a symbolic link to ${join(evil, "bad")}, outside the allowed folders`,
      }),
    );
  });
});

describe("allowedLinkTarget of a link that cannot be followed", () => {
  it("throws the error of linkTarget (dangling), not an escape", () => {
    const { base } = folders();
    symlinkSync("gone/SKILL.md", join(base, "dangling"));
    expect(() => allowedLinkTarget(join(base, "dangling"), [base])).toThrow(
      expect.objectContaining({ code: "symlink-dangling" }),
    );
  });
});

describe("allowedSkillFolder", () => {
  it("returns the real folder of a skill inside the roots, and refuses one swapped for a link that leads out", () => {
    const { base, skills, evil } = folders();
    expect(allowedSkillFolder(skill(join(skills, "one", "SKILL.md")), [skills])).toBe(join(skills, "one"));
    symlinkSync(join(skills, "one"), join(base, "via-link"));
    expect(allowedSkillFolder(skill(join(base, "via-link", "SKILL.md")), [skills])).toBe(join(skills, "one"));
    symlinkSync(join(evil, "bad"), join(skills, "swapped"));
    expect(() => allowedSkillFolder(skill(join(skills, "swapped", "SKILL.md")), [skills])).toThrow(
      expect.objectContaining({
        code: "outside-skill",
        message: `the skill's folder ${join(skills, "swapped")} now resolves to ${join(evil, "bad")}, outside the allowed folders; refused`,
      }),
    );
  });
});

describe("reading through symlinks", () => {
  it("reads a regular SKILL.md and one linked inside the roots; a missing one is undefined for the head", () => {
    const { skills, text, bytes } = folders();
    mkdirSync(join(skills, "linked"));
    symlinkSync(join(skills, "one", "SKILL.md"), join(skills, "linked", "SKILL.md"));
    expect(readSkillHeadWithinRoots(join(skills, "one", "SKILL.md"), false, [skills])).toEqual({
      text: text.slice(0, text.indexOf("\n\n") + 1),
    });
    expect(readSkillHeadWithinRoots(join(skills, "linked", "SKILL.md"), false, [skills])).toEqual({
      text: text.slice(0, text.indexOf("\n\n") + 1),
      target: join(skills, "one", "SKILL.md"),
    });
    expect(readSkillHeadWithinRoots(join(skills, "missing", "SKILL.md"), false, [skills])).toBeUndefined();
    expect(readSkillFileWithinRoots(join(skills, "one", "SKILL.md"), [skills])).toEqual(bytes);
    expect(readSkillFileWithinRoots(join(skills, "linked", "SKILL.md"), [skills])).toEqual(bytes);
  });

  it("refuses a SKILL.md linked into a sibling folder that shares the root's prefix", () => {
    const { skills, evil } = folders();
    mkdirSync(join(skills, "escape"));
    const file = join(skills, "escape", "SKILL.md");
    symlinkSync(join(evil, "bad", "SKILL.md"), file);
    const refusal = expect.objectContaining({
      code: "symlink-escape",
      message: `${file} is a symbolic link to ${join(evil, "bad", "SKILL.md")}, outside the allowed folders`,
    });
    expect(() => readSkillHeadWithinRoots(file, true, [skills])).toThrow(refusal);
    expect(() => readSkillFileWithinRoots(file, [skills])).toThrow(refusal);
  });
});
