// Queries and descriptions come from files and from a model: the reports of `eval` and `tune`
// must not let them write terminal escape sequences or start lines of their own.
import { describe, expect, it } from "vitest";
import { formatTriggerReport } from "../../src/cli/eval/trigger-report.js";
import { passCount, scoreTriggers } from "../../src/cli/eval/trigger-score.js";
import { tuneSummary } from "../../src/cli/eval/tune-report.js";
import type { TuneStep } from "../../src/cli/eval/tune-loop.js";
import type { Colors } from "../../src/cli/terminal.js";

const plain: Colors = {
  bold: (text) => text,
  dim: (text) => text,
  red: (text) => text,
  green: (text) => text,
  yellow: (text) => text,
};
const ESCAPE = "\x1b]0;owned\x07\x1b[2J";

describe("trigger and tune reports", () => {
  it("show a query's control characters as escapes", () => {
    const report = scoreTriggers(
      "csv-tool",
      "evals\x1b[31m.json",
      [{ query: `Clear ${ESCAPE}screen`, shouldTrigger: false }],
      [{ index: 0, triggered: false, usage: { input: 0, output: 0 } }],
    );
    const text = formatTriggerReport([report], passCount(report.results), plain);
    expect(text).not.toContain("\x1b");
    expect(text).not.toContain("\x07");
    expect(text).toContain("PASS    0/1        no      Clear \\u001b]0;owned\\u0007\\u001b[2Jscreen");
    expect(text).toContain("csv-tool · evals\\u001b[31m.json");
  });

  it("show a proposed description's control characters as escapes, line by line", () => {
    const step = (iteration: number, description: string): TuneStep => ({
      iteration,
      description,
      train: [],
      validation: [],
      trainPass: passCount([]),
      validationPass: { passed: iteration, total: 1, passRate: iteration },
    });
    const text = tuneSummary({
      steps: [step(0, "Old."), step(1, `Use it.\n${ESCAPE}Now.`)],
      rejected: [],
      best: step(1, `Use it.\n${ESCAPE}Now.`),
      stopped: "iterations",
    });
    expect(text).not.toContain("\x1b");
    expect(text).toContain("After:\n  Use it.\n  \\u001b]0;owned\\u0007\\u001b[2JNow.");
  });
});
