import { realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { listSkillFiles, readContainedFile } from "./skill-folder-files.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

// skill/: SKILL.md, a.txt, references/b.md, references/deep/c.md, node_modules/x.js, a link to
// a.txt, a link out of the folder; skill-evil/secret.txt beside it.
function skillFolder() {
  const tree = tempTree();
  trees.push(tree);
  const base = realpathSync(tree.root);
  const skill = join(base, "skill");
  tree.skill("skill");
  tree.write("skill/a.txt", "a");
  tree.write("skill/references/b.md", "bb");
  tree.write("skill/references/deep/c.md", "ccc");
  tree.write("skill/node_modules/x.js", "x");
  tree.write("skill-evil/secret.txt", "secret");
  symlinkSync(join(skill, "a.txt"), join(skill, "link-in"));
  symlinkSync(join(base, "skill-evil", "secret.txt"), join(skill, "link-out"));
  return { base, skill };
}

const file = (skill: string, relativePath: string, size: number) => ({
  path: join(skill, relativePath),
  relativePath,
  size,
});

describe("listSkillFiles", () => {
  it("lists regular files breadth-first in name order, without SKILL.md, skipped folders or links that leave the folder", () => {
    const { skill } = skillFolder();
    expect(listSkillFiles(skill, { maxDepth: 2, maxFiles: 100 })).toEqual({
      files: [
        file(skill, "a.txt", 1),
        file(skill, "link-in", 1),
        file(skill, "references/b.md", 2),
        file(skill, "references/deep/c.md", 3),
      ],
      truncated: false,
    });
  });

  it("says truncated when a folder lies below maxDepth or there are more than maxFiles", () => {
    const { skill } = skillFolder();
    expect(listSkillFiles(skill, { maxDepth: 1, maxFiles: 100 })).toEqual({
      files: [file(skill, "a.txt", 1), file(skill, "link-in", 1), file(skill, "references/b.md", 2)],
      truncated: true,
    });
    expect(listSkillFiles(skill, { maxDepth: 2, maxFiles: 2 })).toEqual({
      files: [file(skill, "a.txt", 1), file(skill, "link-in", 1)],
      truncated: true,
    });
  });
});

describe("readContainedFile", () => {
  it("reads a file inside the folder, also through a link that stays inside, and refuses a link into a sibling folder", () => {
    const { skill } = skillFolder();
    expect(new TextDecoder().decode(readContainedFile(skill, "references/b.md", 100))).toBe("bb");
    expect(new TextDecoder().decode(readContainedFile(skill, "link-in", 100))).toBe("a");
    expect(() => readContainedFile(skill, "link-out", 100)).toThrow(
      expect.objectContaining({
        code: "outside-skill",
        message: "link-out resolves outside the skill's folder; refused",
      }),
    );
    expect(() => readContainedFile(skill, "../skill-evil/secret.txt", 100)).toThrow(
      expect.objectContaining({
        code: "outside-skill",
        message: "../skill-evil/secret.txt resolves outside the skill's folder; refused",
      }),
    );
    expect(() => readContainedFile(skill, ".", 100)).toThrow(
      expect.objectContaining({ code: "outside-skill", message: ". resolves outside the skill's folder; refused" }),
    );
    expect(() => readContainedFile(skill, "missing.txt", 100)).toThrow(
      expect.objectContaining({ code: "not-found", message: "missing.txt does not exist in the skill's folder" }),
    );
    expect(() => readContainedFile(skill, "references", 100)).toThrow(
      expect.objectContaining({ code: "not-a-file", message: "references is not a regular file" }),
    );
    expect(() => readContainedFile(skill, "references/b.md", 1)).toThrow(
      expect.objectContaining({ code: "too-large", message: "references/b.md is larger than 1 bytes" }),
    );
  });
});
