// Issue 35: options passed from JavaScript are not checked by TypeScript, so a misspelt key used
// to be ignored. Every public factory that takes an options object refuses unknown keys, naming
// the factory, the key, the closest known key and every known one; and accepts every key it lists.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import {
  createBackendSource,
  createEmbeddingRanker,
  createLexicalRanker,
  createMemorySource,
  createSandboxExecutor,
  createSkillRunner,
  createSnapshotSource,
  SkillsetError,
} from "../../src/index.js";
import {
  createEmbeddingCache,
  createLocalExecutor,
  createLocalSkillRunner,
  createLocalSource,
  createNpmSource,
  createWellKnownSource,
  lockfileVerifier,
} from "../../src/node.js";
import { createSkillsMiddleware, withSkillset } from "../../src/langchain.js";
import { createSkills } from "../../src/ai.js";
import { createSkillsMcpServer, mcpSkillSource } from "../../src/mcp.js";
import { createSkillEngine } from "../../src/host.js";
import { useTempFolders } from "../helpers/skill-tree.js";

const RUNNER_OPTIONS = [
  "sources",
  "complete",
  "executor",
  "defaultAllowedCommands",
  "maxIterations",
  "maxInstructionsPerReply",
  "maxLoadedSkills",
  "maxDescriptionLength",
  "catalogBudget",
  "catalogPriority",
  "searchSkills",
  "dynamicContext",
  "userInvocation",
  "verifySkill",
  "logger",
];

const MIDDLEWARE_OPTIONS = [
  "sources",
  "backend",
  "recursive",
  "maxLoadedSkills",
  "allowedToolsPolicy",
  "alwaysAllowedTools",
  "systemPrompt",
  "maxDescriptionLength",
  "readResourceTool",
  "runScripts",
  "userInvocation",
  "dynamicContext",
  "resourceReadTool",
  "scriptRunTool",
  "catalogBudget",
  "catalogPriority",
  "searchSkills",
  "searchRankers",
  "protocol",
  "skillTools",
  "models",
  "hooks",
  "subagentSkills",
  "forkAgents",
  "forkLimits",
  "lockfile",
  "codeMode",
  "logger",
];

const tempFolder = useTempFolders("skillset-options-");

type Options = Record<string, unknown>;
interface Factory {
  name: string;
  /** Options every call needs, besides the one under test. */
  base: () => Options;
  make: (options: Options) => unknown;
  /** A misspelling, the known key it should suggest (or none), and the known keys in the message. */
  typo: string;
  suggests: string | undefined;
  known: string[];
}

const complete = async () => "";
const lockFile = () => {
  const path = join(tempFolder(), "skills-lock.json");
  writeFileSync(path, JSON.stringify({ version: 1, skills: {} }));
  return path;
};
const sandbox = { execute: async () => ({ output: "", exitCode: 0, truncated: false }) };
const fakeClient = { close: async () => {} } as unknown as Client;

const FACTORIES: Factory[] = [
  {
    name: "createSkillEngine",
    base: () => ({}),
    make: (options) => createSkillEngine(options),
    typo: "maxLoaded",
    suggests: "maxLoadedSkills",
    known: [
      "maxLoadedSkills",
      "allowedToolsPolicy",
      "guidance",
      "maxDescriptionLength",
      "resourceReadTool",
      "scriptRunTool",
      "skillLocation",
      "scripts",
      "dynamicContext",
      "catalogBudget",
      "catalogPriority",
      "search",
      "forkSkills",
      "verifySkill",
      "codeMode",
      "logger",
    ],
  },
  {
    name: "createSkillsMiddleware",
    base: () => ({ sources: [] }),
    make: (options) => createSkillsMiddleware(options as never),
    typo: "maxLoaded",
    suggests: "maxLoadedSkills",
    known: MIDDLEWARE_OPTIONS,
  },
  {
    name: "withSkillset",
    base: () => ({}),
    make: (options) => withSkillset({}, options as never),
    typo: "subagentSkill",
    suggests: "subagentSkills",
    // The middleware's options but where skills come from: withSkillset takes them from the deep agent.
    known: MIDDLEWARE_OPTIONS.filter((key) => key !== "sources" && key !== "backend"),
  },
  {
    name: "createSkills",
    base: () => ({ sources: [createMemorySource()] }),
    make: (options) => createSkills(options as never),
    typo: "guidence",
    suggests: "guidance",
    known: [], // filled in below from the message, checked against the type by typecheck
  },
  {
    name: "createSkillsMcpServer",
    base: () => ({ sources: [tempFolder()] }),
    make: (options) => createSkillsMcpServer(options as never),
    typo: "pagesize",
    suggests: "pageSize",
    known: [
      "sources",
      "recursive",
      "maxLoadedSkills",
      "runScripts",
      "pageSize",
      "ttlMs",
      "watchIntervalMs",
      "serverInfo",
      "lockfile",
      "codeMode",
      "logger",
      "searchRankers",
    ],
  },
  {
    name: "mcpSkillSource",
    base: () => ({ client: fakeClient, label: "docs" }),
    make: (options) => mcpSkillSource(options as never),
    typo: "timeout",
    suggests: "timeoutMs",
    known: ["client", "label", "allowDynamic", "trustAllowedTools", "runScripts", "timeoutMs"],
  },
  {
    name: "createLocalSource",
    base: () => ({ path: tempFolder() }),
    make: (options) => createLocalSource(options as never),
    typo: "recursve",
    suggests: "recursive",
    known: ["path", "recursive", "maxDepth", "maxDirectories", "allowedRoots", "watch", "id"],
  },
  {
    name: "createNpmSource",
    base: () => ({ cwd: tempFolder() }),
    make: (options) => createNpmSource(options as never),
    typo: "package",
    suggests: "packages",
    known: ["packages", "cwd", "allowedRoots", "watch", "id"],
  },
  {
    name: "createWellKnownSource",
    base: () => ({ url: "https://example.com", cacheDir: tempFolder() }),
    make: (options) => createWellKnownSource(options as never),
    typo: "site",
    suggests: undefined,
    known: ["url", "cacheDir", "fetch", "timeoutMs", "refreshMs", "runScripts"],
  },
  {
    name: "createBackendSource",
    base: () => ({ backend: {}, path: "/skills/" }),
    make: (options) => createBackendSource(options as never),
    typo: "Recursive",
    suggests: "recursive",
    known: ["backend", "path", "recursive", "id"],
  },
  {
    name: "createSnapshotSource",
    base: () => ({ backend: {}, path: "/skills/", store: {} }),
    make: (options) => createSnapshotSource(options as never),
    typo: "storename",
    suggests: "storeName",
    known: ["backend", "path", "recursive", "id", "store", "namespace", "storeName", "retry", "abandonedAfterMs"],
  },
  {
    name: "createMemorySource",
    base: () => ({}),
    make: (options) => createMemorySource(options as never),
    typo: "skills",
    suggests: undefined,
    known: ["files", "id"],
  },
  {
    name: "createSkillRunner",
    base: () => ({ sources: [], complete }),
    make: (options) => createSkillRunner(options as never),
    typo: "maxIteration",
    suggests: "maxIterations",
    known: RUNNER_OPTIONS,
  },
  {
    name: "createLocalSkillRunner",
    base: () => ({ sources: [], complete }),
    make: (options) => createLocalSkillRunner(options as never),
    typo: "lockFile",
    suggests: "lockfile",
    // The runner's options, and where a local runner finds skills and its lockfile.
    known: [...RUNNER_OPTIONS, "recursive", "lockfile"],
  },
  {
    name: "lockfileVerifier",
    base: () => ({ path: lockFile() }),
    make: (options) => lockfileVerifier(options as never),
    typo: "mod",
    suggests: "mode",
    known: ["path", "mode"],
  },
  {
    name: "createEmbeddingCache",
    base: () => ({ model: "test-model", folder: tempFolder() }),
    make: (options) => createEmbeddingCache(options as never),
    typo: "maxEntry",
    suggests: "maxEntries",
    known: ["model", "folder", "maxEntries", "onDiagnostic"],
  },
  {
    name: "createLexicalRanker",
    base: () => ({}),
    make: (options) => createLexicalRanker(options as never),
    typo: "floor",
    suggests: "relevanceFloor",
    known: ["relevanceFloor"],
  },
  {
    name: "createEmbeddingRanker",
    base: () => ({}),
    make: (options) => createEmbeddingRanker(async (texts: string[]) => texts.map(() => [1]), options as never),
    typo: "onerror",
    suggests: "onError",
    known: ["cache", "onError"],
  },
  {
    name: "createLocalExecutor",
    base: () => ({}),
    make: (options) => createLocalExecutor(options as never),
    typo: "timeout",
    suggests: "timeoutMs",
    known: ["timeoutMs", "maxOutputBytes", "killAfterOutputBytes", "passEnv", "env", "maxConcurrent"],
  },
  {
    name: "createSandboxExecutor",
    base: () => ({}),
    make: (options) => createSandboxExecutor(sandbox as never, options as never),
    typo: "timeoutSecond",
    suggests: "timeoutSeconds",
    known: ["timeoutSeconds", "maxOutputChars"],
  },
];

function refusal(make: () => unknown): SkillsetError {
  try {
    make();
  } catch (error) {
    if (SkillsetError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("no error was thrown");
}

async function release(made: unknown): Promise<void> {
  const closable = made as { close?: () => unknown } | undefined;
  if (typeof closable?.close === "function") await closable.close();
}

describe("unknown option keys", () => {
  it.each(FACTORIES.map((factory) => [factory.name, factory] as const))(
    "%s refuses a misspelt key, naming it, the closest known key and every known key",
    (_name, factory) => {
      const error = refusal(() => factory.make({ ...factory.base(), [factory.typo]: 3 }));
      expect(error.code).toBe("unknown-option");
      const known = factory.known.length > 0 ? factory.known : knownFrom(error.message);
      const hint = factory.suggests === undefined ? "" : ` (did you mean '${factory.suggests}'?)`;
      expect(error.message).toBe(
        `${factory.name}: unknown option '${factory.typo}'${hint}. Known options: ${known.join(", ")}.`,
      );
    },
  );

  it.each(FACTORIES.map((factory) => [factory.name, factory] as const))(
    "%s accepts every key it lists",
    async (_name, factory) => {
      const known = knownFrom(refusal(() => factory.make({ ...factory.base(), [factory.typo]: 3 })).message);
      const every = { ...Object.fromEntries(known.map((key) => [key, undefined])), ...factory.base() };
      await release(factory.make(every));
    },
  );

  it("createSkills lists the keys of its schema", () => {
    const message = refusal(() => createSkills({ sources: [createMemorySource()], guidence: "x" } as never)).message;
    expect(knownFrom(message)).toEqual(
      expect.arrayContaining(["sources", "guidance", "skillTools", "lockfile", "logger"]),
    );
  });

  it("names every unknown key at once, and a key misspelt in a nested options object by its path", () => {
    expect(refusal(() => createSkillEngine({ maxLoaded: 3, colour: "red" } as never)).message).toMatch(
      /^createSkillEngine: unknown options 'maxLoaded' \(did you mean 'maxLoadedSkills'\?\), 'colour'\. Known options: maxLoadedSkills, /,
    );
    expect(refusal(() => createSkillEngine({ search: { ofer: "auto" } } as never)).message).toBe(
      "createSkillEngine: unknown option 'search.ofer' (did you mean 'search.offer'?). Known options of search: offer, rankers.",
    );
    expect(refusal(() => createSkillsMiddleware({ sources: [], forkLimits: { maxStep: 3 } } as never)).message).toBe(
      "createSkillsMiddleware: unknown option 'forkLimits.maxStep' (did you mean 'forkLimits.maxSteps'?). Known options of forkLimits: maxSteps, maxDepth.",
    );
    expect(
      refusal(() =>
        createSkillsMiddleware({ sources: [], lockfile: { path: "skills-lock.json", mdoe: "warn" } } as never),
      ).message,
    ).toBe(
      "createSkillsMiddleware: unknown option 'lockfile.mdoe' (did you mean 'lockfile.mode'?). Known options of lockfile: path, mode.",
    );
    expect(refusal(() => createLexicalRanker({ relevanceFloor: { scor: 4 } } as never)).message).toBe(
      "createLexicalRanker: unknown option 'relevanceFloor.scor' (did you mean 'relevanceFloor.score'?). Known options of relevanceFloor: score, coverage.",
    );
  });

  it("leaves objects that are not plain data alone: an executor's own fields, a string lockfile", () => {
    class Executor {
      specificationVersion = "v1";
      extra = true;
      async run() {
        return {
          exitCode: 0,
          stdout: "",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          timedOut: false,
          durationMs: 0,
        };
      }
    }
    expect(() => createSkillEngine({ scripts: { executor: new Executor() as never } })).not.toThrow();
    expect(() => lockfileVerifier(lockFile())).not.toThrow();
  });
});

function knownFrom(message: string): string[] {
  const match = /Known options: (.*)\.$/.exec(message);
  if (!match) throw new Error(`no known options in: ${message}`);
  return match[1]!.split(", ");
}
