// Property-based fuzzing of the parsers with fast-check: for arbitrary strings and for strings
// built from frontmatter-ish (or shell-ish) fragments, inspectSkill, parseSkillDocument (both
// modes), validateSkillText and parseCommand never throw anything unexpected, and each call is
// fast. Per-input durations are recorded; p50/p99/max per function are printed and bounded.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/exec/parse-command.js";
import { SkillsetError, inspectSkill, parseSkillDocument, validateSkillText } from "../../src/index.js";
import { controlCharacters } from "./helpers.js";

const RUNS_PER_GENERATOR = 5000;
const P99_LIMIT_MS = 50;
const MAX_LIMIT_MS = 1000;

const durations = new Map<string, number[]>();
/** How inspectSkill's inputs ended, by generator: shows the fuzz reaches past the first checks. */
const outcomes = new Map<string, Map<string, number>>();

/** Calls `fn`, recording how long it took under `label`. */
function measured<T>(label: string, fn: () => T): T {
  const started = performance.now();
  try {
    return fn();
  } finally {
    const list = durations.get(label) ?? [];
    list.push(performance.now() - started);
    durations.set(label, list);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function stats(label: string) {
  const sorted = [...(durations.get(label) ?? [])].sort((a, b) => a - b);
  return {
    cases: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1]!,
  };
}

afterAll(() => {
  let total = 0;
  const rows = [...durations.keys()].sort().map((label) => {
    const { cases, p50, p99, max } = stats(label);
    total += cases;
    return `${label.padEnd(28)} ${String(cases).padStart(6)} cases  p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  max ${max.toFixed(3)} ms`;
  });
  const tallies = [...outcomes].map(
    ([kind, counts]) =>
      `inspectSkill outcomes (${kind}): ${[...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => `${code} ${count}`)
        .join(", ")}`,
  );
  console.log(`fuzz: ${total} cases in total\n${rows.join("\n")}\n${tallies.join("\n")}`);
});

// ---------------------------------------------------------------------------------------------
// Generators

const YAML_FRAGMENTS = [
  "---",
  "---\n",
  "\n---\n",
  "\n",
  "\r\n",
  "\r",
  ":",
  ": ",
  "-",
  "- ",
  "'",
  '"',
  "''",
  '""',
  "[",
  "]",
  "{",
  "}",
  ",",
  "&a ",
  "*a",
  "&",
  "*",
  "!",
  "!!str ",
  "!tag ",
  "!!binary ",
  "|",
  ">",
  "|-",
  ">+",
  "|2",
  "#",
  " #",
  "?",
  "? ",
  "%YAML 1.2\n",
  "%TAG ! tag:x,2000:\n",
  "\t",
  " ",
  "  ",
  "    ",
  "name",
  "description",
  "metadata",
  "allowed-tools",
  "license",
  "compatibility",
  "name: x",
  "name: good-skill\n",
  "description: y\n",
  "metadata:\n  k: v\n",
  "__proto__",
  "constructor",
  "<<",
  "\\",
  "\\x00",
  "\\u2028",
  "\\e",
  "\u2028",
  "\u0085",
  "\ufeff",
  "\u0000",
  "\u001b",
  "é",
  "名前",
  "😀",
  "\ud800",
  "\udc00",
  "true",
  "null",
  "1.0",
  "0x1F",
  "~",
  "...",
  "`",
  "@",
  "%",
  "<",
  ">",
  "&amp;",
  "</description>",
  "..",
  "/",
  "\u202e",
];

const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...YAML_FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
);

/** `---` lines around fragment soup. */
const fragmentSoup = fc
  .tuple(
    fc.constantFrom("---\n", "---\r\n", "---", "", "\ufeff---\n"),
    fc.array(fragment, { maxLength: 60 }),
    fc.constantFrom("\n---\n", "\n---", "", "\n---\nbody\n"),
  )
  .map(([open, parts, close]) => open + parts.join("") + close);

/** Line-structured frontmatter: indentation, a key, a separator, a fragment value. */
const line = fc
  .tuple(
    fc.constantFrom("", "", " ", "  ", "    ", "\t", "- ", "  - "),
    fc.constantFrom(
      "name",
      "description",
      "metadata",
      "license",
      "allowed-tools",
      "compatibility",
      "argument-hint",
      "hooks",
      "x",
      "__proto__",
      "? ",
      "",
    ),
    fc.constantFrom(":", ": ", ":  ", "", " : "),
    fc.array(fragment, { maxLength: 6 }).map((parts) => parts.join("")),
  )
  .map((parts) => parts.join(""));
const structured = fc
  .tuple(fc.array(line, { maxLength: 15 }), fc.constantFrom("\n", "\r\n"))
  .map(([lines, eol]) => `---${eol}name: fuzz${eol}description: d${eol}${lines.join(eol)}${eol}---${eol}body${eol}`);

const anyText = fc.string({ unit: "binary", maxLength: 300 });
const skillTexts: Array<[string, fc.Arbitrary<string>]> = [
  ["arbitrary", anyText],
  [
    "arbitrary between ---",
    fc
      .tuple(anyText, fc.boolean())
      .map(([text, named]) => `---\n${named ? "name: fuzz\ndescription: d\n" : ""}${text}\n---\nbody\n`),
  ],
  ["frontmatter-ish", fc.oneof(fragmentSoup, structured)],
];

const SHELL_FRAGMENTS = [
  "scripts/run.sh",
  "python3",
  " ",
  "  ",
  "\t",
  "'",
  '"',
  ";",
  "&",
  "&&",
  "|",
  "||",
  "$",
  "$(",
  "${",
  "(",
  ")",
  "`",
  "\\",
  "\n",
  "\r",
  "-",
  "--x=",
  "-o",
  "/",
  "..",
  "../",
  "~",
  "*",
  "?",
  "<",
  ">",
  "2>&1",
  "\u0000",
  "\u001b",
  "\u2025",
  "\uff0e",
  "\uff0f",
  "a",
  "=",
  "%",
  "é",
  "😀",
  "\u00a0",
  "\u3000",
];
const commandTexts: Array<[string, fc.Arbitrary<string>]> = [
  ["arbitrary", anyText],
  [
    "shell-ish",
    fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...SHELL_FRAGMENTS) },
          { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join("")),
  ],
];

// ---------------------------------------------------------------------------------------------
// Properties

const UNSAFE_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>&"'`\\/\s]/u;

describe("fuzz: SKILL.md parsers", () => {
  for (const [kind, texts] of skillTexts) {
    it(`inspectSkill returns normally on ${kind} input; a loaded skill has a safe name and a description`, () => {
      fc.assert(
        fc.property(texts, (text) => {
          const result = measured("inspectSkill", () =>
            inspectSkill({ text, file: "/skills/fuzz/SKILL.md", source: "fuzz", directoryName: "fuzz" }),
          );
          for (const diagnostic of result.diagnostics) expect(diagnostic.file).toBe("/skills/fuzz/SKILL.md");
          const counts = outcomes.get(kind) ?? new Map<string, number>();
          const outcome = result.skill
            ? "loaded"
            : (result.diagnostics.find((diagnostic) => diagnostic.severity === "error")?.code ?? "none");
          counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
          outcomes.set(kind, counts);
          if (result.skill) {
            expect(UNSAFE_NAME.test(result.skill.name)).toBe(false);
            expect(result.skill.description.trim()).not.toBe("");
          } else {
            expect(result.diagnostics.some((diagnostic) => diagnostic.severity === "error")).toBe(true);
          }
        }),
        { numRuns: RUNS_PER_GENERATOR },
      );
    });

    for (const mode of ["strict", "lenient"] as const) {
      it(`parseSkillDocument(${mode}) returns a mapping or throws a SkillsetError on ${kind} input`, () => {
        fc.assert(
          fc.property(texts, (text) => {
            try {
              const document = measured(`parseSkillDocument(${mode})`, () => parseSkillDocument(text, mode));
              expect(typeof document.frontmatter).toBe("object");
              expect(Array.isArray(document.frontmatter)).toBe(false);
              expect(typeof document.body).toBe("string");
            } catch (error) {
              if (!SkillsetError.isInstance(error)) throw error;
            }
          }),
          { numRuns: RUNS_PER_GENERATOR },
        );
      });
    }

    it(`validateSkillText returns normally on ${kind} input; valid exactly when there are no errors`, () => {
      fc.assert(
        fc.property(texts, (text) => {
          const report = measured("validateSkillText", () => validateSkillText(text));
          expect(report.valid).toBe(report.errors.length === 0);
        }),
        { numRuns: RUNS_PER_GENERATOR },
      );
    });
  }
});

describe("fuzz: parseCommand", () => {
  for (const [kind, texts] of commandTexts) {
    it(`returns normally on ${kind} input; an accepted command has no line break, control character, absolute path or '..'`, () => {
      fc.assert(
        fc.property(texts, (command) => {
          const parsed = measured("parseCommand", () => parseCommand(command));
          if (!parsed.ok) {
            expect(parsed.reason.length).toBeGreaterThan(0);
            return;
          }
          expect(parsed.argv.length).toBeGreaterThan(0);
          expect(parsed.argv[0]!.startsWith("-")).toBe(false);
          for (const argument of parsed.argv) {
            expect(controlCharacters(argument, "\t")).toEqual([]);
            for (const form of [argument, argument.normalize("NFKC")]) {
              expect(form.startsWith("/")).toBe(false);
              expect(form.split("/")).not.toContain("..");
            }
          }
        }),
        { numRuns: RUNS_PER_GENERATOR },
      );
    });
  }
});

describe("fuzz: time per input", () => {
  it(`p99 < ${P99_LIMIT_MS} ms and max < ${MAX_LIMIT_MS} ms for every function, over at least 20,000 cases`, () => {
    let total = 0;
    for (const label of durations.keys()) {
      const { cases, p99, max } = stats(label);
      total += cases;
      expect(p99, `${label} p99`).toBeLessThan(P99_LIMIT_MS);
      expect(max, `${label} max`).toBeLessThan(MAX_LIMIT_MS);
    }
    expect([...durations.keys()].sort()).toEqual([
      "inspectSkill",
      "parseCommand",
      "parseSkillDocument(lenient)",
      "parseSkillDocument(strict)",
      "validateSkillText",
    ]);
    expect(total).toBeGreaterThanOrEqual(20_000);
  });
});
