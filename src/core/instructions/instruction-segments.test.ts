import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenizeInstructions } from "./instruction-segments.js";
import { createPlaceholderMatcher } from "./skill-arguments.js";

const tokenize = (body: string) => tokenizeInstructions(body, createPlaceholderMatcher());

describe("tokenizeInstructions", () => {
  it("splits a line into text, placeholders and inline commands", () => {
    expect(tokenize("Hi $0 and !`date` end")).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "placeholder", placeholder: { kind: "argument", index: 0 } },
      { kind: "text", text: " and " },
      { kind: "command", command: "date" },
      { kind: "text", text: " end" },
    ]);
  });

  it("finds an inline command only after whitespace, an opening bracket or at a line start", () => {
    expect(tokenize("x!`date`")).toEqual([{ kind: "text", text: "x!`date`" }]);
    expect(tokenize("(!` date `)")).toEqual([
      { kind: "text", text: "(" },
      { kind: "command", command: "date" },
      { kind: "text", text: ")" },
    ]);
  });

  it("turns a closed ```! block into its non-empty lines, trimmed", () => {
    expect(tokenize("a\n```!\ndate\n\n  whoami \n```\nb")).toEqual([
      { kind: "text", text: "a" },
      { kind: "text", text: "\n" },
      { kind: "block", commands: ["date", "whoami"] },
      { kind: "text", text: "\n" },
      { kind: "text", text: "b" },
    ]);
  });

  it("keeps ordinary fences as text, commands inside included", () => {
    expect(tokenize("~~~\n!`date`\n~~~")).toEqual([
      { kind: "text", text: "~~~\n" },
      { kind: "text", text: "!`date`\n" },
      { kind: "text", text: "~~~" },
    ]);
  });

  it("reports a ```! block never closed by its line and keeps its text", () => {
    expect(tokenize("x\r\n```!\r\ndate")).toEqual([
      { kind: "text", text: "x" },
      { kind: "text", text: "\r\n" },
      { kind: "unclosed-block", line: 2 },
      { kind: "text", text: "```!\r\n" },
      { kind: "text", text: "date" },
    ]);
  });

  it("gives a text without $ or ! back whole, as text segments only, so rendering may skip it (property, seed 36)", () => {
    // Lines of fences, code spans and indentation, with CRLF and lone CR: everything the tokenizer looks at.
    const piece = fc.constantFrom("```", "````", "~~~", "`", "``", "  ", "\t", "x", "bash", " y ", "\n", "\r\n", "\r");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const body = pieces.join("");
        const segments = tokenize(body);
        expect(segments.every((segment) => segment.kind === "text")).toBe(true);
        expect(segments.map((segment) => (segment.kind === "text" ? segment.text : "")).join("")).toBe(body);
      }),
      { numRuns: 3000, seed: 36 },
    );
  });
});
