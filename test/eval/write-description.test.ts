// Writing a tuned description into SKILL.md: only the description's text changes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSkillDocument } from "../../src/core/skill-file/skill-document.js";
import { replaceDescription } from "../../src/cli/eval/write-description.js";

const FOLDED =
  "---\n# The CSV skill\nname: csv-tool\ndescription: >-\n  Profiles CSV\n  files.\nmetadata:\n  owner: data-team   # who to ask\n---\n\n# csv-tool\n";

describe("replaceDescription", () => {
  it.each([
    [
      "a plain line",
      "---\nname: a\ndescription: old words\nlicense: MIT\n---\nBody\n",
      "New words",
      "---\nname: a\ndescription: New words\nlicense: MIT\n---\nBody\n",
    ],
    [
      "a folded block, with a comment and metadata",
      FOLDED,
      "Use when: a CSV",
      FOLDED.replace("description: >-\n  Profiles CSV\n  files.\n", 'description: "Use when: a CSV"\n'),
    ],
    [
      "a block followed by a blank line",
      "---\nname: a\ndescription: |\n  old\n\nlicense: MIT\n---\n",
      "two\nlines",
      "---\nname: a\ndescription: |-\n  two\n  lines\n\nlicense: MIT\n---\n",
    ],
    [
      "a single-quoted value with a comment, in its quotes",
      "---\ndescription: 'old'  # keep me\nname: a\n---\n",
      "it's new",
      "---\ndescription: 'it''s new'  # keep me\nname: a\n---\n",
    ],
    [
      "a double-quoted value, in its quotes",
      '---\nname: a\ndescription: "Old words. Use when asked."\n---\n',
      "New words. Use when asked.",
      '---\nname: a\ndescription: "New words. Use when asked."\n---\n',
    ],
    [
      "a double-quoted value, with several lines in its quotes",
      '---\ndescription: "old"\nname: a\n---\n',
      "two\nlines",
      '---\ndescription: "two\\nlines"\nname: a\n---\n',
    ],
    [
      "a value on the next line",
      "---\ndescription:\n  old plain\n  lines\nname: a\n---\n",
      "new",
      "---\ndescription: new\nname: a\n---\n",
    ],
    [
      "CRLF line ends",
      "---\r\ndescription: |\r\n  old\r\n# note\r\nname: a\r\n---\r\nBody\r\n",
      "two\nlines",
      "---\r\ndescription: |-\r\n  two\r\n  lines\r\n# note\r\nname: a\r\n---\r\nBody\r\n",
    ],
  ])("rewrites %s and nothing else", (_, text, description, expected) => {
    expect(replaceDescription(text, description, "SKILL.md")).toBe(expected);
  });

  it.each([
    [
      "no frontmatter",
      "# Just a body\n",
      "Cannot write the description into SKILL.md: its frontmatter (between --- lines) was not found",
    ],
    [
      "no description",
      "---\nname: a\n---\n",
      "Cannot write the description into SKILL.md: its frontmatter has no description written as text",
    ],
    [
      "a description that is a list",
      "---\nname: a\ndescription: [a, b]\n---\n",
      "Cannot write the description into SKILL.md: its frontmatter has no description written as text",
    ],
  ])("refuses %s", (_, text, message) => {
    expect(() => replaceDescription(text, "new", "SKILL.md")).toThrow(message);
  });

  it("keeps every other byte, and the description reads back exactly, whatever the description", () => {
    const description = fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 200 })
      .filter((text) => text.trim() !== "");
    const multiline = fc
      .array(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 })
      .map((lines) => lines.join("\n"))
      .filter((text) => text.trim() !== "");
    // Each file, with what comes before its description and after its value.
    const files = [
      {
        text: FOLDED,
        before: "---\n# The CSV skill\nname: csv-tool\n",
        after: "\nmetadata:\n  owner: data-team   # who to ask\n---\n\n# csv-tool\n",
      },
      { text: "---\nname: a\ndescription: old\n---\nBody", before: "---\nname: a\n", after: "\n---\nBody" },
    ];
    fc.assert(
      fc.property(fc.oneof(description, multiline), fc.constantFrom(...files), (value, { text, before, after }) => {
        const result = replaceDescription(text, value, "SKILL.md");
        expect(parseSkillDocument(result, "lenient").frontmatter.description).toBe(value);
        expect(result.startsWith(`${before}description:`)).toBe(true);
        expect(result.endsWith(after)).toBe(true);
      }),
    );
  });
});
