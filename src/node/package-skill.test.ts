import { chmodSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readZip } from "../../test/helpers/read-zip.js";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { usePython3 } from "../../test/helpers/test-environment.js";
import { packageSkill } from "./package-skill.js";
import { validateSkillDirectory } from "./validate-skill-directory.js";

const trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function skillFolder() {
  const tree = tempTree();
  trees.push(tree);
  tree.skill("pdf-forms", "pdf-forms", "Fills PDF forms. Use when the user asks to fill a PDF form.");
  tree.write("pdf-forms/scripts/fill.py", "print('fill')\n");
  chmodSync(join(tree.root, "pdf-forms/scripts/fill.py"), 0o700);
  tree.write("pdf-forms/references/FORMS.md", "# Forms\n");
  tree.write("pdf-forms/.hidden", "kept, as skill-creator keeps it\n");
  return { tree, folder: join(tree.root, "pdf-forms") };
}

describe("packageSkill", () => {
  it("puts every file under the skill folder's name, sorted, SKILL.md included", () => {
    const { folder } = skillFolder();
    const packed = packageSkill(folder);
    expect(packed.name).toBe("pdf-forms");
    expect(packed.entries).toEqual([
      "pdf-forms/.hidden",
      "pdf-forms/SKILL.md",
      "pdf-forms/references/FORMS.md",
      "pdf-forms/scripts/fill.py",
    ]);
  });

  it("leaves out what skill-creator leaves out: __pycache__ and node_modules anywhere, .pyc and .DS_Store files, evals/ at the root only", () => {
    const { tree, folder } = skillFolder();
    for (const path of [
      "evals/eval_queries.json",
      "scripts/__pycache__/fill.cpython-312.pyc",
      "scripts/node_modules/x/index.js",
      "scripts/old.pyc",
      ".DS_Store",
      "references/evals/kept.md",
    ]) {
      tree.write(`pdf-forms/${path}`, "x");
    }
    expect(packageSkill(folder).entries).toEqual([
      "pdf-forms/.hidden",
      "pdf-forms/SKILL.md",
      "pdf-forms/references/FORMS.md",
      "pdf-forms/references/evals/kept.md",
      "pdf-forms/scripts/fill.py",
    ]);
  });

  it("writes the same bytes for the same files, whatever their times and other mode bits", () => {
    const { folder } = skillFolder();
    const first = packageSkill(folder);
    utimesSync(join(folder, "SKILL.md"), new Date(2030, 5, 1), new Date(2030, 5, 1));
    chmodSync(join(folder, "references/FORMS.md"), 0o600);
    chmodSync(join(folder, "scripts/fill.py"), 0o750);
    const second = packageSkill(folder);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    writeFileSync(join(folder, "references/FORMS.md"), "# Forms, changed\n");
    expect(Buffer.from(packageSkill(folder).bytes).equals(Buffer.from(first.bytes))).toBe(false);
  });

  it("refuses an invalid skill with the validator's messages", () => {
    const tree = tempTree();
    trees.push(tree);
    tree.skill("wrong-name", "other-name");
    expect(() => packageSkill(join(tree.root, "wrong-name"))).toThrow(
      `${join(tree.root, "wrong-name")} is not a valid skill, so it was not packaged:\n  Directory name 'wrong-name' must match skill name 'other-name'`,
    );
  });

  it("refuses a zip inside the skill folder, which Claude.ai would refuse", () => {
    const { tree, folder } = skillFolder();
    tree.write("pdf-forms/assets/old.skill", "PK");
    expect(() => packageSkill(folder)).toThrow(
      /^assets\/old\.skill is a zip inside the skill folder, and Claude\.ai refuses/,
    );
  });

  it("packs an empty folder inside the skill as nothing: zip entries are files", () => {
    const { folder } = skillFolder();
    mkdirSync(join(folder, "assets"));
    expect(packageSkill(folder).entries).not.toContain("pdf-forms/assets/");
  });
});

describe.runIf(usePython3())("a package read by Python's zipfile", () => {
  it("unzips to a folder that validates, with fixed times, Unix modes 0644/0755 and the same bytes", () => {
    const { tree, folder } = skillFolder();
    const file = join(tree.root, "out.skill");
    writeFileSync(file, packageSkill(folder).bytes);
    const entries = readZip(file, join(tree.root, "unpacked"));
    expect(
      entries.map((entry) => [entry.name, entry.mode.toString(8), entry.dateTime.join("-"), entry.createSystem]),
    ).toEqual([
      ["pdf-forms/.hidden", "100644", "1980-1-1-0-0-0", 3],
      ["pdf-forms/SKILL.md", "100644", "1980-1-1-0-0-0", 3],
      ["pdf-forms/references/FORMS.md", "100644", "1980-1-1-0-0-0", 3],
      ["pdf-forms/scripts/fill.py", "100755", "1980-1-1-0-0-0", 3],
    ]);
    const unpacked = join(tree.root, "unpacked", "pdf-forms");
    expect(validateSkillDirectory(unpacked)).toMatchObject({ valid: true, name: "pdf-forms", errors: [] });
    expect(readFileSync(join(unpacked, "scripts/fill.py"), "utf8")).toBe("print('fill')\n");
  });
});
