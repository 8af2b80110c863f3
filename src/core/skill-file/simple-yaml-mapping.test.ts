import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml } from "./frontmatter-yaml.js";
import { parseSimpleMapping } from "./simple-yaml-mapping.js";

// The fast path's agreement with the YAML parser is a property test in frontmatter-yaml.test.ts;
// these pin the lines it reads itself and the ones it must leave to the parser.
describe("parseSimpleMapping", () => {
  it("reads key: value lines and one nested block, skipping blank lines and one \\r before each line break", () => {
    const text =
      "name: pdf\r\n\r\n   \r\ndescription: 'It''s for PDFs.'\r\nmetadata:\r\n  author: \"docs team\"\r\n  version: 1.0\r\nlicense: MIT";
    expect(parseSimpleMapping(text)).toEqual({
      name: "pdf",
      description: "It's for PDFs.",
      metadata: { author: "docs team", version: "1.0" },
      license: "MIT",
    });
  });

  it("reads plain values with ':' and '#' where YAML keeps them as text, and printable non-ASCII", () => {
    expect(
      parseSimpleMapping("a: http://x.org/a#b\nb: a:b\nc: C# and F#\nd: caf\u00e9 \u2014 \ufefe \uff00 \ufffd"),
    ).toEqual({ a: "http://x.org/a#b", b: "a:b", c: "C# and F#", d: "caf\u00e9 \u2014 \ufefe \uff00 \ufffd" });
  });

  it("reads text with a character outside the usual ones value by value, as it always did", () => {
    // A vertical tab, form feed or BOM ends up trimmed or on a blank line here; the YAML parser would keep or refuse them.
    expect(parseSimpleMapping("name: a\u000b\ndescription: b")).toEqual({ name: "a", description: "b" });
    expect(parseSimpleMapping("name: a\n\f\ndescription: b")).toEqual({ name: "a", description: "b" });
    expect(parseSimpleMapping("name: a\ufeff\n\ufeff\n \u000b \n")).toEqual({ name: "a" });
    expect(parseSimpleMapping("name: a\r\ndescription: b\r")).toEqual({ name: "a", description: "b" });
    expect(parseSimpleMapping("name: a\u000b\ndescription: a\u0007b")).toBeUndefined();
  });

  it("reads a key alone, or followed only by spaces or a tab, as an empty string", () => {
    expect(parseSimpleMapping("a:\nb:   \nc: \t\nd: x")).toEqual({ a: "", b: "", c: "", d: "x" });
  });

  it.each([
    ["a value holding U+2028", "name: a\u2028b"],
    ["a value holding U+2029", "name: a\u2029b"],
    ["a value ending in a second \\r", "name: ab\r\r\n"],
    ["an indented line with no block open", "name: a\n  author: b"],
    ["a block whose lines are indented differently", "metadata:\n  a: b\n    c: d"],
    ["an indented key without a value", "metadata:\n  a:"],
    ["a tab after the colon", "name:\tx"],
    ["no space after the colon", "name:x"],
    ["a key that starts with a digit", "1name: x"],
    ["a repeated key", "name: a\nname: b"],
    ["a repeated nested key", "metadata:\n  a: b\n  a: c"],
    ["a line that is only a non-breaking space before text", "\u00a0name: x"],
    ["a plain value holding ': '", "description: Use when: asked"],
    ["a plain value ending in ':'", "description: Use when:"],
    ["a plain value holding ' #'", "description: a #comment"],
    ["a plain value holding a control character", "description: a\u0007b"],
    ["a plain value holding DEL or a C1 control", "description: a\u007fb\u0085"],
    ["a plain value holding an astral character (a surrogate pair)", "description: PDFs \u{1F4C4}"],
    ["a plain value holding U+FEFF", "description: a\ufeffb"],
    ["a plain value holding U+FFFE", "description: a\ufffeb"],
    ["a tab inside a plain value", "description: a\tb"],
    ["a tab inside a quoted value", "description: 'a\tb'"],
    ["a double-quoted value with an escape", 'description: "a\\nb"'],
    ["a double-quoted value holding a quote", 'description: "a"b"'],
    ["a single-quoted value holding a control character", "description: 'a\u0007b'"],
    ["a lone \\r inside the text", "name: a\rdescription: b"],
    ["a key named __proto__", "name: a\n__proto__: b"],
    ["a nested key named __proto__", "metadata:\n  __proto__: b"],
  ])("leaves %s to the YAML parser", (_what, text) => {
    expect(parseSimpleMapping(text)).toBeUndefined();
  });

  it("reads what it leaves to the YAML parser as YAML does", () => {
    expect(parseFrontmatterYaml("name: a\u2028b", "lenient")).toEqual({ name: "a\u2028b" });
    expect(() => parseFrontmatterYaml("name: a\nname: b", "lenient")).toThrow(
      /^Invalid YAML in frontmatter: Map keys must be unique/,
    );
  });
});
