import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml, parseSimpleMapping } from "./frontmatter-yaml.js";

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
    const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,12}$/);
    const text = fc.string({ minLength: 0, maxLength: 30, unit: fc.constantFrom(..."aZ09 .,-_:#'\"()[]{}&*!|>%@`?\t\\/é日") });
    const value = fc.oneof(text, text.map((t) => `'${t}'`), text.map((t) => `"${t}"`));
    const entry = fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`);
    const block = fc
      .tuple(key, fc.constantFrom("  ", "    ", " "), fc.array(fc.tuple(key, value), { maxLength: 3 }))
      .map(([k, indent, children]) => [`${k}:`, ...children.map(([ck, cv]) => `${indent}${ck}: ${cv}`)].join("\n"));
    let fastPathTaken = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, entry, block), { minLength: 1, maxLength: 6 }), (parts) => {
        const source = parts.join("\n");
        const fast = parseSimpleMapping(source);
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
    expect(parseFrontmatterYaml("a: 1.0\nb: true\nc: null\nd:\ne: ~", "strict")).toEqual({ a: "1.0", b: "true", c: "null", d: "", e: "~" });
  });

  it("accepts flow collections and aliases only when lenient", () => {
    expect(parseFrontmatterYaml("a: [x, y]\nb: &b z\nc: *b", "lenient")).toEqual({ a: ["x", "y"], b: "z", c: "z" });
    expect(() => parseFrontmatterYaml("a: [x, y]", "strict")).toThrow(/^Invalid YAML in frontmatter: flow style/);
    expect(() => parseFrontmatterYaml("b: &b z\nc: *b", "strict")).toThrow(/^Invalid YAML in frontmatter: anchors are not allowed/);
  });
});
