import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findSkillDirectories } from "../../node/find-skill-directories.js";
import { SHARED_CORPUS, useSharedCorpus } from "../../../test/helpers/test-environment.js";
import { inspectSkill, inspectSkillInFull, type InspectSkillInput } from "./inspect-skill.js";
import { readPlainSkill } from "./plain-skill.js";

// The shortcut for the usual skill must give what the full reading gives, key order included,
// and take nothing the full reading has something to say about.
function expectAgreement(input: InspectSkillInput): boolean {
  const full = inspectSkillInFull(input);
  const plain = readPlainSkill(input.text, input.file, input.directoryName, input.source);
  expect(inspectSkill(input)).toStrictEqual(full);
  if (plain === undefined) return false;
  expect(full).toStrictEqual({ skill: plain, diagnostics: [] });
  expect(JSON.stringify(plain)).toBe(JSON.stringify(full.skill));
  return true;
}

const input = (text: string, directoryName?: string): InspectSkillInput => ({
  text,
  file: `/skills/${directoryName ?? "x"}/SKILL.md`,
  directoryName,
  source: "test",
});

describe("readPlainSkill", () => {
  it("reads the usual skill as the full reading does", () => {
    const text = `---\nname: pdf-tools\ndescription: Fill PDF forms. Use when: asked\nlicense: MIT\n---\n# Body\n`;
    expect(readPlainSkill(text, "/s/pdf-tools/SKILL.md", "pdf-tools", "src")).toBeUndefined(); // ": " in a plain value
    const usual =
      "---\nname: pdf-tools\ndescription: 'Fill PDF forms, it''s quick'\ncompatibility: Node 20\nlicense: MIT\n" +
      'allowed-tools: Bash(git:*) Read\nmetadata:\n  author: docs\n  version: "1.0"\n---  \n# Body\twith: a tab\r\n';
    expect(expectAgreement(input(usual, "pdf-tools"))).toBe(true);
    expect(Object.keys(readPlainSkill(usual, "f", "pdf-tools", "s")!)).toEqual([
      "name",
      "description",
      "path",
      "metadata",
      "allowedTools",
      "source",
      "compatibility",
      "license",
    ]);
  });

  it.each([
    ["a byte-order mark", "\ufeff---\nname: a\ndescription: b\n---\n"],
    ["CRLF line ends", "---\r\nname: a\r\ndescription: b\r\n---\r\n"],
    ["a tab after the closing dashes", "---\nname: a\ndescription: b\n---\t\n"],
    ["a non-ASCII character", "---\nname: a\ndescription: caf\u00e9\n---\n"],
    ["a '#'", "---\nname: a\ndescription: C# tools\n---\n"],
    ["a field of Claude Code", "---\nname: a\ndescription: b\nmodel: x\n---\n"],
    ["an unknown field", "---\nname: a\ndescription: b\nauthor: x\n---\n"],
    ["a name that is not the folder's", "---\nname: b\ndescription: b\n---\n"],
    ["an uppercase name", "---\nname: A\ndescription: b\n---\n"],
    ["metadata.entrypoint", "---\nname: a\ndescription: b\nmetadata:\n  entrypoint: x.js\n---\n"],
    ["a metadata key Object.prototype has", "---\nname: a\ndescription: b\nmetadata:\n  constructor: x\n---\n"],
    ["an empty license", "---\nname: a\ndescription: b\nlicense:\n---\n"],
    ["no closing line", "---\nname: a\ndescription: b\n"],
  ])("leaves a skill with %s to the full reading", (_what, text) => {
    expect(readPlainSkill(text, "/s/a/SKILL.md", "a", "src")).toBeUndefined();
    expect(expectAgreement(input(text, "a"))).toBe(false);
  });

  it("agrees with the full reading on generated frontmatter", () => {
    const usualName = fc.constantFrom("pdf", "pdf-tools", "a1-b2", "x".repeat(64));
    const oddName = fc.constantFrom("PDF", "pdf--x", "-pdf", "pdf tools", "x".repeat(65), "", "'pdf'", '"pdf"');
    const name = fc.oneof({ arbitrary: usualName, weight: 4 }, { arbitrary: oddName, weight: 1 });
    const safe = fc.string({ minLength: 1, maxLength: 24, unit: fc.constantFrom(..."abc XYZ019.,-_()/abc") });
    const risky = fc.string({
      maxLength: 24,
      unit: fc.constantFrom(..."aZ09 .,-_:#'\"()[]{}&*!|>%@`?\\/\t\u00e9\u00a0\u2028\r\u0007"),
    });
    const text = fc.oneof({ arbitrary: safe, weight: 8 }, { arbitrary: risky, weight: 1 });
    const scalar = fc.oneof(
      { arbitrary: text, weight: 24 },
      { arbitrary: text.map((t) => `'${t}'`), weight: 3 },
      { arbitrary: text.map((t) => `"${t}"`), weight: 3 },
      { arbitrary: fc.constantFrom("", "   ", "''", "x".repeat(1030), "y".repeat(510)), weight: 1 },
    );
    const nestedKey = fc.oneof(
      { arbitrary: fc.constantFrom("author", "version", "x-y_1", "Version"), weight: 6 },
      { arbitrary: fc.constantFrom("entrypoint", "constructor", "author"), weight: 1 },
    );
    const indent = fc.constantFrom("  ", "  ", "    ", " ");
    const metadata = fc
      .tuple(
        fc.constantFrom("", "", " "),
        indent,
        fc.array(fc.tuple(nestedKey, scalar, fc.boolean()), { maxLength: 3 }),
        fc.nat(9),
      )
      .map(([after, at, entries, odd]) => [
        `metadata:${after}`,
        ...entries.map(([k, v, first]) => `${odd === 0 && !first ? " " : ""}${at}${k}: ${v}`),
      ]);
    const optional = fc.oneof(
      fc.tuple(fc.constantFrom("license", "compatibility", "allowed-tools"), scalar).map(([k, v]) => [`${k}: ${v}`]),
      metadata,
    );
    const odd = fc.oneof(
      fc
        .tuple(fc.constantFrom("name", "names", "Name", "model", "author", "toString", "metadata"), scalar)
        .map(([k, v]) => [`${k}:  ${v}  `]),
      fc.constantFrom([""], ["   "], ["name:x"], ["description:\tx"], ["--- x"], ["license:"]),
    );
    const lines = fc
      .tuple(
        fc.uniqueArray(optional, { maxLength: 4, selector: (entry) => entry[0]!.split(":")[0] }),
        fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: odd, weight: 1 }),
      )
      .map(([fields, extra]) => (extra ? [...fields, extra] : fields));
    const closing = fc.oneof(
      { arbitrary: fc.constant("---\n"), weight: 6 },
      {
        arbitrary: fc.constantFrom("---  \n# Body\n", "---\t\n", "---", "----\n---\n", "---\r\nbody\u2028"),
        weight: 1,
      },
    );
    let taken = 0;
    fc.assert(
      fc.property(
        name,
        text,
        lines,
        closing,
        fc.constantFrom("same", "same", "same", "same", "same", "other", "none"),
        fc.constantFrom("", "", "", "", "", "", "", "\r"),
        (skillName, description, extra, close, folder, cr) => {
          const fields = [`name: ${skillName}`, `description: ${description}`, ...extra.flat()];
          const body = `---\n${fields.join("\n")}\n${close}`.replaceAll("\n", `${cr}\n`);
          const directoryName = folder === "same" ? skillName : folder === "other" ? "elsewhere" : undefined;
          if (expectAgreement(input(body, directoryName))) taken++;
        },
      ),
      { numRuns: 2000 },
    );
    // Both ways are taken often: the property is not met by the shortcut declining everything.
    expect(taken).toBeGreaterThan(200);
    expect(taken).toBeLessThan(1800);
  });
});

const withCorpus = useSharedCorpus();

describe.skipIf(!withCorpus)("readPlainSkill on the real-skills corpus", () => {
  it("agrees with the full reading on every SKILL.md, and takes most of them", () => {
    let taken = 0;
    const folders = findSkillDirectories(SHARED_CORPUS);
    for (const folder of folders) {
      const file = `${folder}/SKILL.md`;
      const text = readFileSync(file, "utf8");
      // As discovery reads it, the frontmatter only, and as a whole file.
      const head = text.slice(0, text.indexOf("\n---", 3) + 5);
      for (const candidate of [text, head])
        if (expectAgreement({ text: candidate, file, directoryName: basename(dirname(file)), source: "corpus" }))
          taken++;
    }
    expect(folders).toHaveLength(175);
    expect(taken).toBeGreaterThan(2 * 150);
  });
});
