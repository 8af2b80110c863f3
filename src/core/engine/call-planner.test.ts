import { describe, expect, it } from "vitest";
import type { SkillCall } from "../loaded/plan-skill-calls.js";
import type { SkillsLogEntry } from "../skill-events.js";
import type { SkillEngineOptions, SkillRequest, SkillThreadState } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { rendering } from "./catalog-cache.js";
import { planCall, refuse, refuseLoad } from "./call-planner.js";
import { createEngineContext } from "./engine-context.js";

const meta = (name: string, extra: Partial<SkillMetadata> = {}): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
  ...extra,
});
const catalog = rendering([
  meta("a"),
  meta("b"),
  meta("user-only", { disableModelInvocation: true }),
  meta("f", { context: "fork" }),
]);
const state = (loaded: string[]): SkillThreadState => ({ loaded, resources: {} });
const load = (id: string, skill: string): SkillCall => ({ id, action: "load", skill });

function setup(options: SkillEngineOptions = {}) {
  const entries: SkillsLogEntry[] = [];
  const context = createEngineContext({ ...options, logger: (entry) => entries.push(entry) });
  const request: SkillRequest = { state: state([]), sources: async () => [] };
  return { context, request, entries };
}

describe("planCall", () => {
  it("refuses a load over the budget, naming the loaded skills", () => {
    const { context } = setup({ maxLoadedSkills: 1 });
    expect(planCall(context, state(["a"]), catalog, load("1", "b"), undefined)).toEqual({
      outcome: "budget",
      loaded: ["a"],
      takenInThisStep: [],
    });
  });

  it("plans a call with the other calls of its step: an earlier load takes the last slot", () => {
    const { context } = setup({ maxLoadedSkills: 1 });
    const calls = [load("1", "a"), load("2", "b")];
    expect(planCall(context, state([]), catalog, calls[0]!, calls)).toEqual({ outcome: "load" });
    expect(planCall(context, state([]), catalog, calls[1]!, calls)).toEqual({
      outcome: "budget",
      loaded: [],
      takenInThisStep: ["a"],
    });
  });

  it("plans a call alone when the step's calls do not include it", () => {
    const { context } = setup({ maxLoadedSkills: 1 });
    expect(planCall(context, state([]), catalog, load("2", "b"), [load("1", "a")])).toEqual({ outcome: "load" });
  });

  it("does not find an unknown skill, nor one only the user may invoke", () => {
    const { context } = setup();
    expect(planCall(context, state([]), catalog, load("1", "missing"), undefined)).toEqual({ outcome: "not-found" });
    expect(planCall(context, state([]), catalog, load("1", "user-only"), undefined)).toEqual({ outcome: "not-found" });
  });

  it("refuses to unload a skill that is not loaded", () => {
    const { context } = setup();
    expect(planCall(context, state(["a"]), catalog, { id: "1", action: "unload", skill: "b" }, undefined)).toEqual({
      outcome: "not-loaded",
      loaded: ["a"],
    });
  });

  it("with forkSkills, a fork takes no slot: it loads with every slot taken, and other loads do not count it", () => {
    const { context } = setup({ maxLoadedSkills: 1, forkSkills: true });
    expect(planCall(context, state(["a"]), catalog, load("1", "f"), undefined)).toEqual({ outcome: "load" });
    const calls = [load("1", "f"), load("2", "b")];
    expect(planCall(context, state([]), catalog, calls[1]!, calls)).toEqual({ outcome: "load" });
  });

  it("without forkSkills, a fork skill takes a slot as any skill does", () => {
    const { context } = setup({ maxLoadedSkills: 1 });
    expect(planCall(context, state(["a"]), catalog, load("1", "f"), undefined)).toEqual({
      outcome: "budget",
      loaded: ["a"],
      takenInThisStep: [],
    });
    const calls = [load("1", "f"), load("2", "b")];
    expect(planCall(context, state([]), catalog, calls[1]!, calls)).toEqual({
      outcome: "budget",
      loaded: [],
      takenInThisStep: ["f"],
    });
  });
});

describe("refuse / refuseLoad", () => {
  it("lets a load or an unload go ahead without an event", () => {
    const { context, request, entries } = setup();
    expect(refuse(context, request, "load_skill", "a", { outcome: "load" })).toBeUndefined();
    expect(refuse(context, request, "unload_skill", "a", { outcome: "unload" })).toBeUndefined();
    expect(entries).toEqual([]);
  });

  it("refuses with the model's text and a skill_refused event", () => {
    const { context, request, entries } = setup();
    expect(refuse(context, request, "unload_skill", "b", { outcome: "not-loaded", loaded: ["a"] })).toEqual({
      ok: false,
      text: "Error: Skill 'b' is not currently loaded. Currently loaded skills: a.",
    });
    expect(entries).toEqual([
      {
        level: "warn",
        event: "skill_refused",
        message: "unload_skill('b') refused: not-loaded",
        skill: "b",
        reason: "not-loaded",
      },
    ]);
  });

  it("names every skill the model may load when an unknown one is asked for in a small catalog", async () => {
    const { context, request } = setup();
    expect(await refuseLoad(context, request, "missing", { outcome: "not-found" }, catalog)).toEqual({
      ok: false,
      text: "Error: Skill 'missing' not found. Available skills: a, b, f",
    });
  });

  it("names the closest matches, and the search tool when offered, in a large catalog", async () => {
    const large = rendering([
      ...Array.from({ length: 50 }, (_, index) => meta(`filler-${index}`, { description: "Nothing relevant." })),
      meta("pdf-tools", { description: "Fill PDF forms." }),
    ]);
    const offered = setup({ search: { offer: "always" } });
    expect(await refuseLoad(offered.context, offered.request, "pdf_tools", { outcome: "not-found" }, large)).toEqual({
      ok: false,
      text: "Error: Skill 'pdf_tools' not found. Closest matches: pdf-tools. Find other skills with search_skills.",
    });
    const unoffered = setup({ search: { offer: "never" } });
    expect(
      await refuseLoad(unoffered.context, unoffered.request, "pdf_tools", { outcome: "not-found" }, large),
    ).toEqual({ ok: false, text: "Error: Skill 'pdf_tools' not found. Closest matches: pdf-tools." });
  });
});
