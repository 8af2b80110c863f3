// Reading `skillset eval` cases files: the accepted forms, and every problem named with its case.
import { describe, expect, it } from "vitest";
import { parseEvalCases } from "../../src/cli/eval/eval-cases.js";
import { messageOf } from "../helpers/message-of.js";

describe("parseEvalCases", () => {
  it("reads YAML with `cases:`, every form of `expected`, turns, drafts and default ids", () => {
    const text = [
      "cases:",
      "  - id: one",
      "    request: Check orders.csv",
      "    expected: csv-insights",
      "  - request: Hello",
      "    expected: none",
      "  - request: Nothing either",
      "    expected: []",
      "  - id: two",
      "    request: Profile and draft notes",
      "    expected: [release-notes, csv-insights, csv-insights]",
      "    turns:",
      "      - and then?",
      "    draft: true",
    ].join("\n");
    expect(parseEvalCases(text, "cases.yaml")).toEqual([
      { id: "one", request: "Check orders.csv", expected: ["csv-insights"], turns: [], draft: false },
      { id: "case-2", request: "Hello", expected: [], turns: [], draft: false },
      { id: "case-3", request: "Nothing either", expected: [], turns: [], draft: false },
      {
        id: "two",
        request: "Profile and draft notes",
        expected: ["csv-insights", "release-notes"],
        turns: ["and then?"],
        draft: true,
      },
    ]);
  });

  it("reads JSON, and a plain list of cases", () => {
    expect(parseEvalCases('[{"request": "Hi", "expected": "none"}]', "cases.json")).toEqual([
      { id: "case-1", request: "Hi", expected: [], turns: [], draft: false },
    ]);
  });

  it("reports every problem at once, each naming its case", () => {
    const text = [
      "- id: a",
      "  request: Hi",
      "  expect: csv-insights",
      "- id: a",
      "  request: ''",
      "  expected: [csv insights]",
      "- request: Hello",
      "  expected: x",
      "  turns: [ok, 3]",
      "  draft: yes",
      "- just text",
    ].join("\n");
    expect(messageOf(() => parseEvalCases(text, "cases.yaml"))).toBe(
      [
        "cases.yaml has 8 problems:",
        "  case 1 (a): unknown key 'expect'; a case has id, request, expected, turns and draft",
        "  case 1 (a): 'expected' is missing: give the skill that should be loaded, a list of them, or none",
        "  case 2 (a): the id 'a' is used by an earlier case",
        "  case 2 (a): 'request' must be non-empty text",
        "  case 2 (a): 'expected' must be a skill name, a list of skill names, or none",
        "  case 3 (case-3): 'turns' must be a list of non-empty messages",
        "  case 3 (case-3): 'draft' must be true or false",
        "  case 4: expected a mapping with 'request' and 'expected'",
      ].join("\n"),
    );
  });

  it.each([
    ["a: 1\n", "cases.yaml: expected a list of cases, or a mapping with only the key 'cases' holding one"],
    ["cases: []\n", "cases.yaml: there are no cases"],
    ["cases:\n  - request: a\n    request: b\n", "cases.yaml: Map keys must be unique at line 3, column 5"],
    ["[", "cases.yaml: Flow sequence must end with a ] at line 1, column 2"],
  ])("refuses %j", (text, message) => {
    expect(messageOf(() => parseEvalCases(text, "cases.yaml"))).toBe(message);
  });
});

describe("parseEvalCases with the sources' skills", () => {
  it("names a case expecting a skill no source has", () => {
    const text = "- {id: a, request: x, expected: [csv-insight]}\n- {id: b, request: y, expected: none}";
    expect(messageOf(() => parseEvalCases(text, "cases.yaml", ["csv-insights", "release-notes"]))).toBe(
      "cases.yaml: case 1 (a): expects the skill 'csv-insight', which none of the sources has (skills: csv-insights, release-notes)",
    );
    expect(parseEvalCases(text, "cases.yaml", ["csv-insight"]).map((entry) => entry.expected)).toEqual([
      ["csv-insight"],
      [],
    ]);
  });

  it("reports a case's structural problems and unknown skills together, in the order of the cases", () => {
    const text = [
      "- id: a",
      "  request: Hi",
      "  expected: csv-insight",
      "- id: b",
      "  request: ''",
      "  expected: [csv-insights, release-note]",
      "- request: Hello",
      "  expect: none",
    ].join("\n");
    expect(messageOf(() => parseEvalCases(text, "cases.yaml", ["csv-insights", "release-notes"]))).toBe(
      [
        "cases.yaml has 5 problems:",
        "  case 1 (a): expects the skill 'csv-insight', which none of the sources has (skills: csv-insights, release-notes)",
        "  case 2 (b): 'request' must be non-empty text",
        "  case 2 (b): expects the skill 'release-note', which none of the sources has (skills: csv-insights, release-notes)",
        "  case 3 (case-3): unknown key 'expect'; a case has id, request, expected, turns and draft",
        "  case 3 (case-3): 'expected' is missing: give the skill that should be loaded, a list of them, or none",
      ].join("\n"),
    );
  });
});
