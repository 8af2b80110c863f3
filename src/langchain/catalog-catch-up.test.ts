import { describe, expect, it } from "vitest";
import { wroteUnderSource } from "./catalog-catch-up.js";

const step = (name: string, args: Record<string, unknown>) => [{ tool_calls: [{ name, args }] }, { type: "tool" }];

describe("wroteUnderSource", () => {
  it("is true for write_file / edit_file under a string source, whatever the spelling of the folder", () => {
    expect(wroteUnderSource(step("write_file", { file_path: "/skills/fresh/SKILL.md" }), ["/skills/"])).toBe(true);
    expect(wroteUnderSource(step("edit_file", { file_path: "/skills/fresh/SKILL.md" }), ["/skills"])).toBe(true);
    expect(wroteUnderSource(step("write_file", { path: "skills/fresh/SKILL.md" }), ["./skills"])).toBe(true);
    expect(wroteUnderSource(step("write_file", { file_path: "C:\\skills\\fresh\\SKILL.md" }), ["C:\\skills"])).toBe(
      true,
    );
  });

  it("is false elsewhere, for other tools, for a folder that only starts alike, and for the steps before the last", () => {
    expect(wroteUnderSource(step("write_file", { file_path: "/notes/a.md" }), ["/skills/"])).toBe(false);
    expect(wroteUnderSource(step("read_file", { file_path: "/skills/a/SKILL.md" }), ["/skills/"])).toBe(false);
    expect(wroteUnderSource(step("write_file", { file_path: "/skills-old/a/SKILL.md" }), ["/skills"])).toBe(false);
    expect(
      wroteUnderSource(
        [...step("write_file", { file_path: "/skills/a/SKILL.md" }), ...step("read_file", { file_path: "/x" })],
        ["/skills/"],
      ),
    ).toBe(false);
    expect(wroteUnderSource(step("write_file", { file_path: "/skills/a/SKILL.md" }), [])).toBe(false);
  });
});
