// The activity lines the chat prints on stderr for the middleware's events and for tool calls.
import { describe, expect, it } from "vitest";
import { describeSkillEvent, describeToolActivity } from "../../src/cli/chat/activity.js";
import type { SkillsLogEntry } from "../../src/index.js";

const entry = (fields: Partial<SkillsLogEntry> & Pick<SkillsLogEntry, "event">): SkillsLogEntry => ({
  level: "info",
  message: "the engine's message",
  ...fields,
});

describe("describeSkillEvent", () => {
  it.each([
    [entry({ event: "skill_loaded", skill: "csv", resources: 1 }), { level: "info", text: "loaded csv (1 resource)" }],
    [entry({ event: "skill_loaded", skill: "csv", resources: 4 }), { level: "info", text: "loaded csv (4 resources)" }],
    [
      entry({ event: "skill_invoked", skill: "review", arguments: "42 high" }),
      { level: "info", text: "invoked /review 42 high" },
    ],
    [entry({ event: "skill_invoked", skill: "review", arguments: "" }), { level: "info", text: "invoked /review" }],
    [
      entry({ event: "skill_unloaded", skill: "old", reason: "user-invocation" }),
      { level: "info", text: "unloaded old to make room" },
    ],
    [
      entry({ event: "skill_unloaded", level: "warn", skill: "gone" }),
      { level: "warn", text: "unloaded gone: it is no longer in any source" },
    ],
    [entry({ event: "skill_unloaded", skill: "csv" }), { level: "info", text: "unloaded csv" }],
    [
      entry({
        event: "script_ran",
        skill: "csv",
        argv: ["python3", "scripts/p.py", "a.csv"],
        exitCode: 0,
        durationMs: 12,
      }),
      { level: "info", text: "ran python3 scripts/p.py a.csv in csv (exit 0, 12 ms)" },
    ],
    [
      entry({
        event: "script_ran",
        level: "warn",
        skill: "csv",
        argv: ["scripts/slow"],
        exitCode: null,
        timedOut: true,
        durationMs: 60000,
      }),
      { level: "warn", text: "ran scripts/slow in csv (timed out, 60000 ms)" },
    ],
    [
      entry({ event: "skill_refused", level: "warn", message: "load_skill('x') refused: not-found" }),
      { level: "warn", text: "load_skill('x') refused: not-found" },
    ],
  ])("%j", (event, line) => {
    expect(describeSkillEvent(event)).toEqual(line);
  });
});

describe("describeToolActivity", () => {
  it("says which resource was read, or why it could not be", () => {
    expect(
      describeToolActivity({
        name: "read_skill_resource",
        args: { skill_name: "csv", path: "references/a.md" },
        result: "[…]",
        error: false,
      }),
    ).toEqual({ level: "info", text: "read csv/references/a.md" });
    expect(
      describeToolActivity({
        name: "read_skill_resource",
        args: { skill_name: "csv", path: "x.md" },
        result: "Error: Skill 'csv' is not loaded. Load it first.\nmore",
        error: true,
      }),
    ).toEqual({
      level: "warn",
      text: "read csv/x.md failed: Skill 'csv' is not loaded. Load it first.",
    });
  });

  it("names the file tools' targets, and leaves the skill tools to their events", () => {
    expect(
      describeToolActivity({ name: "grep", args: { pattern: "TODO", path: "src" }, result: "", error: false }),
    ).toEqual({ level: "info", text: "grep TODO in src" });
    expect(describeToolActivity({ name: "ls", args: {}, result: "", error: false })).toEqual({
      level: "info",
      text: "ls .",
    });
    for (const name of ["load_skill", "unload_skill", "run_skill_script", "search_skills"])
      expect(describeToolActivity({ name, args: {}, result: "", error: false })).toBeUndefined();
  });
});
