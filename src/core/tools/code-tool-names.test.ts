import { describe, expect, it } from "vitest";
import { codeToolName } from "./code-tool-names.js";

describe("codeToolName", () => {
  it.each([
    ["read_file", "readFile"],
    ["write_todos", "writeTodos"],
    ["list-issues", "listIssues"],
    ["get__v2_item", "getV2Item"],
    ["readFile", "readFile"],
    ["_private", "_private"],
    ["trailing_", "trailing_"],
    ["lookup", "lookup"],
  ])("%s is tools.%s", (tool, name) => {
    expect(codeToolName(tool)).toBe(name);
  });
});
