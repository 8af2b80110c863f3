import fc from "fast-check";
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
    expect(parseSkillDocument("---\nname: a\ndescription: x --- y\n---\n", "lenient").frontmatter).toEqual({
      name: "a",
      description: "x --- y",
    });
    expect(() => parseSkillDocument("---\nname: a\n---x\n", "lenient")).toThrow(
      "SKILL.md frontmatter not properly closed with ---",
    );
    expect(() => parseSkillDocument("--- x\nname: a\n---\n", "lenient")).toThrow(
      "SKILL.md must start with YAML frontmatter (---)",
    );
  });

  it("names YAML problems by their line in the SKILL.md", () => {
    expect(() => parseSkillDocument("---\nname: a\ndescription: [b\n---\n", "lenient")).toThrow(
      /at line 3, column 14$/,
    );
    expect(() => parseSkillDocument("---\r\nname: a\r\nname: b\r\n---\r\n", "lenient")).toThrow(/at line 3, column 1$/);
  });
});

describe("splitAtBody", () => {
  it("splits after the closing line, its trailing spaces and \\r included", () => {
    expect(splitAtBody("---\nname: a\n--- \r\nBody")).toEqual({ head: "---\nname: a\n--- \r", body: "\nBody" });
    expect(splitAtBody("No frontmatter")).toEqual({ head: "", body: "No frontmatter" });
  });
});

describe("the closing line", () => {
  // The pattern the search stands in for, as it was used before: `^` and `$` at any of
  // JavaScript's line breaks, including `\r`, U+2028 and U+2029.
  const closingLine = /^---[ \t]*\r?$/gm;
  const referenceSplit = (text: string) => {
    const firstBreak = text.indexOf("\n");
    if (!text.startsWith("---") || firstBreak === -1 || text.slice(3, firstBreak).trim() !== "") return undefined;
    closingLine.lastIndex = firstBreak + 1;
    return closingLine.test(text) ? text.slice(0, closingLine.lastIndex) : undefined;
  };

  it("is found where the multiline pattern ^---[ \\t]*\\r?$ finds it (seed 26)", () => {
    const pieces = ["---", "-", " ", "\t", "\n", "\r", "\r\n", "\u2028", "\u2029", "a: b", "x"];
    const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => `---\n${parts.join("")}`);
    fc.assert(
      fc.property(texts, (text) => {
        const expected = referenceSplit(text);
        expect(splitAtBody(text).head).toBe(expected ?? "");
      }),
      { seed: 26, numRuns: 5000 },
    );
  });
});
