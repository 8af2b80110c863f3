import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { findSkillDirectories } from "./find-skill-directories.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
const originalHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = originalHome;
  for (const tree of trees) tree.cleanup();
  trees = [];
});

// A project: skills/a (real), .claude/skills/b -> ../../skills/b, links out, a loop, a dangling
// link, and a skill whose resources link out (not skills, so not followed nor reported).
function project() {
  const tree = tempTree();
  trees.push(tree);
  const root = realpathSync(tree.root);
  process.env.HOME = join(root, "home");
  const app = join(root, "app");
  tree.write("app/package.json", "{}");
  tree.skill("app/skills/a");
  tree.skill("app/skills/b");
  tree.skill("outside/c");
  mkdirSync(join(app, ".claude/skills"), { recursive: true });
  symlinkSync("../../skills/b", join(app, ".claude/skills/b"));
  symlinkSync(join(root, "outside"), join(app, ".claude/skills/out"));
  symlinkSync("gone", join(app, ".claude/skills/dangling"));
  symlinkSync("../..", join(app, ".claude/skills/up"));
  symlinkSync(join(root, "outside"), join(app, "skills/a/references"));
  writeFileSync(join(app, ".claude/skills/file-link-target.md"), "");
  symlinkSync("file-link-target.md", join(app, ".claude/skills/file-link"));
  return { root, app };
}

describe("findSkillDirectories", () => {
  it("follows symlinked folders inside the project once, and reports the links it does not follow", () => {
    const { root, app } = project();
    const skipped: string[][] = [];
    const found = findSkillDirectories(join(app, ".claude/skills"), {
      onSkipped: (path, message) => skipped.push([path, message]),
    });
    expect(found).toEqual([join(app, ".claude/skills/b"), join(app, ".claude/skills/up/skills/a")]);
    expect(skipped).toEqual([
      [
        join(app, ".claude/skills/dangling"),
        `${join(app, ".claude/skills/dangling")} is a symbolic link whose target does not exist (it points to gone)`,
      ],
      [
        join(app, ".claude/skills/out"),
        `${join(app, ".claude/skills/out")} is a symbolic link to ${join(root, "outside")}, outside the allowed folders; not followed`,
      ],
    ]);
  });

  it("follows links into the allowed roots given, and finds the whole project from its root", () => {
    const { root, app } = project();
    expect(findSkillDirectories(join(app, ".claude/skills"), { allowedRoots: [join(root, "outside")] })).toEqual([
      join(app, ".claude/skills/b"),
      join(app, ".claude/skills/out/c"),
      join(app, ".claude/skills/up/skills/a"),
    ]);
    // From the root each real folder is visited once, by the first path in name order: skills/b
    // is found through .claude/skills/b, and not again as itself.
    expect(findSkillDirectories(app)).toEqual([join(app, ".claude/skills/b"), join(app, "skills/a")]);
  });
});
