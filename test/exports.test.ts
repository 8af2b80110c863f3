import { describe, expect, it } from "vitest";

// The public surface is deliberate: adding or removing an export must change this list too.
describe("public exports", () => {
  it("skillset (framework- and runtime-free core)", async () => {
    expect(Object.keys(await import("../src/index.js")).sort()).toEqual([
      "CATALOG_GUIDANCE",
      "CLAUDE_CODE_FIELDS",
      "DEFAULT_ALLOWED_COMMANDS",
      "DEFAULT_CATALOG_BUDGET",
      "DEFAULT_RELEVANCE_FLOOR",
      "DEFAULT_RESOURCE_LIMITS",
      "INCLUDE_TOOLS_KEY",
      "MAX_COMPATIBILITY_LENGTH",
      "MAX_DESCRIPTION_LENGTH",
      "MAX_NAME_LENGTH",
      "MAX_RESOURCE_BYTES",
      "MAX_SKILL_FILE_BYTES",
      "RECOMMENDED_BODY_LIMITS",
      "SPEC_FIELDS",
      "SkillParseError",
      "SkillsetError",
      "applySkillOperations",
      "applyToLoaded",
      "applyToResources",
      "checkResourcePath",
      "classifyResource",
      "collectSkills",
      "countTokens",
      "createBackendSource",
      "createCatalog",
      "createEmbeddingRanker",
      "createLexicalRanker",
      "createMemorySource",
      "createSandboxExecutor",
      "createSkillEngine",
      "createSkillRunner",
      "diagnoseLibrary",
      "disclosedTools",
      "discoverResources",
      "formatDiagnostic",
      "fuseRankings",
      "includedTools",
      "inspectSkill",
      "inspectSkillFile",
      "isCommandAllowed",
      "listInvocableSkills",
      "parseAllowedTools",
      "parseCommand",
      "parseSkillCommand",
      "parseSkillDocument",
      "parseSkillInstructions",
      "renderCatalog",
      "renderCatalogMarkdown",
      "renderCatalogXml",
      "renderInstructions",
      "renderTextProtocolPrompt",
      "runSkillInstructions",
      "skillDirectory",
      "skillToolsNote",
      "splitArguments",
      "summarizeResources",
      "undisclosedToolMessage",
      "validateFrontmatter",
      "validateSkillText",
    ]);
  });

  it("skillset/node", async () => {
    expect(Object.keys(await import("../src/node.js")).sort()).toEqual([
      "DEFAULT_ENV_ALLOW_LIST",
      "createEmbeddingCache",
      "createLocalExecutor",
      "createLocalSource",
      "createNpmSource",
      "createSkillRunner",
      "createWellKnownSource",
      "defaultSkillLocations",
      "digestSkillFolder",
      "findSkillDirectories",
      "listSkillFiles",
      "lockfileVerifier",
      "packageSkill",
      "readSkillsLock",
      "validateSkillDirectory",
      "verifySkillsLock",
    ]);
  });

  it("skillset/langchain", async () => {
    expect(Object.keys(await import("../src/langchain.js")).sort()).toEqual([
      "ALWAYS_ALLOWED_TOOLS",
      "RESTORE_LIMITS",
      "SKILLS_MIDDLEWARE_NAME",
      "createChatModelComplete",
      "createSkillsMiddleware",
      "skillsStateSchema",
      "withSkillset",
    ]);
  });

  it("skillset/mcp", async () => {
    expect(Object.keys(await import("../src/mcp.js")).sort()).toEqual([
      "SKILLS_EXTENSION",
      "connectMcpServer",
      "createSkillsMcpServer",
      "mcpSkillSource",
    ]);
  });

  it("skillset/ai", async () => {
    expect(Object.keys(await import("../src/ai.js")).sort()).toEqual(["createSkills"]);
  });

  it("declares every entry point in package.json", async () => {
    const { exports } = (await import("../package.json", { with: { type: "json" } })).default as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(exports).sort()).toEqual([".", "./ai", "./langchain", "./mcp", "./node", "./package.json"]);
  });
});
