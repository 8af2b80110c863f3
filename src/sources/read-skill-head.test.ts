import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSkillHead } from "./read-skill-head.js";

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
