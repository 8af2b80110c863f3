// The tuning loop on its own: descriptions measured by a table, proposals scripted, so which
// iteration wins, when the loop stops and what the proposer is shown are exact.
import { describe, expect, it } from "vitest";
import { proposalRequest } from "../../src/cli/eval/propose-description.js";
import type { TriggerQuery } from "../../src/cli/eval/trigger-evals.js";
import { scoreTriggers } from "../../src/cli/eval/trigger-score.js";
import { tuneDescription, type TuneDependencies, type TuneStep } from "../../src/cli/eval/tune-loop.js";

const train: TriggerQuery[] = [
  { query: "t1", shouldTrigger: true },
  { query: "t2", shouldTrigger: false },
];
const validation: TriggerQuery[] = [
  { query: "v1", shouldTrigger: true },
  { query: "v2", shouldTrigger: false },
];
const queries = [...train, ...validation];

/** A measure that makes each description load the skill for exactly the queries listed. */
function measureBy(triggers: Record<string, string[]>): TuneDependencies["measure"] {
  return async (description) => {
    const loads = triggers[description] ?? [];
    const runs = queries.map((entry, index) => ({
      index,
      triggered: loads.includes(entry.query),
      usage: { input: 1, output: 1 },
    }));
    return scoreTriggers("csv-tool", "evals.json", queries, runs);
  };
}

function deps(triggers: Record<string, string[]>, proposals: string[], extra: Partial<TuneDependencies> = {}) {
  const asked: Array<{ current: string; earlier: string[]; problems?: readonly string[] }> = [];
  const dependencies: TuneDependencies = {
    measure: measureBy(triggers),
    propose: async (current, earlier, problems) => {
      asked.push({
        current: current.description,
        earlier: earlier.map((step) => step.description),
        ...(problems ? { problems } : {}),
      });
      return proposals.shift() ?? "out of proposals";
    },
    check: (description) =>
      description.length > 20 ? [`Description exceeds 20 character limit (${description.length} chars)`] : [],
    ...extra,
  };
  return { dependencies, asked };
}

const rates = (steps: TuneStep[]) =>
  steps.map((step) => [step.iteration, step.description, step.trainPass.passed, step.validationPass.passed]);

describe("tuneDescription", () => {
  it("keeps the iteration with the best validation pass rate, not the best train rate nor the last", async () => {
    const { dependencies, asked } = deps({ old: [], first: ["v1"], second: ["t1", "v1", "v2"], third: ["t1"] }, [
      "first",
      "second",
      "third",
    ]);
    const outcome = await tuneDescription("old", { train, validation }, 3, dependencies);
    expect(rates(outcome.steps)).toEqual([
      [0, "old", 1, 1],
      [1, "first", 1, 2],
      [2, "second", 2, 1],
    ]);
    // "second" passed every train query, so there was nothing left to learn from: "third" was never asked for.
    expect(outcome.stopped).toBe("train-passed");
    expect(outcome.best.description).toBe("first");
    expect(asked).toEqual([
      { current: "old", earlier: ["old"] },
      { current: "first", earlier: ["old", "first"] },
    ]);
  });

  it("prefers the earlier step when validation ties, so the current description stays unless one does better", async () => {
    const { dependencies } = deps({ old: [], same: [], again: [] }, ["same", "again"]);
    const outcome = await tuneDescription("old", { train, validation }, 2, dependencies);
    expect(outcome.best.iteration).toBe(0);
    expect(outcome.stopped).toBe("iterations");
  });

  it("asks once more with the validator's messages when a proposal is invalid, and skips the iteration when it is again", async () => {
    const { dependencies, asked } = deps({ old: [], fine: ["t1", "v1"] }, [
      "far too long a description",
      "still far too long to pass",
      "fine",
    ]);
    const outcome = await tuneDescription("old", { train, validation }, 2, dependencies);
    expect(outcome.rejected).toEqual([
      {
        iteration: 1,
        description: "still far too long to pass",
        problems: ["Description exceeds 20 character limit (26 chars)"],
      },
    ]);
    expect(rates(outcome.steps)).toEqual([
      [0, "old", 1, 1],
      [2, "fine", 2, 2],
    ]);
    expect(asked.map((entry) => entry.problems)).toEqual([
      undefined,
      ["Description exceeds 20 character limit (26 chars)"],
      undefined,
    ]);
  });

  it("refuses a proposal that repeats a description already measured, without measuring it again", async () => {
    const measured: string[] = [];
    const measure = measureBy({ old: [], next: ["v1"] });
    const { dependencies, asked } = deps({}, ["old", "next", "next", "old"], {
      measure: (description) => (measured.push(description), measure(description)),
    });
    const outcome = await tuneDescription("old", { train, validation }, 2, dependencies);
    expect(measured).toEqual(["old", "next"]);
    expect(outcome.rejected).toEqual([
      { iteration: 2, description: "old", problems: ["It is a description already tried; propose a different one"] },
    ]);
    expect(asked.map((entry) => entry.problems?.length ?? 0)).toEqual([0, 1, 0, 1]);
  });

  it("stops at once when every train query already passes", async () => {
    const { dependencies, asked } = deps({ old: ["t1"] }, []);
    const outcome = await tuneDescription("old", { train, validation }, 5, dependencies);
    expect(outcome).toMatchObject({ stopped: "train-passed", rejected: [] });
    expect(outcome.steps).toHaveLength(1);
    expect(asked).toEqual([]);
  });
});

describe("proposalRequest", () => {
  it("shows the train failures and earlier train rates, never a validation query", async () => {
    const { dependencies } = deps({ old: ["t2", "v2"], next: ["t1", "t2"] }, ["next", "last"]);
    const outcome = await tuneDescription("old", { train, validation }, 1, dependencies);
    const text = proposalRequest(
      { name: "csv-tool", body: "# csv-tool\nProfiles files." },
      outcome.steps[1]!,
      outcome.steps,
      ["Description exceeds 1024 character limit (1100 chars)"],
    );
    expect(text).toBe(
      [
        "Skill name: csv-tool",
        "",
        "Current description:",
        "next",
        "",
        "Requests it should NOT be loaded for, where it was:",
        "- t2 (1/1 runs loaded the skill)",
        "",
        "Descriptions tried before, with the share of these test requests they got right:",
        "- (0/2) old",
        "",
        "The skill's instructions:",
        "# csv-tool\nProfiles files.",
        "",
        "Write a new description: say what the skill does and when to use it, in the user's terms, and what it is not for. Generalize from the failed requests to the kind of request they stand for; do not copy their words. At most 1024 characters, plain text, no XML tags.",
        "",
        "Your previous answer was refused: Description exceeds 1024 character limit (1100 chars)",
      ].join("\n"),
    );
    expect(text).not.toMatch(/v1|v2/);
  });
});
