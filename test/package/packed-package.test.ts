// The package as its users get it: `npm pack` (which runs `prepare`, a clean build) in a copy of
// the package, the tarball checked by publint and attw, then installed into a fresh consumer
// project that imports, requires, typechecks against and runs it. The install takes the peer
// dependencies at the repository's versions, from npm's cache when it has them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatMessage } from "publint/utils";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CommandResult,
  compiledSources,
  installIntoConsumer,
  listTarball,
  packPackage,
  ROOT,
  run,
  runOrThrow,
} from "./packed-package.js";

const SETUP_TIMEOUT_MS = 300_000;
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
const ATTW = path.join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
const { version: VERSION } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };

let workDir: string;
let tarball: string;
let consumer: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "skillset-package-"));
  tarball = await packPackage(workDir);
  consumer = await installIntoConsumer(workDir, tarball);
}, SETUP_TIMEOUT_MS);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Writes a file into the consumer project. */
function writeConsumerFile(name: string, text: string): void {
  writeFileSync(path.join(consumer, name), text);
}

/** Runs `node <file>` in the consumer project and parses the JSON it prints. */
async function runConsumerScript(file: string): Promise<unknown> {
  const { stdout } = await runOrThrow(process.execPath, [file], consumer);
  return JSON.parse(stdout) as unknown;
}

/** The export names of the repository's own entry points, which the package must ship unchanged. */
async function sourceExports(): Promise<Record<string, string[]>> {
  return {
    skillset: Object.keys(await import("../../src/index.js")).sort(),
    "skillset/node": Object.keys(await import("../../src/node.js")).sort(),
    "skillset/langchain": Object.keys(await import("../../src/langchain.js")).sort(),
    "skillset/mcp": Object.keys(await import("../../src/mcp.js")).sort(),
    "skillset/host": Object.keys(await import("../../src/host.js")).sort(),
  };
}

describe("the tarball", () => {
  it("holds the build of every source file (JavaScript and declarations), the licence, the README and package.json, and nothing else", async () => {
    const expected = ["package/LICENSE", "package/README.md", "package/package.json"];
    for (const source of compiledSources()) expected.push(`package/dist/${source}.js`, `package/dist/${source}.d.ts`);
    const entries = [...(await listTarball(tarball)).keys()].sort();
    expect(entries).toEqual(expected.sort());
    expect(entries.filter((entry) => /\.test\.|\.map$|__fixtures__/.test(entry))).toEqual([]);
  });

  it("ships the bin executable, with a node shebang", async () => {
    expect((await listTarball(tarball)).get("package/dist/cli/main.js")).toBe("-rwxr-xr-x");
    const installed = readFileSync(path.join(consumer, "node_modules", "skillset", "dist", "cli", "main.js"), "utf8");
    expect(installed.split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("passes publint, warnings and suggestions included", async () => {
    const data = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
    });
    expect(
      messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`),
    ).toEqual([]);
  });

  it("passes attw's ESM-only profile: every entry point's types resolve under node16/nodenext (ESM) and bundler", async () => {
    const result = await run(
      process.execPath,
      [ATTW, tarball, "--profile", "esm-only", "--no-definitely-typed", "--format", "ascii", "--no-color"],
      workDir,
    );
    expect({ code: result.code, problems: result.code === 0 ? "" : `${result.stdout}${result.stderr}` }).toEqual({
      code: 0,
      problems: "",
    });
    expect(result.stdout).toContain('"skillset/langchain"');
  });
});

describe("installed into a consumer project", () => {
  it("imports every entry point from an ES module, with the same exports as the sources, and works", async () => {
    writeConsumerFile(
      "entries.mjs",
      `import * as core from "skillset";
import * as node from "skillset/node";
import * as langchain from "skillset/langchain";
import * as mcp from "skillset/mcp";
import * as host from "skillset/host";
const files = { "/skills/hello/SKILL.md": "---\\nname: hello\\ndescription: Says hello.\\n---\\nHi\\n" };
const snapshot = await core.createCatalog([core.createMemorySource({ files })]).refresh();
console.log(JSON.stringify({
  exports: { skillset: Object.keys(core).sort(), "skillset/node": Object.keys(node).sort(), "skillset/langchain": Object.keys(langchain).sort(), "skillset/mcp": Object.keys(mcp).sort(), "skillset/host": Object.keys(host).sort() },
  catalogLine: core.renderCatalogMarkdown(snapshot.skills).split("\\n").find((line) => line.startsWith("- ")),
  middleware: langchain.createSkillsMiddleware({ sources: ["./skills"] }).name,
  mcpExtension: mcp.SKILLS_EXTENSION,
}));
`,
    );
    expect(await runConsumerScript("entries.mjs")).toEqual({
      exports: await sourceExports(),
      catalogLine: "- hello: Says hello.",
      middleware: "SkillsMiddleware",
      mcpExtension: "io.modelcontextprotocol/skills",
    });
  });

  // require() of an ES module needs Node >= 20.19 / 22.12 (and no top-level await in the graph).
  it.skipIf(!process.features.require_module)("require()s every entry point from a CommonJS module", async () => {
    writeConsumerFile(
      "entries.cjs",
      `const core = require("skillset");
const node = require("skillset/node");
const langchain = require("skillset/langchain");
const mcp = require("skillset/mcp");
const host = require("skillset/host");
console.log(JSON.stringify({ skillset: Object.keys(core).sort(), "skillset/node": Object.keys(node).sort(), "skillset/langchain": Object.keys(langchain).sort(), "skillset/mcp": Object.keys(mcp).sort(), "skillset/host": Object.keys(host).sort() }));
`,
    );
    expect(await runConsumerScript("entries.cjs")).toEqual(await sourceExports());
  });

  describe("typechecks against the shipped declarations", () => {
    const coreUse = `import { createCatalog, createMemorySource, renderCatalogMarkdown, type Diagnostic } from "skillset";
import { createLocalSource } from "skillset/node";
const snapshot = await createCatalog([createMemorySource({ files: {} }), createLocalSource({ path: "./skills" })]).refresh();
export const text: string = renderCatalogMarkdown(snapshot.skills);
export const diagnostics: readonly Diagnostic[] = snapshot.diagnostics;
// @ts-expect-error a catalog takes sources, not a path (fails as unused if the types were any)
createCatalog("./skills");
`;
    // skillset/host exports the tools' zod schemas, and zod's declarations need \`URL\` from the DOM
    // or @types/node: it is checked with the other entries, skipLibCheck on.
    const hostUse = `import { applySkillOperations, createSkillEngine, LOAD_SKILL, type SkillThreadState } from "skillset/host";
export const engine = createSkillEngine({ maxLoadedSkills: 3 });
export const state: SkillThreadState = applySkillOperations({ loaded: [], resources: {} }, [{ kind: "reset" }]);
export const loadSkillName: "load_skill" = LOAD_SKILL.name;
`;
    const langchainUse = `import { createSkillsMiddleware, type SkillsLogger } from "skillset/langchain";
const logger: SkillsLogger = (entry) => void entry.event;
export const middleware = createSkillsMiddleware({ sources: ["./skills"], maxLoadedSkills: 3, allowedToolsPolicy: "restrict", logger });
`;
    const mcpUse = `import { createSkillsMcpServer, mcpSkillSource, type SkillsMcpServer } from "skillset/mcp";
export const server: SkillsMcpServer = createSkillsMcpServer({ sources: ["./skills"], maxLoadedSkills: 3 });
export const source = (client: Parameters<typeof mcpSkillSource>[0]["client"]) => mcpSkillSource({ client, label: "team" });
`;

    /** Typechecks one file of the consumer with the given compiler options; returns tsc's output. */
    async function typecheck(name: string, text: string, options: Record<string, unknown>): Promise<CommandResult> {
      const dir = path.join(consumer, `tsc-${name.replace(/\W+/g, "-")}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, name), text);
      const compilerOptions = { target: "es2022", lib: ["es2023"], strict: true, noEmit: true, types: [], ...options };
      writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [name] }));
      return run(process.execPath, [TSC, "-p", dir, "--pretty", "false"], dir);
    }

    // Our own .d.ts files are checked too (skipLibCheck off); LangChain's need newer libs than a
    // consumer may have, so the entry that pulls them in is checked with skipLibCheck on.
    it("moduleResolution node16, declarations of skillset and skillset/node included, without @types/node", async () => {
      expect(
        await typecheck("core.ts", coreUse, { module: "node16", moduleResolution: "node16", skipLibCheck: false }),
      ).toMatchObject({ code: 0, stdout: "" });
    });

    it("moduleResolution nodenext and bundler, every entry point", async () => {
      for (const [module, moduleResolution] of [
        ["nodenext", "nodenext"],
        ["esnext", "bundler"],
      ]) {
        const result = await typecheck(`all-${moduleResolution}.ts`, coreUse + hostUse + langchainUse + mcpUse, {
          module,
          moduleResolution,
          skipLibCheck: true,
        });
        expect({ moduleResolution, ...result }).toMatchObject({ moduleResolution, code: 0, stdout: "" });
      }
    });

    it("a CommonJS module (.cts) under module nodenext, which lets it require ES modules", async () => {
      const cjsUse = `import { createCatalog, createMemorySource } from "skillset";\nexport const catalog = createCatalog([createMemorySource()]);\n`;
      expect(
        await typecheck("cjs.cts", cjsUse, { module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true }),
      ).toMatchObject({ code: 0, stdout: "" });
    });

    it("moduleResolution node10 cannot resolve the entry points (the README says it is unsupported)", async () => {
      const result = await typecheck("node10.ts", coreUse, {
        module: "commonjs",
        moduleResolution: "node10",
        skipLibCheck: true,
      });
      expect(result.stdout).toContain(
        "error TS2307: Cannot find module 'skillset' or its corresponding type declarations.",
      );
    });
  });

  it("installs the skillset command: --version and list work", async () => {
    const bin = path.join(consumer, "node_modules", ".bin", "skillset");
    const versionRun = await run(bin, ["--version"], consumer);
    expect(versionRun).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });

    const skill = path.join(consumer, "skills", "hello");
    mkdirSync(skill, { recursive: true });
    writeFileSync(path.join(skill, "SKILL.md"), "---\nname: hello\ndescription: Says hello.\n---\nHi\n");
    const listRun = await run(bin, ["list", "skills"], consumer);
    expect(listRun.code).toBe(0);
    expect(listRun.stdout).toMatch(/hello\b.*\bok\b/);
  });
});
