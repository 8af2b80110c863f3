// Scoring skill-selection runs: pass, precision and recall over (run, skill) pairs, confusions, tokens.
import { describe, expect, it } from "vitest";
import type { EvalCase } from "../../src/cli/eval/eval-cases.js";
import { formatEvalReport } from "../../src/cli/eval/eval-report.js";
import { runPasses, summarizeEval, type EvalRun } from "../../src/cli/eval/eval-score.js";

const same = (text: string) => text;
const plain = { bold: same, dim: same, red: same, green: same, yellow: same };

function run(expected: string[], loaded: string[], extra: Partial<EvalRun> = {}): EvalRun {
  const entry: EvalCase = {
    id: `case-${expected.join("+")}-${loaded.join("+")}`,
    request: "r",
    expected,
    turns: [],
    draft: false,
  };
  return {
    case: entry,
    run: 1,
    loaded,
    pass: runPasses(expected, loaded, extra.error),
    usage: { input: 10, output: 2 },
    modelCalls: 1,
    stepLimitReached: false,
    ...extra,
  };
}

describe("runPasses", () => {
  it.each([
    [["a"], ["a"], true],
    [[], [], true],
    [["a", "b"], ["b", "a"], true],
    [["a"], [], false],
    [["a"], ["a", "b"], false],
    [[], ["a"], false],
  ])("expected %j, loaded %j: %s", (expected, loaded, pass) => {
    expect(runPasses(expected, loaded, undefined)).toBe(pass);
  });

  it("a run that ended in an error does not pass", () => {
    expect(runPasses([], [], "timeout")).toBe(false);
  });
});

describe("summarizeEval", () => {
  it("counts (run, skill) pairs for precision and recall, and pairs misses with extra loads as confusions", () => {
    const summary = summarizeEval([
      run(["a"], ["a"]),
      run(["a"], ["b"]),
      run(["a"], ["b"]),
      run(["b", "c"], ["b"]),
      run([], ["c"]),
      run([], []),
      run(["a"], ["a", "c"]),
    ]);
    expect(summary).toEqual({
      passed: 2,
      total: 7,
      truePositives: 3,
      falsePositives: 4,
      falseNegatives: 3,
      precision: 0.4286,
      recall: 0.5,
      confusions: [
        { expected: null, loaded: "c", count: 2 },
        { expected: "a", loaded: "b", count: 2 },
        { expected: "c", loaded: null, count: 1 },
      ],
      usage: { input: 70, output: 14 },
      modelCalls: 7,
      errors: 0,
    });
  });

  it("is 1 for precision when nothing was loaded and for recall when nothing was expected", () => {
    expect(summarizeEval([run([], [])])).toMatchObject({ precision: 1, recall: 1, passed: 1, total: 1 });
    expect(summarizeEval([run(["a"], [])])).toMatchObject({ precision: 1, recall: 0 });
  });

  it("leaves runs that ended in an error out of precision, recall and confusions, but not out of the total or the tokens", () => {
    const summary = summarizeEval([run(["a"], ["a"]), run(["a"], [], { error: "No answer within 1 s (--timeout)." })]);
    expect(summary).toMatchObject({
      passed: 1,
      total: 2,
      precision: 1,
      recall: 1,
      confusions: [],
      errors: 1,
      usage: { input: 20, output: 4 },
    });
  });

  it("has no precision or recall when every run ended in an error: nothing was measured", () => {
    const failed = { error: "The provider's answer could not be read." };
    const summary = summarizeEval([run(["a"], [], failed), run([], [], failed)]);
    expect(summary).toMatchObject({ passed: 0, total: 2, precision: null, recall: null, errors: 2 });
    expect(formatEvalReport([], summary, plain).split("\n")[2]).toBe(
      "0/2 runs passed (0%) · precision n/a (0/0 loads expected) · recall n/a (0/0 expected skills loaded)",
    );
  });
});
