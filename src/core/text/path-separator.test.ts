import { describe, expect, it } from "vitest";
import { baseName, parentFolder, pathSeparator } from "./path-separator.js";

describe("path separators", () => {
  it("a path with a slash splits on slashes only, even with a backslash in a POSIX file name", () => {
    expect(pathSeparator("/skills/we\\ird/SKILL.md")).toBe("/");
    expect(parentFolder("/skills/we\\ird/SKILL.md")).toBe("/skills/we\\ird");
    expect(baseName("/skills/we\\ird")).toBe("we\\ird");
  });

  it("a Windows path (no slash) splits on backslashes", () => {
    expect(pathSeparator("C:\\skills\\user\\web-research\\SKILL.md")).toBe("\\");
    expect(parentFolder("C:\\skills\\user\\web-research\\SKILL.md")).toBe("C:\\skills\\user\\web-research");
    expect(baseName("C:\\skills\\user\\web-research")).toBe("web-research");
  });

  it("a bare name has no folder", () => {
    expect(parentFolder("SKILL.md")).toBe("");
    expect(baseName("SKILL.md")).toBe("SKILL.md");
  });
});
