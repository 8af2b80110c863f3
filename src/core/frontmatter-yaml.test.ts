import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml } from "./frontmatter-yaml.js";

const viaYaml = (text: string) => parseDocument(text, { schema: "failsafe", uniqueKeys: true }).toJS();

describe("parseFrontmatterYaml", () => {
  it("gives the same result on its fast path as the YAML parser", () => {
    const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,12}$/);
    const value = fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(..."aZ09 .,-_:#'\"()[]{}&*!|>%@`?\t/é日") });
    const line = fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines.join("\n");
        let expected: unknown;
        try {
          const document = parseDocument(text, { schema: "failsafe", uniqueKeys: true, strict: true });
          if (document.errors.length > 0) return;
          expected = viaYaml(text);
        } catch {
          return;
        }
        expect(parseFrontmatterYaml(text, "lenient")).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
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
