import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { createEngineContext } from "./engine-context.js";
import { loadedSkillSource, readFailureMessage, readSkillText, sourceOf } from "./skill-reader.js";

const meta = (name: string, source = "memory"): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source,
});

describe("skill reader", () => {
  const source = createMemorySource({
    files: { "/s/a/SKILL.md": "---\nname: a\n---\nDo a.\n", "/s/bad/SKILL.md": new Uint8Array([0xff, 0xfe]) },
  });
  const request = (loaded: string[] = []): SkillRequest => ({
    state: { skills: [meta("a"), meta("b", "elsewhere")], loaded, resources: {} },
    sources: async () => [source],
  });

  it("finds a skill's source among the request's, or says it is not configured", async () => {
    expect(await sourceOf(request(), meta("a"))).toBe(source);
    await expect(sourceOf(request(), meta("b", "elsewhere"))).rejects.toThrow(
      "its source 'elsewhere' is not configured in this agent",
    );
  });

  it("reads SKILL.md as UTF-8, and names the file when it is not", async () => {
    expect(await readSkillText(source, meta("a"))).toBe("---\nname: a\n---\nDo a.\n");
    const error = await readSkillText(source, meta("bad")).catch((caught: unknown) => caught);
    expect(SkillsetError.isInstance(error) && error.code).toBe("not-utf8");
    expect(readFailureMessage("/s/bad/SKILL.md", error)).toBe(
      "Error: Failed to decode skill file at /s/bad/SKILL.md: The encoded data was not valid for encoding utf-8",
    );
  });

  it("puts other failures after the file they concern", () => {
    expect(
      readFailureMessage(
        "/s/a/SKILL.md",
        new SkillsetError("cannot-read", "its source 'x' is not configured in this agent"),
      ),
    ).toBe("Error: Failed to read skill file at /s/a/SKILL.md: its source 'x' is not configured in this agent");
    expect(readFailureMessage("/s/a/SKILL.md", "gone")).toBe("Error: Failed to read skill file at /s/a/SKILL.md: gone");
  });

  it("gives a loaded skill with its source, and says why not otherwise", async () => {
    const context = createEngineContext({});
    expect(await loadedSkillSource(context, request(["a"]), "a")).toEqual({ skill: meta("a"), source });
    expect(await loadedSkillSource(context, request([]), "a")).toEqual({
      error: "Error: Skill 'a' is not loaded. Load it with load_skill first.",
    });
    expect(await loadedSkillSource(context, request(["b"]), "b")).toEqual({
      error: "Error: Skill 'b' is no longer available from its source.",
    });
  });
});
