import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeSkillFolder } from "./well-known-cache.js";

let bases: string[] = [];
afterEach(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
  bases = [];
});

const bytes = new TextEncoder().encode("text\n");

describe("writeSkillFolder", () => {
  it("refuses a path that leads out of the skill's folder, and leaves nothing behind", async () => {
    const base = mkdtempSync(join(tmpdir(), "skillset-cache-"));
    bases.push(base);
    const folder = join(base, "site", "digest");
    for (const path of ["../escape.md", "../../escape.md", "."]) {
      await expect(writeSkillFolder(folder, new Map([[path, bytes]]))).rejects.toThrow(
        `${path} leads outside the skill folder`,
      );
    }
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(join(base, "site"))).toEqual([]);
    expect(readdirSync(base)).toEqual(["site"]);
  });
});
