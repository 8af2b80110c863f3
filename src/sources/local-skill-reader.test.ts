import { appendFileSync, mkdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { inspectSkill } from "../core/skill-file/inspect-skill.js";
import { statStamp, type LocalSkillCache } from "./local-skill-cache.js";
import { createLocalSkillReader, mayHoldSkillFile } from "./local-skill-reader.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const tree of trees) tree.cleanup();
  trees = [];
});

function folder() {
  const tree = tempTree();
  trees.push(tree);
  const root = realpathSync(tree.root);
  const directory = join(root, "one");
  const file = tree.skill("one");
  return { tree, root, directory, file, head: "---\nname: one\ndescription: Use one for tests.\n---\n" };
}

const reader = (root: string, previous: LocalSkillCache = new Map(), usePolling = false) =>
  createLocalSkillReader({ previous, usePolling, sourceId: "test", allowedRoots: [root] });

describe("createLocalSkillReader", () => {
  it("reads a skill folder without its stamp on a cold scan, and says false for a folder without SKILL.md", () => {
    const { tree, root, directory, file, head } = folder();
    tree.write("none/README.md", "no skill");
    const cold = reader(root);
    expect(cold.readSkillAt(directory, directory)).toBe(true);
    expect(cold.readSkillAt(join(root, "none"), join(root, "none"))).toBe(false);
    expect([...cold.entries]).toEqual([
      [
        directory,
        { stamp: "", file, text: head, ...inspectSkill({ text: head, file, directoryName: "one", source: "test" }) },
      ],
    ]);
  });

  it("gives every skill without a diagnostic one shared, frozen empty list, and a skill with one its own", () => {
    const { tree, root, directory } = folder();
    tree.skill("two");
    tree.skill("three", "other-name");
    const cold = reader(root);
    for (const name of ["one", "two", "three"]) cold.readSkillAt(join(root, name), join(root, name));
    const [one, two, three] = cold.entries.entries;
    expect(cold.entries.directories[0]).toBe(directory);
    expect(one!.diagnostics).toEqual([]);
    expect(two!.diagnostics).toBe(one!.diagnostics);
    expect(Object.isFrozen(one!.diagnostics)).toBe(true);
    expect(three!.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["spec"]);
  });

  it("on a polling scan, reuses the entry object when the stamp is the same, and records the stamp when it was not known", () => {
    const { root, directory, file } = folder();
    const cold = reader(root);
    cold.readSkillAt(directory, directory);
    const entry = cold.entries.get(directory)!;
    const first = reader(root, cold.entries, true);
    expect(first.readSkillAt(directory, directory)).toBe(true);
    expect(first.entries.get(directory)).toBe(entry);
    expect(entry.stamp).toBe(statStamp(file));
    const second = reader(root, first.entries, true);
    second.readSkillAt(directory, directory);
    expect(second.entries.get(directory)).toBe(entry);
  });

  it("keeps the entry object when only the body changed, and makes a new one when the frontmatter changed", () => {
    const { tree, root, directory, file } = folder();
    const cold = reader(root, new Map(), true);
    cold.readSkillAt(directory, directory);
    const entry = cold.entries.get(directory)!;
    appendFileSync(file, "More instructions.\n");
    utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    const afterBody = reader(root, cold.entries, true);
    afterBody.readSkillAt(directory, directory);
    expect(afterBody.entries.get(directory)).toBe(entry);
    expect(entry.stamp).toBe(statStamp(file));
    tree.skill("one", "one", "Changed.");
    const afterHead = reader(root, afterBody.entries, true);
    afterHead.readSkillAt(directory, directory);
    expect(afterHead.entries.get(directory)).not.toBe(entry);
    expect(afterHead.entries.get(directory)!.skill?.description).toBe("Changed.");
  });

  it("keeps a cold entry without reading its file again when the file's inode has not changed since before the cold scan", () => {
    const { tree, root, directory, file } = folder();
    const cold = reader(root);
    cold.readSkillAt(directory, directory);
    const entry = cold.entries.get(directory)!;
    // The file is changed now: for a cold scan that began 10 s from now, that is before it, so
    // the entry it kept stands (which shows the file was not read again), with the file's stamp.
    tree.skill("one", "one", "Changed.");
    const ahead = Object.assign(new Map(cold.entries), { startedAt: Date.now() + 10_000 });
    const polled = reader(root, ahead, true);
    expect(polled.readSkillAt(directory, directory)).toBe(true);
    expect([polled.entries.get(directory), polled.reused]).toEqual([entry, 1]);
    expect(entry.stamp).toBe(statStamp(file));
    // For the cold scan as it was (begun before the change), the file is read again.
    entry.stamp = "";
    const again = reader(root, cold.entries, true);
    again.readSkillAt(directory, directory);
    expect([again.entries.get(directory)!.skill?.description, again.reused]).toEqual(["Changed.", 0]);
  });

  it("reads a cold entry's file again when it became a link, or its folder leads elsewhere, however old", () => {
    const { tree, root, directory, file } = folder();
    tree.skill("elsewhere/one", "one", "Elsewhere.");
    const elsewhere = join(root, "elsewhere", "one");
    const coldEntries = () => {
      const cold = reader(root);
      cold.readSkillAt(directory, directory);
      return Object.assign(new Map(cold.entries), { startedAt: Date.now() + 10_000 });
    };
    // SKILL.md itself is now a link.
    let previous = coldEntries();
    rmSync(file);
    symlinkSync(join(elsewhere, "SKILL.md"), file);
    const linked = reader(root, previous, true);
    linked.readSkillAt(directory, directory);
    expect([linked.entries.get(directory)!.skill?.description, linked.reused]).toEqual(["Elsewhere.", 0]);
    // The folder is now a link to another folder.
    rmSync(file);
    tree.skill("one");
    previous = coldEntries();
    rmSync(directory, { recursive: true });
    symlinkSync(elsewhere, directory);
    const movedFolder = reader(root, previous, true);
    movedFolder.readSkillAt(directory, elsewhere);
    expect([movedFolder.entries.get(directory)!.skill?.description, movedFolder.reused]).toEqual(["Elsewhere.", 0]);
  });

  it("says false when a polled SKILL.md is gone", () => {
    const { root, directory, file } = folder();
    const cold = reader(root);
    cold.readSkillAt(directory, directory);
    rmSync(file);
    const polling = reader(root, cold.entries, true);
    expect(polling.readSkillAt(directory, directory)).toBe(false);
    expect(polling.entries.size).toBe(0);
  });

  it("accepts skill.md with a warning first", () => {
    const { tree, root } = folder();
    const file = tree.write("lower/skill.md", "---\nname: lower\ndescription: Lower.\n---\n");
    const cold = reader(root);
    expect(cold.readSkillAt(join(root, "lower"), join(root, "lower"))).toBe(true);
    expect(cold.entries.get(join(root, "lower"))!.diagnostics).toEqual([
      {
        severity: "warning",
        code: "lowercase-file",
        file,
        message: "Name the file SKILL.md; skill.md is accepted but not standard",
        source: "test",
      },
    ]);
  });

  it("turns a SKILL.md that cannot be used into an entry with an error naming it, stamped", () => {
    const { root, directory, file } = folder();
    writeFileSync(file, Buffer.concat([Buffer.from("---\nname: one\ndescription: One.\n---\n"), Buffer.from([0xff])]));
    const cold = reader(root);
    expect(cold.readSkillAt(directory, directory)).toBe(true);
    expect(cold.entries.get(directory)).toEqual({
      stamp: statStamp(file),
      file,
      text: "",
      diagnostics: [
        { severity: "error", code: "not-utf8", file, message: `${file} is not valid UTF-8`, source: "test" },
      ],
    });
  });
});

describe("mayHoldSkillFile", () => {
  it("says true for a SKILL.md, a skill.md or a dangling link named so, and false for a folder with neither", () => {
    const { tree, root, directory } = folder();
    tree.write("lower/skill.md", "---\nname: lower\n---\n");
    tree.write("none/README.md", "no skill");
    mkdirSync(join(root, "dangling"));
    symlinkSync(join(root, "gone.md"), join(root, "dangling", "SKILL.md"));
    expect(
      [directory, join(root, "lower"), join(root, "dangling"), join(root, "none"), join(root, "missing")].map(
        mayHoldSkillFile,
      ),
    ).toEqual([true, true, true, false, false]);
  });
});
