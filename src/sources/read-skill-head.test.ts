import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSkillHead, readSkillHeadsAhead, skillHeadReadAhead } from "./read-skill-head.js";

const folder = mkdtempSync(join(tmpdir(), "skillset-head-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
function headOf(content: string | Uint8Array): string | undefined {
  const file = join(folder, `SKILL-${files++}.md`);
  writeFileSync(file, content);
  return readSkillHead(file, false)?.text;
}

describe("readSkillHead", () => {
  it("returns the frontmatter up to the line break of the first line that is only ---", () => {
    expect(headOf("---\nname: a\n---\n# Body\n---\nmore")).toBe("---\nname: a\n---\n");
    expect(headOf("---\r\nname: a\r\n--- \t\r\nbody")).toBe("---\r\nname: a\r\n--- \t\r\n");
  });

  it("does not end the frontmatter at dashes followed by text, nor at dashes without a line break", () => {
    expect(headOf("---\nname: a\n---x\ndescription: b\n---\nbody")).toBe("---\nname: a\n---x\ndescription: b\n---\n");
    expect(headOf("---\nname: a\n---")).toBe("---\nname: a\n---");
  });

  it("finds a closing line after the first 4 KB, and one that straddles them", () => {
    const long = `---\ndescription: ${"x".repeat(5000)}\n---\nbody`;
    expect(headOf(long)).toBe(long.slice(0, long.indexOf("\n---\n") + 5));
    for (const at of [4090, 4092, 4093, 4094, 4096]) {
      const text = `---\nd: ${"y".repeat(at - 7)}\n---\nbody`;
      expect(text.indexOf("\n---\n")).toBe(at);
      expect(headOf(text)).toBe(text.slice(0, at + 5));
    }
  });

  it("returns the whole file when no line closes the frontmatter", () => {
    expect(headOf("---\nname: a\nno closing")).toBe("---\nname: a\nno closing");
  });

  it("decodes only the frontmatter but refuses a file that is not UTF-8 anywhere", () => {
    const bytes = Buffer.concat([Buffer.from("---\nname: a\n---\n"), Buffer.from([0xff, 0xfe])]);
    expect(() => headOf(bytes)).toThrow(/is not valid UTF-8$/);
  });

  it("judges each file by its own bytes, not by what a longer file read before left in the buffer", () => {
    // A longer file first: its closing line and a valid two-byte character lie past the next file's end.
    const longer = `---\nname: a\n${"x".repeat(40)}\n---\nbody é`;
    expect(headOf(longer)).toBe(`---\nname: a\n${"x".repeat(40)}\n---\n`);
    // No closing line of its own: the whole file, not up to the stale `---`.
    expect(headOf("---\nname: b\n")).toBe("---\nname: b\n");
    // Ends with the first byte of the character whose second byte the longer file left behind.
    const accent = Buffer.byteLength(longer) - 2;
    const truncated = Buffer.concat([
      Buffer.from(`---\nname: c\n---\n${"y".repeat(accent - 16)}`),
      Buffer.from([0xc3]),
    ]);
    expect(truncated.length).toBe(accent + 1);
    expect(() => headOf(truncated)).toThrow(/is not valid UTF-8$/);
  });

  it("reads files the size of a view of the read buffer, just under the buffer, and beyond it, with and without a closing line", () => {
    for (const size of [1024, 2048, 4096, 65_535, 65_536, 100_000]) {
      const open = `---\nname: a\n${"z".repeat(size - 16)}\n---`;
      expect(Buffer.byteLength(open)).toBe(size);
      expect(headOf(open)).toBe(open);
      const closed = `---\nname: a\n${"z".repeat(size - 17)}\n---\n`;
      expect(headOf(closed)).toBe(closed);
    }
  });
});

// A skill folder for each entry: its SKILL.md's content, or what stands in its place.
type Folder = string | Uint8Array | { missing: true } | { link: string } | { fifo: true } | { directory: true };

let runs = 0;
function folders(contents: readonly Folder[]): string[] {
  const run = join(folder, `run-${runs++}`);
  return contents.map((content, at) => {
    const directory = join(run, String(at).padStart(3, "0"));
    mkdirSync(directory, { recursive: true });
    const file = join(directory, "SKILL.md");
    if (typeof content === "string" || content instanceof Uint8Array) writeFileSync(file, content);
    else if ("link" in content) symlinkSync(content.link, file);
    else if ("fifo" in content) execFileSync("mkfifo", [file]);
    else if ("directory" in content) mkdirSync(file);
    return directory;
  });
}

// What a walk gets, folder by folder, offering each before reading it.
function answers(directories: readonly string[]) {
  return directories.map((directory, at) => {
    readSkillHeadsAhead(directories, at);
    return skillHeadReadAhead(directory);
  });
}

describe("readSkillHeadsAhead", () => {
  it("answers for each folder as readSkillHead does, with the file it opened, across runs, each slot judged by its own bytes", () => {
    const longer = `---\nname: a\n${"x".repeat(40)}\n---\nbody é`;
    const contents = [
      "---\nname: a\n---\n# Body\n---\nmore",
      "---\r\nname: a\r\n--- \t\r\nbody",
      `---\ndescription: ${"x".repeat(5000)}\n---\nbody`,
      `---\nname: a\n${"z".repeat(16_383 - 17)}\n---\n`,
      longer,
      ...Array.from({ length: 15 }, (_, at) => `---\nname: s${at}\n---\n`),
      // The same slot as `longer` in the next run: a shorter file whose only `---` is the stale one's.
      "---\nname: b\n",
    ];
    const directories = folders(contents);
    const expected = directories.map((directory, at) =>
      at === 20
        ? undefined
        : { text: readSkillHead(`${directory}/SKILL.md`, false)!.text, file: `${directory}/SKILL.md` },
    );
    expect(answers(directories)).toEqual(expected);
    expect(expected[4]!.text).toBe(`---\nname: a\n${"x".repeat(40)}\n---\n`);
  });

  it("says which folders have no SKILL.md, and leaves every file it cannot judge to readSkillHead", () => {
    const valid = "---\nname: a\n---\n";
    const [target] = folders([valid]);
    const directories = folders([
      { missing: true },
      "---\nname: a\nno closing line",
      "",
      `---\nname: a\n${"z".repeat(16_384 - 17)}\n---\n`,
      `---\nname: a\n---\n${"w".repeat(20_000)}`,
      Buffer.concat([Buffer.from(valid), Buffer.from([0xff, 0xfe])]),
      { link: join(target!, "SKILL.md") },
      { fifo: true },
      { directory: true },
      valid,
    ]);
    expect(answers(directories)).toEqual([
      "absent",
      ...Array.from({ length: 8 }, () => undefined),
      { text: valid, file: `${directories[9]}/SKILL.md` },
    ]);
  });

  it("answers once, only for the folder last offered, and only from a run read for that folder's list", () => {
    const first = folders(["---\nname: a0\n---\n", "---\nname: a1\n---\n"]);
    const other = folders(["---\nname: b0\n---\n", "---\nname: b1\n---\n"]);
    readSkillHeadsAhead(first, 0);
    expect(skillHeadReadAhead(first[1]!)).toBeUndefined();
    readSkillHeadsAhead(first, 0);
    expect(skillHeadReadAhead(first[0]!)).toEqual({ text: "---\nname: a0\n---\n", file: `${first[0]}/SKILL.md` });
    expect(skillHeadReadAhead(first[0]!)).toBeUndefined();
    // Another scan's run replaces this one between two of its folders: the next is read again.
    readSkillHeadsAhead(other, 0);
    expect(skillHeadReadAhead(first[1]!)).toBeUndefined();
    readSkillHeadsAhead(first, 1);
    expect(skillHeadReadAhead(first[1]!)).toEqual({ text: "---\nname: a1\n---\n", file: `${first[1]}/SKILL.md` });
  });
});
