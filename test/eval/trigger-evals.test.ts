// Reading agentskills.io trigger-eval files, and telling them from skillset's cases files.
import { describe, expect, it } from "vitest";
import { isTriggerEvals, parseTriggerEvals } from "../../src/cli/eval/trigger-evals.js";
import { messageOf } from "../helpers/message-of.js";

describe("parseTriggerEvals", () => {
  it("reads the JSON list of queries, in order", () => {
    const text =
      '[{"query": "Profile orders.csv", "should_trigger": true}, {"query": "Convert this json to yaml", "should_trigger": false}]';
    expect(parseTriggerEvals(text, "q.json")).toEqual([
      { query: "Profile orders.csv", shouldTrigger: true },
      { query: "Convert this json to yaml", shouldTrigger: false },
    ]);
  });

  it("reports every problem at once, each naming its query", () => {
    const text = JSON.stringify([
      { query: "a", should_trigger: "yes" },
      { query: "a", should_trigger: true, expected: "x" },
      { should_trigger: false },
      "just text",
    ]);
    expect(messageOf(() => parseTriggerEvals(text, "q.json"))).toBe(
      [
        "q.json has 5 problems:",
        "  query 1: 'should_trigger' must be true or false",
        "  query 2: unknown key 'expected'; a query has query and should_trigger",
        "  query 2: the same query as query 1",
        "  query 3: 'query' must be non-empty text",
        "  query 4: expected a mapping with 'query' and 'should_trigger'",
      ].join("\n"),
    );
  });

  it.each([
    ['{"query": "a"}', 'q.json: expected a list of queries, [{ "query": "…", "should_trigger": true }, …]'],
    ["[]", "q.json: there are no queries"],
    ['[{"query": "a", "query": "b", "should_trigger": true}]', "q.json: Map keys must be unique at line 1, column 17"],
  ])("refuses %j", (text, message) => {
    expect(messageOf(() => parseTriggerEvals(text, "q.json"))).toBe(message);
  });
});

describe("isTriggerEvals", () => {
  it.each([
    ['[{"query": "a", "should_trigger": true}]', true],
    ['[{"should_trigger": true}]', true],
    ["- query: a\n  should_trigger: false\n", true],
    ["- request: a\n  expected: none\n", false],
    ["cases:\n  - query: a\n", false],
    ["[", false],
    ["[]", false],
  ])("%j: %s", (text, expected) => {
    expect(isTriggerEvals(text)).toBe(expected);
  });
});
