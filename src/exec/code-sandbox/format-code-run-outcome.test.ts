import { expect, test } from "vitest";
import { DEFAULT_CODE_LIMITS, resolveCodeLimits } from "./code-limits.js";
import type { CodeRunOutcome } from "./code-run-outcome.js";
import { formatCodeRunOutcome } from "./format-code-run-outcome.js";

const report = { logs: [], logsCutChars: 0, toolCalls: 0, notes: [] };

function failed(kind: Extract<CodeRunOutcome, { ok: false }>["error"]["kind"], message = ""): CodeRunOutcome {
  return { ok: false, error: { kind, message }, ...report };
}

test("logs come first, then the value as JSON", () => {
  const outcome: CodeRunOutcome = {
    ok: true,
    value: { a: 1 },
    json: '{"a":1}',
    jsonChars: 7,
    ...report,
    logs: ["one", "warn: two"],
  };
  expect(formatCodeRunOutcome(outcome, DEFAULT_CODE_LIMITS)).toBe('Logs:\none\nwarn: two\n\nResult:\n{"a":1}');
});

test("a run that returned nothing says how to return a value", () => {
  const outcome: CodeRunOutcome = { ok: true, value: undefined, json: undefined, jsonChars: 0, ...report };
  expect(formatCodeRunOutcome(outcome, DEFAULT_CODE_LIMITS)).toBe(
    "Result: undefined (the code returned nothing; use `return value` to send a value back).",
  );
});

test("logs and value share the result size: the value keeps at least half, and each cut is counted", () => {
  const limits = resolveCodeLimits({ maxResultChars: 100 });
  const json = JSON.stringify("v".repeat(200));
  const outcome: CodeRunOutcome = {
    ok: true,
    value: undefined,
    json: json.slice(0, 100),
    jsonChars: json.length,
    ...report,
    logs: ["l".repeat(100)],
    logsCutChars: 30,
  };
  expect(formatCodeRunOutcome(outcome, limits)).toBe(
    `Logs:\n${"l".repeat(50)}\n[… 80 more characters of logs were cut: the output limit is 100 characters.]\n\n` +
      `Result (JSON, cut):\n"${"v".repeat(49)}\n[… 152 of 202 characters were cut: the output limit is 100 characters. ` +
      "Return less (a summary, fewer fields or records) or page through it over several runs.]",
  );
});

test.each([
  [
    "timeout",
    "",
    "Error: the code ran past its 5 s limit and was stopped. Do less in one run (fewer items, no busy or waiting loops) and return partial results, or split the work over several runs.",
  ],
  [
    "memory",
    "",
    "Error: the code used more than its 64 MiB memory limit and was stopped. Keep less in memory: handle items one at a time and return a summary rather than everything.",
  ],
  [
    "tool-calls",
    "",
    "Error: the code called tools more than 256 times in one run and was stopped. Make fewer calls per run: handle part of the items, return what you have, and continue in another run.",
  ],
  [
    "syntax",
    "SyntaxError in run_code.js at line 2, column 3: Unexpected token",
    "Error: the code does not parse. SyntaxError in run_code.js at line 2, column 3: Unexpected token. Fix it and run it again.",
  ],
  [
    "thrown",
    "TypeError: x is not a function",
    "Error: the code threw an error it did not catch: TypeError: x is not a function",
  ],
  [
    "thrown",
    "RangeError: Maximum call stack size exceeded\n    at f (run_code.js:1:20)",
    "Error: the code threw an error it did not catch: RangeError: Maximum call stack size exceeded\n    at f (run_code.js:1:20)\nThe sandbox allows a few hundred nested calls: use a loop instead of deep recursion, and keep data less deeply nested.",
  ],
  [
    "import",
    'Cannot import "@/skills/x": the skill "x" is not loaded.',
    'Error: an import failed. Cannot import "@/skills/x": the skill "x" is not loaded.',
  ],
  [
    "result",
    "the returned value cannot be written as JSON (TypeError: circular reference).",
    "Error: the returned value cannot be written as JSON (TypeError: circular reference). Return plain data (objects, arrays, strings, numbers, booleans, null) without cycles or BigInt.",
  ],
  [
    "stalled",
    "the code awaits a promise that nothing will ever settle (no tool call or import is still running).",
    "Error: the code awaits a promise that nothing will ever settle (no tool call or import is still running). Await only promises that settle, such as tool calls and imports.",
  ],
  [
    "crashed",
    "Maximum call stack size exceeded",
    "Error: the sandbox itself failed while running the code (Maximum call stack size exceeded). Run it again; if it keeps failing, simplify the code.",
  ],
] as const)("a %s error reads as a sentence the model can act on", (kind, message, text) => {
  expect(formatCodeRunOutcome(failed(kind, message), DEFAULT_CODE_LIMITS)).toBe(text);
});

test("limits are named as configured, and notes come last", () => {
  const limits = resolveCodeLimits({ timeoutMs: 1500, memoryBytes: 8 * 1024 * 1024 + 512 * 1024 });
  expect(formatCodeRunOutcome(failed("timeout"), limits)).toMatch(/^Error: the code ran past its 1\.5 s limit/);
  const memory = { ...failed("memory"), notes: ["The sandbox was rebuilt."] };
  expect(formatCodeRunOutcome(memory, limits)).toMatch(
    /^Error: the code used more than its 8\.5 MiB memory limit.*\n\nNote: The sandbox was rebuilt\.$/s,
  );
});
