import { describe, expect, it } from "vitest";
import { parseSkillDocument, splitAtBody } from "./skill-document.js";

describe("parseSkillDocument (lenient)", () => {
  it.each([
    ["---", "---\nname: a\n---\nBody"],
    ["--- with spaces and a tab after it", "---\nname: a\n---  \t\nBody"],
    ["--- ending in \\r\\n", "---\r\nname: a\r\n---\r\nBody"],
  ])("ends the frontmatter at a line of %s", (_what, text) => {
    expect(parseSkillDocument(text, "lenient")).toEqual({ frontmatter: { name: "a" }, body: "Body" });
  });

  it("does not end the frontmatter at a --- inside a line, and says when it is never closed", () => {
    expect(parseSkillDocument("---\nname: a\ndescription: x --- y\n---\n", "lenient").frontmatter).toEqual({ name: "a", description: "x --- y" });
    expect(() => parseSkillDocument("---\nname: a\n---x\n", "lenient")).toThrow("SKILL.md frontmatter not properly closed with ---");
    expect(() => parseSkillDocument("--- x\nname: a\n---\n", "lenient")).toThrow("SKILL.md must start with YAML frontmatter (---)");
  });

  it("names YAML problems by their line in the SKILL.md", () => {
    expect(() => parseSkillDocument("---\nname: a\ndescription: [b\n---\n", "lenient")).toThrow(/at line 3, column 14$/);
    expect(() => parseSkillDocument("---\r\nname: a\r\nname: b\r\n---\r\n", "lenient")).toThrow(/at line 3, column 1$/);
  });
});

describe("splitAtBody", () => {
  it("splits after the closing line, its trailing spaces and \\r included", () => {
    expect(splitAtBody("---\nname: a\n--- \r\nBody")).toEqual({ head: "---\nname: a\n--- \r", body: "\nBody" });
    expect(splitAtBody("No frontmatter")).toEqual({ head: "", body: "No frontmatter" });
  });
});
