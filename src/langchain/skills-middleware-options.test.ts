import { describe, expect, it } from "vitest";
import type { ScriptExecutor } from "../exec/script-executor.js";
import { createMemorySource } from "../sources/memory-source.js";
import {
  ALWAYS_ALLOWED_TOOLS,
  parseSkillsMiddlewareOptions,
  type SkillsMiddlewareOptions,
} from "./skills-middleware-options.js";

// Never run here: the schema checks only that it has `run`.
const executor = {
  specificationVersion: "v1",
  run: () => Promise.reject(new Error("not run in these tests")),
} as unknown as ScriptExecutor;

// The error `parseSkillsMiddlewareOptions` throws, as code and message.
function refusal(options: unknown): { code: string; message: string } {
  try {
    parseSkillsMiddlewareOptions(options as SkillsMiddlewareOptions);
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error("the options were accepted");
}

describe("parseSkillsMiddlewareOptions", () => {
  it("fills in every default from sources alone", () => {
    expect(parseSkillsMiddlewareOptions({ sources: ["./skills"] })).toEqual({
      sources: ["./skills"],
      recursive: false,
      maxLoadedSkills: 10,
      allowedToolsPolicy: "recommend",
      alwaysAllowedTools: [],
      maxDescriptionLength: 250,
      readResourceTool: "auto",
      userInvocation: true,
      catalogBudget: 5000,
      codeMode: false,
      searchSkills: "auto",
      protocol: "tools",
      subagentSkills: "isolated",
      forkLimits: { maxSteps: 20, maxDepth: 1 },
    });
  });

  it("keeps the values given, and fills defaults inside the nested options", () => {
    const source = createMemorySource();
    const parsed = parseSkillsMiddlewareOptions({
      sources: ["./skills", source],
      maxLoadedSkills: 3,
      allowedToolsPolicy: "restrict",
      catalogBudget: false,
      searchSkills: true,
      runScripts: { executor },
      forkAgents: false,
      forkLimits: { maxSteps: 5 },
      protocol: "text",
    });
    expect(parsed.sources).toEqual(["./skills", source]);
    expect(parsed).toMatchObject({
      maxLoadedSkills: 3,
      allowedToolsPolicy: "restrict",
      catalogBudget: false,
      searchSkills: true,
      forkAgents: false,
      protocol: "text",
    });
    expect(parsed.runScripts).toEqual({ executor, defaultAllowedCommands: ["scripts/*"] });
    expect(parsed.forkLimits).toEqual({ maxSteps: 5, maxDepth: 1 });
  });

  it("accepts an empty sources list (no skills yet), as deepagents does", () => {
    expect(parseSkillsMiddlewareOptions({ sources: [] }).sources).toEqual([]);
  });

  it("accepts the smallest catalog budget and a backend factory", () => {
    const factory = () => ({}) as never;
    expect(parseSkillsMiddlewareOptions({ sources: ["/skills"], catalogBudget: 500, backend: factory })).toMatchObject({
      catalogBudget: 500,
      backend: factory,
    });
  });

  it.each<[string, unknown, string]>([
    ["no sources", {}, "createSkillsMiddleware: ✖ Invalid input: expected array, received undefined\n  → at sources"],
    [
      "an absolute folder that does not exist, without a backend",
      { sources: ["/no/such/skills"] },
      "createSkillsMiddleware: the source '/no/such/skills' does not exist on this machine and no backend is given. If it is a path on a deepagents backend (StateBackend, StoreBackend, …), pass that backend: createSkillsMiddleware({ sources, backend }), or switch with createDeepAgent(withSkillset(params)). If it is a local folder, create it first.",
    ],
    [
      "an empty source path",
      { sources: [""] },
      "createSkillsMiddleware: ✖ Too small: expected string to have >=1 characters\n  → at sources[0]",
    ],
    [
      "a source that is no SkillSource",
      { sources: [{ scan: () => [] }] },
      "createSkillsMiddleware: ✖ Invalid input\n  → at sources[0]",
    ],
    [
      "a budget of no skills",
      { sources: ["a"], maxLoadedSkills: 0 },
      "createSkillsMiddleware: ✖ Too small: expected number to be >0\n  → at maxLoadedSkills",
    ],
    [
      "a fractional budget",
      { sources: ["a"], maxLoadedSkills: 1.5 },
      "createSkillsMiddleware: ✖ Invalid input: expected int, received number\n  → at maxLoadedSkills",
    ],
    [
      "an unknown policy",
      { sources: ["a"], allowedToolsPolicy: "block" },
      'createSkillsMiddleware: ✖ Invalid option: expected one of "recommend"|"restrict"\n  → at allowedToolsPolicy',
    ],
    [
      "a catalog budget under 500",
      { sources: ["a"], catalogBudget: 499 },
      "createSkillsMiddleware: ✖ Too small: expected number to be >=500\n  → at catalogBudget",
    ],
    [
      "catalogBudget: true",
      { sources: ["a"], catalogBudget: true },
      "createSkillsMiddleware: ✖ Invalid input\n  → at catalogBudget",
    ],
    [
      "an executor without run",
      { sources: ["a"], runScripts: { executor: {} } },
      "createSkillsMiddleware: ✖ a ScriptExecutor\n  → at runScripts.executor",
    ],
    [
      "no search rankers",
      { sources: ["a"], searchRankers: [] },
      "createSkillsMiddleware: ✖ Too small: expected array to have >=1 items\n  → at searchRankers",
    ],
    [
      "forkAgents: true",
      { sources: ["a"], forkAgents: true },
      "createSkillsMiddleware: ✖ Invalid input\n  → at forkAgents",
    ],
    [
      "a fork limit of no steps",
      { sources: ["a"], forkLimits: { maxSteps: 0 } },
      "createSkillsMiddleware: ✖ Too small: expected number to be >0\n  → at forkLimits.maxSteps",
    ],
  ])("refuses %s", (_, options, message) => {
    expect(refusal(options)).toEqual({ code: "invalid-options", message });
  });

  it("names every wrong option at once", () => {
    expect(refusal({ sources: ["a"], logger: "console", maxDescriptionLength: -1 }).message).toBe(
      "createSkillsMiddleware: ✖ Too small: expected number to be >0\n  → at maxDescriptionLength\n✖ Invalid input\n  → at logger",
    );
  });

  it("refuses skillTools and hooks under the text protocol, skillTools first", () => {
    expect(refusal({ sources: ["a"], protocol: "text", skillTools: [] })).toEqual({
      code: "invalid-options",
      message: 'createSkillsMiddleware: skillTools needs protocol: "tools"; the text protocol offers no tools',
    });
    expect(refusal({ sources: ["a"], protocol: "text", hooks: { executor } })).toEqual({
      code: "invalid-options",
      message: 'createSkillsMiddleware: hooks needs protocol: "tools"',
    });
    expect(refusal({ sources: ["a"], protocol: "text", skillTools: [], hooks: { executor } }).message).toBe(
      'createSkillsMiddleware: skillTools needs protocol: "tools"; the text protocol offers no tools',
    );
  });
});

describe("ALWAYS_ALLOWED_TOOLS", () => {
  it("lists the file-reading tools and the resource tools", () => {
    expect(ALWAYS_ALLOWED_TOOLS).toEqual([
      "read_file",
      "ls",
      "glob",
      "grep",
      "write_todos",
      "read_skill_resource",
      "run_skill_script",
    ]);
  });
});
