import { describe, expect, it } from "vitest";
import { middlewareToolNames } from "./middleware-tool-names.js";

describe("middlewareToolNames", () => {
  it("always has load_skill and unload_skill, and search_skills unless searchSkills is false", () => {
    expect(middlewareToolNames({ searchSkills: "auto", readResourceTool: false, runScripts: undefined })).toEqual([
      "load_skill",
      "unload_skill",
      "search_skills",
    ]);
    expect(middlewareToolNames({ searchSkills: true, readResourceTool: false, runScripts: undefined })).toEqual([
      "load_skill",
      "unload_skill",
      "search_skills",
    ]);
    expect(middlewareToolNames({ searchSkills: false, readResourceTool: false, runScripts: undefined })).toEqual([
      "load_skill",
      "unload_skill",
    ]);
  });

  it("adds the resource tools the options ask for, after the skill tools", () => {
    const runScripts = { executor: {} as never, defaultAllowedCommands: [] };
    expect(middlewareToolNames({ searchSkills: false, readResourceTool: true, runScripts })).toEqual([
      "load_skill",
      "unload_skill",
      "read_skill_resource",
      "run_skill_script",
    ]);
    expect(middlewareToolNames({ searchSkills: "auto", readResourceTool: false, runScripts })).toEqual([
      "load_skill",
      "unload_skill",
      "search_skills",
      "run_skill_script",
    ]);
  });
});
