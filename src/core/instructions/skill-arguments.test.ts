import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPlaceholderMatcher, splitArguments } from "./skill-arguments.js";

describe("splitArguments", () => {
  it.each([
    ["", []],
    ["   \t\n ", []],
    ["one", ["one"]],
    ["  one   two\tthree\nfour\r\nfive ", ["one", "two", "three", "four", "five"]],
    [`"my file" next`, ["my file", "next"]],
    [`'a b' c`, ["a b", "c"]],
    [`a"b c"d'e f'g`, ["ab cde fg"]],
    [`"" ''`, ["", ""]],
    [`x "" y`, ["x", "", "y"]],
    [`'$HOME \\n "q"'`, [`$HOME \\n "q"`]],
    [`"a \\"b\\" \\\\ \\$x \\\` \\n"`, [`a "b" \\ $x \` \\n`]],
    [`my\\ file \\"q\\" \\\\`, ["my file", `"q"`, "\\"]],
    ["a\\\nb", ["ab"]],
    ["a \\\nb", ["a", "b"]],
    [`"a\\\nb"`, ["ab"]],
    [`'' \\\n`, [""]],
    ["trailing\\", ["trailing\\"]],
    [`$ARGUMENTS $0 !\`id\``, ["$ARGUMENTS", "$0", "!`id`"]],
  ])("splits %j like a POSIX shell", (text, expected) => {
    expect(splitArguments(text)).toEqual(expected);
  });

  it.each([
    ["don't stop", ["don't", "stop"]],
    [`say "hello world`, ["say", `"hello`, "world"]],
    [`"my file" it's`, ["my file", "it's"]],
    [`'a b' "c`, ["a b", `"c`]],
    [`"a \\" b`, [`"a`, `"`, "b"]],
    [`'`, ["'"]],
    [`"`, [`"`]],
  ])("treats a quote without a closing partner as an ordinary character: %j", (text, expected) => {
    expect(splitArguments(text)).toEqual(expected);
  });

  it("gives back any list of arguments quoted the way a shell would quote them", () => {
    const quote = (argument: string) => `'${argument.replaceAll("'", `'\\''`)}'`;
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 12 }), { maxLength: 6 }),
        fc.constantFrom(" ", "\t", "  \n "),
        (argv, separator) => {
          expect(splitArguments(argv.map(quote).join(separator))).toEqual(argv);
        },
      ),
    );
  });

  it("never throws on arbitrary text, and splits text without quotes or backslashes on whitespace only", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (text) => {
        const words = splitArguments(text);
        expect(Array.isArray(words)).toBe(true);
        if (!/['"\\]/.test(text)) expect(words).toEqual(text.split(/[ \t\n\r\f\v]+/).filter(Boolean));
      }),
    );
  });
});

describe("createPlaceholderMatcher", () => {
  const at = (text: string, names: string[] = []) => createPlaceholderMatcher(names)(text, 0);

  it("matches $ARGUMENTS, $ARGUMENTS[N] and $N", () => {
    expect(at("$ARGUMENTS")).toEqual({ placeholder: { kind: "arguments" }, length: 10 });
    expect(at("$ARGUMENTS.")).toEqual({ placeholder: { kind: "arguments" }, length: 10 });
    expect(at("$ARGUMENTS[2] x")).toEqual({ placeholder: { kind: "argument", index: 2 }, length: 13 });
    expect(at("$ARGUMENTS[x]")).toEqual({ placeholder: { kind: "arguments" }, length: 10 });
    expect(at("$0")).toEqual({ placeholder: { kind: "argument", index: 0 }, length: 2 });
    expect(at("$12,")).toEqual({ placeholder: { kind: "argument", index: 12 }, length: 3 });
  });

  it("leaves identifiers that merely start like a placeholder alone", () => {
    expect(at("$ARGUMENTSX")).toBeUndefined();
    expect(at("$ARGUMENTS_1")).toBeUndefined();
    expect(at("$0abc")).toBeUndefined();
    expect(at("$arguments")).toBeUndefined();
    expect(at("$HOME")).toBeUndefined();
    expect(at("${HOME}")).toBeUndefined();
    expect(at("$")).toBeUndefined();
    expect(at("x$0")).toBeUndefined();
  });

  it("matches the skill variables", () => {
    expect(at("${CLAUDE_SKILL_DIR}/x")).toEqual({ placeholder: { kind: "variable", name: "skillDir" }, length: 19 });
    expect(at("${SKILL_DIR}")).toEqual({ placeholder: { kind: "variable", name: "skillDir" }, length: 12 });
    expect(at("${CLAUDE_SESSION_ID}")).toEqual({ placeholder: { kind: "variable", name: "sessionId" }, length: 20 });
    expect(at("${CLAUDE_SKILL_DIR")).toBeUndefined();
  });

  it("matches the longest declared name that ends at an identifier boundary", () => {
    const names = ["issue", "issues", "mode"];
    expect(at("$issue.", names)).toEqual({ placeholder: { kind: "argument", index: 0 }, length: 6 });
    expect(at("$issues", names)).toEqual({ placeholder: { kind: "argument", index: 1 }, length: 7 });
    expect(at("$mode", names)).toEqual({ placeholder: { kind: "argument", index: 2 }, length: 5 });
    expect(at("$issuesX", names)).toBeUndefined();
    expect(at("$issues", ["issue"])).toBeUndefined();
    expect(at("$file-name", ["file"])).toEqual({ placeholder: { kind: "argument", index: 0 }, length: 5 });
    expect(at("$file-name", ["file", "file-name"])).toEqual({
      placeholder: { kind: "argument", index: 1 },
      length: 10,
    });
  });

  it("ignores declared names that are not identifiers, keeping the positions of the others", () => {
    const names = ["bad name", "ARGUMENTS", "0", "-x", "mode", "mode"];
    expect(at("$mode", names)).toEqual({ placeholder: { kind: "argument", index: 4 }, length: 5 });
    expect(at("$ARGUMENTS", names)).toEqual({ placeholder: { kind: "arguments" }, length: 10 });
    expect(at("$0", names)).toEqual({ placeholder: { kind: "argument", index: 0 }, length: 2 });
    expect(at("$bad name", names)).toBeUndefined();
  });
});
