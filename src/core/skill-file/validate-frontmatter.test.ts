import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateFrontmatter } from "./validate-frontmatter.js";

describe("validateFrontmatter: the name", () => {
  it("passes a usual name (lowercase words joined by single hyphens) unless the folder differs after NFKC (seed 26)", () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join("-"));
    // The folder: the name itself, its fullwidth form (NFKC makes it the name), or another name.
    const folder = fc
      .tuple(name, fc.constantFrom("same", "fullwidth", "other"))
      .map(([other, kind]) => ({ other, kind }));
    fc.assert(
      fc.property(name, folder, (skillName, { other, kind }) => {
        const directoryName =
          kind === "same"
            ? skillName
            : kind === "fullwidth"
              ? [...skillName].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("")
              : other;
        // "-" + 0xfee0 is U+FF0D, which NFKC maps back to "-".
        const expected =
          directoryName.normalize("NFKC") === skillName
            ? []
            : [`Directory name '${directoryName}' must match skill name '${skillName}'`];
        expect(validateFrontmatter({ name: skillName, description: "x" }, { directoryName })).toEqual(expected);
      }),
      { seed: 26, numRuns: 2000 },
    );
  });

  it.each([
    ["a name of 65 characters", "a".repeat(65), `Skill name '${"a".repeat(65)}' exceeds 64 character limit (65 chars)`],
    ["a name padded with spaces, checked trimmed", "  my-skill ", undefined],
    ["a fullwidth name, checked after NFKC", "ｍｙ-ｓｋｉｌｌ", undefined],
    ["a trailing hyphen", "my-skill-", "Skill name cannot start or end with a hyphen"],
    ["two hyphens", "my--skill", "Skill name cannot contain consecutive hyphens"],
    ["an uppercase letter", "My-skill", "Skill name 'My-skill' must be lowercase"],
  ])("checks the names that are not usual as the reference does: %s", (_what, skillName, message) => {
    expect(validateFrontmatter({ name: skillName, description: "x" })).toEqual(message === undefined ? [] : [message]);
  });
});
