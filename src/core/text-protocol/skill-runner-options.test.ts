import { describe, expect, it } from "vitest";
import { validateSkillRunnerOptions } from "./skill-runner-options.js";

const complete = async () => "";

describe("validateSkillRunnerOptions", () => {
  it("fills in the defaults", () => {
    expect(validateSkillRunnerOptions({ sources: [], complete })).toEqual({
      complete,
      maxIterations: 10,
      maxInstructionsPerReply: 10,
      maxLoadedSkills: 10,
      maxDescriptionLength: 250,
      userInvocation: true,
      catalogBudget: 5000,
      searchSkills: "auto",
    });
  });

  it("keeps given values, catalogBudget false included", () => {
    const settings = validateSkillRunnerOptions({
      sources: [],
      complete,
      maxIterations: 2,
      maxLoadedSkills: 1,
      userInvocation: false,
      catalogBudget: false,
      searchSkills: true,
    });
    expect(settings).toMatchObject({
      maxIterations: 2,
      maxLoadedSkills: 1,
      userInvocation: false,
      catalogBudget: false,
      searchSkills: true,
    });
  });

  it("names every invalid option in one error", () => {
    const options = {
      sources: "skills",
      complete: "model",
      maxLoadedSkills: 0,
      maxDescriptionLength: 1.5,
      catalogBudget: 100,
      searchSkills: "yes",
      catalogPriority: [1],
    };
    expect(() => validateSkillRunnerOptions(options as never)).toThrow(
      "createSkillRunner: sources must be an array of SkillSource objects; complete must be a function (messages) => Promise<string>; " +
        "maxLoadedSkills must be an integer of at least 1, got 0; maxDescriptionLength must be an integer of at least 1, got 1.5; " +
        "catalogBudget must be false or an integer of at least 500, got 100; " +
        'searchSkills must be "auto", true or false, got yes; catalogPriority must be an array of skill names',
    );
  });
});
