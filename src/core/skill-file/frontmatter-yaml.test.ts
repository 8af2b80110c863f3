import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { messageOf } from "../../../test/helpers/message-of.js";
import { parseFrontmatterYaml } from "./frontmatter-yaml.js";
import { parseSimpleMapping } from "./simple-yaml-mapping.js";

const viaYaml = (text: string) => parseDocument(text, { schema: "failsafe", uniqueKeys: true }).toJS();

describe("parseFrontmatterYaml", () => {
  it("never emits a process warning (the yaml package warns about collection keys)", async () => {
    const warnings: Error[] = [];
    const listener = (warning: Error) => warnings.push(warning);
    process.on("warning", listener);
    try {
      expect(parseFrontmatterYaml("? [a, b]\n: c\nname: x", "lenient")).toEqual({ "[ a, b ]": "c", name: "x" });
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("warning", listener);
    }
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });

  it("gives the same result on its fast path as the YAML parser", () => {
    // Known keys (returned as constants), keys that start like one, and any others.
    const knownish = fc.constantFrom(
      "name",
      "names",
      "namx",
      "description",
      "descriptioX",
      "metadata",
      "author",
      "version",
      "arguments",
      "argument-hint",
      "argument",
      "model-x",
      "Name",
    );
    const key = fc.oneof(knownish, fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,12}$/));
    const text = fc.string({
      minLength: 0,
      maxLength: 30,
      unit: fc.constantFrom(..."aZ09 .,-_:#'\"()[]{}&*!|>%@`?\t\\/é日"),
    });
    const value = fc.oneof(
      text,
      text.map((t) => `'${t}'`),
      text.map((t) => `"${t}"`),
    );
    const entry = fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`);
    const block = fc
      .tuple(key, fc.constantFrom("  ", "    ", " "), fc.array(fc.tuple(key, value), { maxLength: 3 }))
      .map(([k, indent, children]) => [`${k}:`, ...children.map(([ck, cv]) => `${indent}${ck}: ${cv}`)].join("\n"));
    let fastPathTaken = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, entry, block), { minLength: 1, maxLength: 6 }), (parts) => {
        const source = parts.join("\n");
        const fast = parseSimpleMapping(source);
        // Read in place inside a whole SKILL.md, the same.
        const around = `---\n${source}\n---\n# Body\twith: what\r\n`;
        expect(parseSimpleMapping(around, 4, 4 + source.length)).toEqual(fast);
        if (fast === undefined) return;
        fastPathTaken++;
        // Whatever the fast path accepts, YAML must accept too, with the same result.
        const document = parseDocument(source, { schema: "failsafe", uniqueKeys: true, strict: true });
        expect(document.errors).toEqual([]);
        expect(fast).toEqual(viaYaml(source));
      }),
      { numRuns: 3000 },
    );
    expect(fastPathTaken).toBeGreaterThan(300);
  });

  it("keeps every scalar a string", () => {
    expect(parseFrontmatterYaml("a: 1.0\nb: true\nc: null\nd:\ne: ~", "strict")).toEqual({
      a: "1.0",
      b: "true",
      c: "null",
      d: "",
      e: "~",
    });
  });

  it("accepts flow collections and aliases only when lenient", () => {
    expect(parseFrontmatterYaml("a: [x, y]\nb: &b z\nc: *b", "lenient")).toEqual({ a: ["x", "y"], b: "z", c: "z" });
    expect(() => parseFrontmatterYaml("a: [x, y]", "strict")).toThrow(/^Invalid YAML in frontmatter: flow style/);
    expect(() => parseFrontmatterYaml("b: &b z\nc: *b", "strict")).toThrow(
      /^Invalid YAML in frontmatter: anchors are not allowed/,
    );
  });

  it.each([
    [
      "an unclosed flow sequence, at its [",
      "name: x\ndescription: [unclosed\nlicense: MIT\n",
      "Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 14",
    ],
    [
      "an unclosed flow mapping, at its {",
      "name: x\ndescription: {a: b\n",
      "Flow map in block collection must be sufficiently indented and end with a } at line 2, column 14",
    ],
    [
      "an unclosed sequence holding a closed one, at its [",
      "d: [a, [b, c]\nlicense: MIT\n",
      "Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 4",
    ],
    [
      "an unclosed double quote, at the quote",
      'name: x\ndescription: "unclosed\nlicense: MIT\n',
      'Missing closing "quote at line 2, column 14',
    ],
    [
      "unclosed nested sequences, at the inner [",
      "d: [a, [b, c\n",
      "Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 8",
    ],
    [
      "a double quote escaped at the end, at the quote",
      'description: "x\\"\n',
      'Missing closing "quote at line 1, column 14',
    ],
    [
      "an unclosed single quote, at the quote",
      "description: 'unclosed\n",
      "Missing closing 'quote at line 1, column 14",
    ],
    ["a duplicate key, at the second", "name: a\nname: b\n", "Map keys must be unique at line 2, column 1"],
    ["a tab as indentation", "a:\n\tb\n", "Tabs are not allowed as indentation at line 2, column 1"],
    [
      "a value with ': ' after the key, in code points",
      "日本: a: b\n",
      "Nested mappings are not allowed in compact mappings at line 1, column 5",
    ],
  ])("names the line and column of %s", (_what, text, detail) => {
    expect(messageOf(() => parseFrontmatterYaml(text, "lenient"))).toBe(`Invalid YAML in frontmatter: ${detail}`);
    expect(messageOf(() => parseFrontmatterYaml(text, "strict"))).toBe(`Invalid YAML in frontmatter: ${detail}`);
  });

  it.each([
    [
      "a flow sequence",
      "name: x\nd: [a]\n",
      "flow style collections ([...] or {...}) are not allowed at line 2, column 4",
    ],
    [
      "a flow mapping",
      "name: x\nmetadata: {}\n",
      "flow style collections ([...] or {...}) are not allowed at line 2, column 11",
    ],
    ["an anchor, at the &", "name: &x a\ndescription: b\n", "anchors are not allowed (&x) at line 1, column 7"],
    [
      "an alias, at the *",
      "name: a\ndescription: b\nlicense: *x\n",
      "aliases are not allowed (*x) at line 3, column 10",
    ],
    ["a tag, at the !", "name: !!str a\n", "tags are not allowed (tag:yaml.org,2002:str) at line 1, column 7"],
    [
      "a tag after an anchor, at the !",
      "metadata:\n  k: &a !!str v\n",
      "anchors are not allowed (&a) at line 2, column 6",
    ],
  ])("names the line and column of strict YAML's refusal of %s", (_what, text, detail) => {
    expect(messageOf(() => parseFrontmatterYaml(text, "strict"))).toBe(`Invalid YAML in frontmatter: ${detail}`);
  });

  it("counts lines and columns from the origin: its column on the text's first line only", () => {
    const problem = (text: string, origin: { line: number; column: number }) => () =>
      parseFrontmatterYaml(text, "strict", { origin });
    expect(problem("\nname: x\nd: [a\n", { line: 1, column: 4 })).toThrow(/ end with a \] at line 3, column 4$/);
    expect(problem("d: [a]", { line: 2, column: 1 })).toThrow(/ are not allowed at line 2, column 4$/);
    expect(problem("d: [a]", { line: 1, column: 4 })).toThrow(/ are not allowed at line 1, column 7$/);
  });
});
