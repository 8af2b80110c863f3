import { tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMemorySource } from "../sources/memory-source.js";
import { createMiddlewareContext } from "./middleware-context.js";
import { parseSkillsMiddlewareOptions, type SkillsMiddlewareOptions } from "./skills-middleware-options.js";

const contextFor = (options: SkillsMiddlewareOptions) =>
  createMiddlewareContext(parseSkillsMiddlewareOptions(options), () => ({}) as never);
const fakeTool = (name: string) => tool(() => "", { name, description: name, schema: z.object({}) });

describe("createMiddlewareContext", () => {
  it("builds the engine from the options", () => {
    expect(contextFor({ sources: [createMemorySource()], maxLoadedSkills: 4 }).engine.maxLoaded).toBe(4);
  });

  it("lets restrict pass the skill tools, the always-allowed tools and the integrator's", () => {
    expect([...contextFor({ sources: ["./skills"], alwaysAllowedTools: ["web_search"] }).alwaysAllowed]).toEqual([
      "load_skill",
      "unload_skill",
      "search_skills",
      "read_file",
      "ls",
      "glob",
      "grep",
      "write_todos",
      "read_skill_resource",
      "run_skill_script",
      "web_search",
    ]);
  });

  it("runs forks only under the tools protocol and unless forkAgents is false", () => {
    expect(contextFor({ sources: ["./skills"] }).runFork).toBeTypeOf("function");
    expect(contextFor({ sources: ["./skills"], forkAgents: false }).runFork).toBeUndefined();
    expect(contextFor({ sources: ["./skills"], protocol: "text" }).runFork).toBeUndefined();
  });

  it("selects models and provides skill tools only when the options give them", () => {
    const plain = contextFor({ sources: ["./skills"] });
    expect([plain.selectModel, plain.skillTools]).toEqual([undefined, undefined]);
    const full = contextFor({ sources: ["./skills"], models: {}, skillTools: [fakeTool("list_issues")] });
    expect(full.selectModel).toBeTypeOf("function");
    expect(full.skillTools?.isSkillTool("list_issues")).toBe(true);
  });

  it("reserves only the names of the tools the middleware offers for itself", () => {
    expect(() => contextFor({ sources: ["./skills"], skillTools: [fakeTool("search_skills")] })).toThrow(
      "createSkillsMiddleware: skillTools: 'search_skills' is the name of a skills middleware tool",
    );
    expect(
      contextFor({ sources: ["./skills"], searchSkills: false, skillTools: [fakeTool("search_skills")] }).toolNames,
    ).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
  });

  it("shares one catalog between runs over fixed sources", async () => {
    const source = createMemorySource();
    const context = contextFor({ sources: [source] });
    const catalog = await context.catalogFor({});
    expect(await context.catalogFor({ other: "run" })).toBe(catalog);
    expect(catalog.sources).toEqual([source]);
  });

  it("gives every run of a backend factory its own catalog, built over the run's backend", async () => {
    const runtimes: unknown[] = [];
    const context = contextFor({
      sources: ["/skills"],
      backend: (runtime: unknown) => {
        runtimes.push(runtime);
        return { ls: () => [] };
      },
    });
    const first = await context.catalogFor({ run: 1 });
    const second = await context.catalogFor({ run: 2 });
    expect(second).not.toBe(first);
    expect(first.sources.map((source) => source.id)).toEqual(["backend:/skills/"]);
    await first.refresh();
    expect(runtimes).toEqual([{ run: 1 }]);
  });

  it("turns graph state and runtime into an engine request, events going to the stream writer", async () => {
    const source = createMemorySource();
    const chunks: unknown[] = [];
    const context = contextFor({ sources: [source] });
    const request = context.requestFor(
      { skillsLoaded: ["pdf"], _skillsCatalogVersion: "v1" },
      { writer: (chunk: unknown) => chunks.push(chunk) },
    );
    expect(request.state).toEqual({ catalogVersion: "v1", loaded: ["pdf"], resources: {} });
    expect(request.sessionId).toBeUndefined();
    expect(await request.sources()).toEqual([source]);
    request.emit?.({ level: "info", event: "skill_loaded", message: "loaded" });
    expect(chunks).toEqual([{ type: "skillset", level: "info", event: "skill_loaded", message: "loaded" }]);
    expect(context.requestFor({}, {}).emit).toBeUndefined();
  });
});
