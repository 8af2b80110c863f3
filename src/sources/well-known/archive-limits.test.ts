import { describe, expect, it } from "vitest";
import { confinedPath, createTally } from "./archive-limits.js";

describe("archive entry paths", () => {
  it("keeps relative paths, dropping '.' and empty parts", () => {
    expect(["SKILL.md", "./scripts//run.py", "a/./b/", "./"].map(confinedPath)).toEqual([
      "SKILL.md",
      "scripts/run.py",
      "a/b",
      "",
    ]);
  });

  it.each([
    ["../x", `entry "../x" leads out of the skill folder ('..')`],
    ["a/../../x", `entry "a/../../x" leads out of the skill folder ('..')`],
    ["/etc/passwd", `entry "/etc/passwd" has an absolute path`],
    ["C:/x", `entry "C:/x" has an absolute path`],
    ["a\\..\\x", `entry "a\\\\..\\\\x" has a NUL or backslash in its path`],
    ["a\0b", `entry "a\\u0000b" has a NUL or backslash in its path`],
  ])("refuses %j", (raw, message) => {
    expect(() => confinedPath(raw)).toThrow(message);
  });

  it("refuses a path twice, and a path that is both a file and a folder", () => {
    const files = new Map([["a/b", new Uint8Array()]]);
    const tally = createTally(files);
    expect(() => tally.reserve("a/b", 1)).toThrow("it holds a/b twice");
    expect(() => tally.reserve("a", 1)).toThrow("a and a/b are both a file and a folder");
    expect(() => tally.reserve("a/b/c", 1)).toThrow("a/b/c and a/b are both a file and a folder");
  });
});
