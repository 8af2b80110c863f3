import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { digestSkillFolder, skillFolderStamp } from "./skill-folder-hash.js";

// Hashes the real `skills` CLI (1.7.4, Node 22) wrote into skills-lock.json for these folders,
// installed with `skills add <collection> --skill <name>`; test/skills-installer checks the same
// against the CLI itself.
const MY_SKILL = {
  "SKILL.md": "---\nname: my-skill\ndescription: d\n---\nbody\n",
  "sub/B.txt": "x\n",
  "a.txt": "y\n",
  "_Z.txt": "z\n",
};
const MY_SKILL_HASH = "dcf8f0d264ee0d4c5b1f0d56b90e70a53512850a681e58cfe93c94ce86e137b9";
const OTHER = { "SKILL.md": "---\nname: other\ndescription: d\n---\nbody\n" };
const OTHER_HASH = "ef1b15aa6f36e8546e21b33bc9a55ff6767f248bc2be219164f0a0da84ef0797";

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

function folder(files: Record<string, string>): string {
  base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-hash-")));
  const root = join(base, "skill");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe("digestSkillFolder", () => {
  it("computes the hash the skills CLI wrote, files in its localeCompare order (_Z.txt, a.txt, SKILL.md, sub/B.txt)", () => {
    const digest = digestSkillFolder(folder(MY_SKILL));
    expect(digest.hash).toBe(MY_SKILL_HASH);
    expect([...digest.files.keys()]).toEqual(["_Z.txt", "a.txt", "SKILL.md", "sub/B.txt"]);
    expect(digestSkillFolder(folder(OTHER)).hash).toBe(OTHER_HASH);
  });

  it("leaves out .git and node_modules at any depth, as the CLI does, but not other dot folders", () => {
    const root = folder({
      ...MY_SKILL,
      ".git/HEAD": "ref",
      "node_modules/x/index.js": "1",
      "sub/node_modules/y.js": "2",
    });
    expect(digestSkillFolder(root).hash).toBe(MY_SKILL_HASH);
    writeFileSync(join(root, ".hidden"), "h");
    expect(digestSkillFolder(root).hash).not.toBe(MY_SKILL_HASH);
  });

  it("skips symbolic links inside the folder, as the CLI does, and lists them as not covered", () => {
    const root = folder(MY_SKILL);
    symlinkSync("/etc/hostname", join(root, "outside.txt"));
    const digest = digestSkillFolder(root);
    expect(digest.hash).toBe(MY_SKILL_HASH);
    expect(digest.links).toEqual(["outside.txt"]);
  });

  it("hashes a linked folder's target: the path of the link does not count", () => {
    const root = folder(OTHER);
    symlinkSync(root, join(base, "link"));
    expect(digestSkillFolder(join(base, "link")).hash).toBe(OTHER_HASH);
  });

  it("changes with one byte of one file", () => {
    const root = folder(MY_SKILL);
    appendFileSync(join(root, "sub/B.txt"), "!");
    expect(digestSkillFolder(root).hash).not.toBe(MY_SKILL_HASH);
  });
});

describe("skillFolderStamp", () => {
  it("stays while nothing changes, and changes with a touched file or a link swapped in", () => {
    const root = folder(MY_SKILL);
    const first = skillFolderStamp(root)!;
    expect(skillFolderStamp(root)).toEqual(first);
    utimesSync(join(root, "a.txt"), new Date(2001, 0, 1), new Date(2001, 0, 1));
    const touched = skillFolderStamp(root)!;
    expect(touched.stamp).not.toBe(first.stamp);
    rmSync(join(root, "a.txt"));
    symlinkSync(join(root, "_Z.txt"), join(root, "a.txt"));
    expect(skillFolderStamp(root)!.stamp).not.toBe(touched.stamp);
    // The newest change is now, so a verdict taken now is not trusted on the stamp alone.
    expect(Math.abs(Date.now() - skillFolderStamp(root)!.newestChangeMs)).toBeLessThan(60_000);
  });

  it("is undefined for a folder that is not there", () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-hash-")));
    expect(skillFolderStamp(join(base, "gone"))).toBeUndefined();
  });
});
