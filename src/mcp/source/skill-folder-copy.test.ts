import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillFolderCopies, type SkillFolderCopies } from "./skill-folder-copy.js";

let copies: SkillFolderCopies[] = [];
afterEach(() => {
  for (const copy of copies) copy.remove();
  copies = [];
});

const bytes = new TextEncoder().encode("text\n");

describe("createSkillFolderCopies", () => {
  it("writes a skill's files below its own folder", () => {
    const copy = createSkillFolderCopies("test");
    copies.push(copy);
    copy.write("skill://one", [["references/guide.md", bytes]]);
    expect(readFileSync(join(copy.folderOf("skill://one"), "references/guide.md"), "utf8")).toBe("text\n");
  });

  it("refuses a path that leads out of the skill's folder, even into a sibling whose name starts with its own", () => {
    const copy = createSkillFolderCopies("test");
    copies.push(copy);
    const folder = copy.folderOf("skill://one");
    const sibling = `../${folder.slice(dirname(folder).length + 1)}-evil/x.md`;
    for (const path of ["../escape.md", sibling, "."])
      expect(() => copy.write("skill://one", [[path, bytes]])).toThrow(
        expect.objectContaining({
          code: "outside-skill",
          message: `${path} leads outside the skill's folder; refused`,
        }),
      );
    expect(existsSync(join(dirname(folder), "escape.md"))).toBe(false);
    expect(existsSync(`${folder}-evil`)).toBe(false);
  });
});
