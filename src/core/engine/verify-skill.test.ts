import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import { createCatalog } from "../catalog/catalog.js";
import { createSkillEngine, type SkillEngineOptions, type SkillRequest } from "./skill-engine.js";
import type { SkillsLogEntry } from "../skill-events.js";

// The engine's verifySkill hook, before anything of a skill is read: loads and /name invocations.

const skill = (name: string) => `---\nname: ${name}\ndescription: Use ${name}.\n---\nDo ${name}.\n`;

async function setup(verifySkill: SkillEngineOptions["verifySkill"], options: Partial<SkillEngineOptions> = {}) {
  const source = createMemorySource({
    files: { "/s/a/SKILL.md": skill("a"), "/s/a/scripts/run.sh": "echo hi", "/s/b/SKILL.md": skill("b") },
  });
  const reads: string[] = [];
  const readSkill = source.readSkill.bind(source);
  source.readSkill = async (metadata) => {
    reads.push(metadata.name);
    return readSkill(metadata);
  };
  const catalog = createCatalog([source]);
  const entries: SkillsLogEntry[] = [];
  const engine = createSkillEngine({ ...options, verifySkill, logger: (entry) => entries.push(entry) });
  const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
  const request: SkillRequest = {
    state: { skills: refreshed.skills, catalogVersion: refreshed.version, loaded: [], resources: {} },
    sources: async () => catalog.sources,
  };
  return { engine, request, entries, reads };
}

const unverified = (entries: SkillsLogEntry[]) =>
  entries
    .filter((entry) => entry.event === "skill_unverified")
    .map(({ level, message, skill, reason, refused }) => ({ level, message, skill, reason, refused }));

describe("verifySkill", () => {
  it("refuse: the load fails with the reason, nothing of the skill is read, and an error event names it", async () => {
    const { engine, request, entries, reads } = await setup((metadata) =>
      metadata.name === "a" ? { refuse: true, reason: "its files differ from skills-lock.json" } : undefined,
    );
    expect(await engine.load(request, { skill: "a", id: "1" })).toEqual({
      ok: false,
      text: "Error: Skill 'a' is refused: its files differ from skills-lock.json. It cannot be used until it passes verification; continue without it and tell the user.",
    });
    expect(reads).toEqual([]);
    expect((await engine.load(request, { skill: "b", id: "2" })).ok).toBe(true);
    expect(unverified(entries)).toEqual([
      {
        level: "error",
        message: "Skill 'a' refused: its files differ from skills-lock.json",
        skill: "a",
        reason: "its files differ from skills-lock.json",
        refused: true,
      },
    ]);
  });

  it("refuse applies to a user's /name as well", async () => {
    const { engine, request } = await setup(async () => ({
      refuse: true,
      reason: "it is not listed in skills-lock.json",
    }));
    const step = await engine.invoke(request, engine.parseCommand("/b now", request.state)!);
    expect(step).toEqual({
      ok: false,
      text: "Error: Skill 'b' is refused: it is not listed in skills-lock.json. It cannot be used until it passes verification; continue without it and tell the user.",
    });
  });

  it("warn: the skill loads and a warning event says why", async () => {
    const { engine, request, entries } = await setup(() => ({
      refuse: false,
      reason: "it is not listed in skills-lock.json",
    }));
    expect((await engine.load(request, { skill: "a", id: "1" })).ok).toBe(true);
    expect(unverified(entries)).toEqual([
      {
        level: "warn",
        message: "Skill 'a' loaded anyway: it is not listed in skills-lock.json",
        skill: "a",
        reason: "it is not listed in skills-lock.json",
        refused: false,
      },
    ]);
  });

  it("a check that throws refuses: a skill that could not be verified is not a verified one", async () => {
    const { engine, request } = await setup(() => {
      throw new Error("EACCES: permission denied");
    });
    const step = await engine.load(request, { skill: "a", id: "1" });
    expect(step).toEqual({
      ok: false,
      text: "Error: Skill 'a' is refused: it could not be verified (EACCES: permission denied). It cannot be used until it passes verification; continue without it and tell the user.",
    });
  });

  it("a loaded skill's resources and scripts are checked again: a change after the load refuses them", async () => {
    let changed = false;
    const runs: string[][] = [];
    const executor = {
      specificationVersion: "v1" as const,
      async run({ argv }: { argv: readonly string[] }) {
        runs.push([...argv]);
        return {
          exitCode: 0,
          stdout: "",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          timedOut: false,
          durationMs: 1,
        };
      },
    };
    const { engine, request, entries } = await setup(
      () => (changed ? { refuse: true, reason: "its files differ from skills-lock.json" } : undefined),
      { scripts: { executor, defaultAllowedCommands: ["sh"] } },
    );
    const loaded = { ...request, state: { ...request.state, loaded: ["a"] } };
    expect((await engine.readResource(loaded, { skill: "a", path: "scripts/run.sh" })).ok).toBe(true);
    changed = true;
    const refused =
      "Error: Skill 'a' is refused: its files differ from skills-lock.json. It cannot be used until it passes verification; continue without it and tell the user.";
    expect(await engine.readResource(loaded, { skill: "a", path: "scripts/run.sh" })).toEqual({
      ok: false,
      text: refused,
    });
    expect(await engine.runScript(loaded, { skill: "a", command: "sh scripts/run.sh" })).toEqual({
      ok: false,
      text: refused,
    });
    expect(runs).toEqual([]);
    expect(unverified(entries).map((entry) => entry.message)).toEqual([
      "Skill 'a' refused: its files differ from skills-lock.json",
      "Skill 'a' refused: its files differ from skills-lock.json",
    ]);
  });

  it("warn: a read after a change goes ahead, and the event says it was read anyway", async () => {
    const { engine, request, entries } = await setup(() => ({
      refuse: false,
      reason: "its files differ from skills-lock.json",
    }));
    const loaded = { ...request, state: { ...request.state, loaded: ["a"] } };
    expect((await engine.readResource(loaded, { skill: "a", path: "scripts/run.sh" })).ok).toBe(true);
    expect(unverified(entries).map((entry) => entry.message)).toEqual([
      "Skill 'a' read anyway: its files differ from skills-lock.json",
    ]);
  });
});
