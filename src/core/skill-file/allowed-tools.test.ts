import { describe, expect, it } from "vitest";
import { parseAllowedTools } from "./allowed-tools.js";

describe("parseAllowedTools (decision 9)", () => {
  it("splits the spec's space-separated string", () => {
    expect(parseAllowedTools("Read  Write\tBash")).toEqual(["Read", "Write", "Bash"]);
  });

  it("splits commas too", () => {
    expect(parseAllowedTools("Read, Write,Bash")).toEqual(["Read", "Write", "Bash"]);
  });

  it("keeps Claude Code's parenthesised patterns whole", () => {
    expect(parseAllowedTools("Bash(git add:*) Bash(npm run test:*), Read")).toEqual([
      "Bash(git add:*)",
      "Bash(npm run test:*)",
      "Read",
    ]);
  });

  it("accepts YAML lists, splitting entries that hold several tools", () => {
    expect(parseAllowedTools(["Read", "Bash(git:*)", "Grep Glob"])).toEqual(["Read", "Bash(git:*)", "Grep", "Glob"]);
  });

  it("returns nothing for absent or unusable values", () => {
    expect(parseAllowedTools(undefined)).toEqual([]);
    expect(parseAllowedTools("")).toEqual([]);
    expect(parseAllowedTools({ a: "b" })).toEqual([]);
  });
});
