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
});
