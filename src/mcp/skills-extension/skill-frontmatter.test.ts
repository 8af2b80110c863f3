import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { frontmatterObject, simpleFrontmatter } from "./skill-frontmatter.js";

// The reading before the fast path, as frontmatterObject made it.
function viaYaml(yaml: string): unknown {
  return parse(yaml, { maxAliasCount: 50, uniqueKeys: true, prettyErrors: false, logLevel: "error" });
}

function outcome(read: () => unknown): { value: string } | { error: string } {
  try {
    return { value: JSON.stringify(read()) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("frontmatterObject", () => {
  it("reads plain string fields without the YAML parser, and leaves what YAML 1.2 reads otherwise to it", () => {
    expect(simpleFrontmatter("name: pdf\nmetadata:\n  version: '1.9.1'\n  author: docs\n")).toEqual({
      name: "pdf",
      metadata: { version: "1.9.1", author: "docs" },
    });
    for (const yaml of [
      "name: a\nversion: 1.5\n",
      "name: a\nversion: '1.5'\n",
      "name: a\nbeta: True\n",
      "name: a\nlicense: ~\n",
      "name: a\nlicense:\n",
      "name: a\nmetadata:\n  size: 0x1F\n",
      "name: a\nNULL: x\n",
      "name: a\ntrue: x\n",
      "name: a\u000b\n",
      "name: a\ufeff\n",
    ])
      expect(simpleFrontmatter(yaml)).toBeUndefined();
    expect(frontmatterObject("---\nname: a\nversion: 1.5\nbeta: True\nNULL: x\nlicense:\n---\n")).toEqual({
      name: "a",
      version: 1.5,
      beta: true,
      "": "x",
      license: null,
    });
  });

  it("reads any frontmatter as the YAML parser does, fast path or not, key order and errors included (property, seed 36)", () => {
    const key = fc.oneof(
      fc.constantFrom("name", "description", "metadata", "version", "true", "True", "FALSE", "null", "Null", "NULL"),
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/),
    );
    const coreLooking = fc.constantFrom(
      ...["1", "-2", "+3", "01", "1.5", "1.", ".5", "-2e3", "1E+2", "1.9.1", "1_000", "0x1F", "0xG", "0o17", "0o8"],
      ...[".inf", "-.Inf", "+.INF", ".nan", ".NaN", "nan", "~", "null", "Null", "NULL", "nULL", "true", "True"],
      ...["TRUE", "tRUE", "false", "yes", "on", "", " "],
    );
    const text = fc.string({
      maxLength: 20,
      unit: fc.constantFrom(..."aZ09 .,-_:#'\"[]{}&*!|>%@`?\t\\/é日\u000b\ufeff\u2028\r~+", "\u{1F4C4}"),
    });
    const words = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,-]{0,15}$/);
    const scalar = fc.oneof(words, words, coreLooking, text);
    const value = fc.oneof(
      scalar,
      scalar.map((v) => `'${v}'`),
      scalar.map((v) => `"${v}"`),
    );
    // What the fast reader trims at a line's end or skips as a blank line, where YAML keeps or refuses it.
    const odd = fc.oneof(
      { arbitrary: fc.constant(""), weight: 12 },
      { arbitrary: fc.constantFrom("\u000b", "\f", "\ufeff", "\n\u000b"), weight: 1 },
    );
    const entry = fc.tuple(key, value, odd).map(([k, v, end]) => `${k}: ${v}${end}`);
    const block = fc
      .tuple(key, fc.constantFrom("  ", "    "), fc.array(fc.tuple(key, value), { maxLength: 3 }))
      .map(([k, indent, children]) => [`${k}:`, ...children.map(([ck, cv]) => `${indent}${ck}: ${cv}`)].join("\n"));
    let fast = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, entry, block), { minLength: 1, maxLength: 6 }), (parts) => {
        const yaml = `${parts.join("\n")}\n`;
        const simple = simpleFrontmatter(yaml);
        if (simple) {
          fast++;
          expect(JSON.stringify(simple)).toBe(JSON.stringify(viaYaml(yaml)));
        }
        const parsed = outcome(() => viaYaml(yaml));
        const read = outcome(() => frontmatterObject(`---\n${yaml}---\n# Body\n`));
        if ("value" in parsed && !parsed.value.startsWith("{")) expect(read).toHaveProperty("error");
        else if ("value" in parsed) expect(read).toEqual(parsed);
        else expect(read).toEqual({ error: `Invalid YAML in frontmatter: ${parsed.error.split("\n")[0]}` });
      }),
      { numRuns: 2000, seed: 36 },
    );
    expect(fast).toBeGreaterThan(100);
  });
});
