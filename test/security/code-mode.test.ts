// Code mode's promises, each tried at the engine: only loaded skills' modules can be imported (not one
// never loaded, not one unloaded since, not a path out of a skill, however spelled or computed), only the
// tools the app and the loaded skills allow can be called, and a module changed on disk after the skill
// was verified against skills-lock.json is not imported. Each ends in an error the model can act on.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalog } from "../../src/core/catalog/catalog.js";
import {
  createSkillEngine,
  type SkillEngine,
  type SkillEngineOptions,
  type SkillRequest,
} from "../../src/core/engine/skill-engine.js";
import type { SkillsLogEntry } from "../../src/core/skill-events.js";
import type { SkillSource } from "../../src/core/skill-source.js";
import { digestSkillFolder } from "../../src/node/skills-lock/skill-folder-hash.js";
import { lockfileVerifier } from "../../src/node.js";
import { createLocalSource } from "../../src/sources/local-source.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import { tempTree } from "../helpers/skill-tree.js";

const skill = (name: string, extra = "") => `---\nname: ${name}\ndescription: Use ${name}.\n${extra}---\nDo ${name}.\n`;
const withModule = (name: string) => skill(name, "metadata:\n  entrypoint: index.js\n");

const files = {
  "/s/alpha/SKILL.md": withModule("alpha"),
  "/s/alpha/index.js": 'export const name = "alpha";\n',
  "/s/alpha/lib/util.js": 'export * from "../../beta/index.js";\n',
  "/s/beta/SKILL.md": withModule("beta"),
  "/s/beta/index.js": 'export const secret = "beta";\n',
  "/s/restricted/SKILL.md": skill("restricted", "allowed-tools: read_file\n"),
  "/s/thrower/SKILL.md": withModule("thrower"),
  "/s/thrower/index.js": 'throw new Error("the module refuses to load");\n',
};

const engines: SkillEngine[] = [];
const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.releaseCode();
  for (const tree of trees.splice(0)) tree.cleanup();
});

async function setup(
  options: Partial<SkillEngineOptions> = {},
  sources: SkillSource[] = [createMemorySource({ files })],
) {
  const catalog = createCatalog(sources);
  const entries: SkillsLogEntry[] = [];
  const engine = createSkillEngine({
    codeMode: { tools: ["read_file", "fetch_url"], keepValues: true },
    ...options,
    logger: (entry) => entries.push(entry),
  });
  engines.push(engine);
  const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
  const request = (loaded: string[]): SkillRequest => ({
    state: { skills: refreshed.skills, catalogVersion: refreshed.version, loaded, resources: {} },
    sources: async () => catalog.sources,
    sessionId: "thread-1",
  });
  return { engine, request, entries };
}

const IMPORT_FAILED = "Error: an import failed. ";
const ALPHA_ONLY = "Modules you can import now: @/skills/alpha.";

describe("imports reach only the loaded skills' modules", () => {
  it.each([
    [
      "a skill that is not loaded",
      "@/skills/beta",
      "skill 'beta' is not loaded; load it with load_skill, then run the code again",
    ],
    [
      "a skill not in the catalog",
      "@/skills/nope",
      "skill 'nope' is not loaded; load it with load_skill, then run the code again",
    ],
    [
      "a path out of the skill",
      "@/skills/alpha/../beta/index.js",
      "'..' is not allowed; modules must be inside the skill's folder",
    ],
    [
      "a path climbing out twice",
      "@/skills/alpha/../../etc/passwd.js",
      "'..' is not allowed; modules must be inside the skill's folder",
    ],
    [
      "a percent-encoded climb",
      "@/skills/alpha/%2e%2e/beta/index.js",
      "percent-encoded paths are not allowed; write the file's name as it is",
    ],
    [
      "a fullwidth look-alike of ..",
      "@/skills/alpha/\uFF0E\uFF0E/beta/index.js",
      "'..' is not allowed; modules must be inside the skill's folder",
    ],
    [
      "an encoded skill name",
      "@/skills/%62eta",
      "skill '%62eta' is not loaded; load it with load_skill, then run the code again",
    ],
    [
      "an absolute path",
      "/s/beta/index.js",
      'only loaded skills\' modules can be imported, as "@/skills/<skill>" or "@/skills/<skill>/<path>"',
    ],
    [
      "a node built-in",
      "node:fs",
      'only loaded skills\' modules can be imported, as "@/skills/<skill>" or "@/skills/<skill>/<path>"',
    ],
    ["the skill's SKILL.md", "@/skills/alpha/SKILL.md", "only .js, .mjs, .ts, .mts files can be imported"],
  ])("%s (%s) is refused", async (_what, specifier, reason) => {
    const { engine, request, entries } = await setup();
    const reply = await engine.runCode(request(["alpha"]), {
      code: `return (await import(${JSON.stringify(specifier)})).secret;`,
    });
    expect(reply.text).toBe(`${IMPORT_FAILED}Cannot import "${specifier}": ${reason}. ${ALPHA_ONLY}`);
    expect(entries.find((entry) => entry.event === "code_ran")).toMatchObject({
      ok: false,
      errorKind: "import",
      refusedImports: [specifier],
    });
  });

  it("a static import at the top is refused the same way, before any of the code runs", async () => {
    const { engine, request } = await setup();
    const calls: unknown[] = [];
    const reply = await engine.runCode(
      request(["alpha"]),
      { code: `import { secret } from "@/skills/beta";\nawait tools.readFile({});\nreturn secret;` },
      { read_file: async (args) => calls.push(args) },
    );
    expect(reply.text).toBe(
      `${IMPORT_FAILED}Cannot import "@/skills/beta": skill 'beta' is not loaded; load it with load_skill, then run the code again. ${ALPHA_ONLY}`,
    );
    expect(calls).toEqual([]);
  });

  it("a computed specifier is checked as written: naming a loaded skill works, naming another does not", async () => {
    const { engine, request } = await setup();
    const code = (parts: string[]) =>
      `const name = ${JSON.stringify(parts)}.join(""); return (await import("@/skills/" + name)).name;`;
    expect((await engine.runCode(request(["alpha"]), { code: code(["al", "pha"]) })).text).toBe('Result:\n"alpha"');
    expect((await engine.runCode(request(["alpha"]), { code: code(["be", "ta"]) })).text).toBe(
      `${IMPORT_FAILED}Cannot import "@/skills/beta": skill 'beta' is not loaded; load it with load_skill, then run the code again. ${ALPHA_ONLY}`,
    );
  });

  it("a module's relative import that leaves its skill for one not loaded is refused", async () => {
    const { engine, request } = await setup();
    const reply = await engine.runCode(request(["alpha"]), {
      code: `return (await import("@/skills/alpha/lib/util.js")).secret;`,
    });
    expect(reply.text).toBe(
      `${IMPORT_FAILED}Cannot import "@/skills/beta/index.js": skill 'beta' is not loaded; load it with load_skill, then run the code again. ${ALPHA_ONLY}`,
    );
  });

  it("a skill unloaded since the last run cannot be imported in the next, in the same sandbox", async () => {
    const { engine, request } = await setup();
    const code = `globalThis.kept = (globalThis.kept ?? 0) + 1; return [globalThis.kept, (await import("@/skills/beta")).secret];`;
    expect((await engine.runCode(request(["alpha", "beta"]), { code })).text).toBe('Result:\n[1,"beta"]');
    expect((await engine.runCode(request(["alpha"]), { code })).text).toBe(
      `${IMPORT_FAILED}Cannot import "@/skills/beta": skill 'beta' is not loaded; load it with load_skill, then run the code again. ${ALPHA_ONLY}`,
    );
  });
});

describe("a module or a thread cannot harm another", () => {
  it("a module that throws while it is imported fails the run with its message, and the next run works", async () => {
    const { engine, request } = await setup();
    const reply = await engine.runCode(request(["alpha", "thrower"]), {
      code: `import "@/skills/thrower"; return 1;`,
    });
    expect(reply.ok).toBe(false);
    expect(reply.outcome).toMatchObject({ ok: false, error: { kind: "import" } });
    expect(reply.text).toContain("the module refuses to load");
    expect((await engine.runCode(request(["alpha"]), { code: "return 2;" })).text).toBe("Result:\n2");
  });

  it("prototype pollution in one thread's sandbox, values kept, is not seen by another thread", async () => {
    const { engine, request } = await setup();
    const other = (loaded: string[]): SkillRequest => ({ ...request(loaded), sessionId: "thread-2" });
    const polluted = await engine.runCode(request(["alpha"]), {
      code: `Object.prototype.isAdmin = true; Array.prototype.push = () => 0; JSON.stringify = () => "pwned"; return ({}).isAdmin;`,
    });
    expect(polluted.text).toBe("Result:\ntrue");
    expect(
      (
        await engine.runCode(other(["alpha"]), {
          code: `const list = []; list.push(1); return [({}).isAdmin ?? null, list];`,
        })
      ).text,
    ).toBe("Result:\n[null,[1]]");
  });
});

describe("tools reach only what the app and the loaded skills allow", () => {
  const tools = {
    read_file: async () => "contents",
    fetch_url: async () => "page",
    execute: async () => "ran",
    run_skill_script: async () => "ran",
  };

  it("a tool outside the app's list is refused, and the tool is never called", async () => {
    const { engine, request } = await setup();
    let ran = false;
    const reply = await engine.runCode(
      request([]),
      { code: `try { await tools.execute({ command: "rm -rf /" }); } catch (e) { return e.message; }` },
      { ...tools, execute: async () => (ran = true) },
    );
    expect(reply.text).toBe(
      'Result:\n"tools.execute (execute) is not available to code in this agent; call execute directly, outside run_code, if you need it."',
    );
    expect(ran).toBe(false);
  });

  it("a tool the code names wrongly lists those it can call", async () => {
    const { engine, request } = await setup();
    const reply = await engine.runCode(request([]), { code: `return await tools.read_file({});` }, tools);
    // The sandbox adds the stack after the message.
    expect(reply.text.split("\n")[0]).toBe(
      "Error: the code threw an error it did not catch: TypeError: tools.read_file is not a tool you can call here. Available tools: readFile, fetchUrl, execute, runSkillScript.",
    );
  });

  it('under "restrict", a tool the loaded skills do not allow is refused with the same words and event as a direct call', async () => {
    const { engine, request, entries } = await setup({ allowedToolsPolicy: "restrict" });
    const reply = await engine.runCode(
      request(["restricted"]),
      { code: `const text = await tools.readFile({}); return [text, await tools.fetchUrl({ url: "https://x" })];` },
      tools,
    );
    expect(reply.text).toBe(
      "Error: the code threw an error it did not catch: Error: tools.fetchUrl (fetch_url) was refused: Tool 'fetch_url' is not allowed while the loaded skills (restricted) restrict tools. Allowed: read_file, and the skill and file-reading tools. Unload a skill with unload_skill to lift its restriction.",
    );
    expect(entries.filter((entry) => entry.event === "tool_restricted").map((entry) => entry.tool)).toEqual([
      "fetch_url",
    ]);
  });

  it("a skill's own tool is callable only while a loaded skill discloses it", async () => {
    const source = createMemorySource({
      files: { ...files, "/s/issues/SKILL.md": skill("issues", "metadata:\n  include_tools: list_issues\n") },
    });
    const { engine, request } = await setup({ codeMode: { tools: "all" } }, [source]);
    const options = { isSkillTool: (name: string) => name === "list_issues" };
    const code = { code: `return await tools.listIssues({});` };
    const listed = { list_issues: async () => ["#1"] };
    expect((await engine.runCode(request(["issues"]), code, listed, options)).text).toBe('Result:\n["#1"]');
    expect((await engine.runCode(request([]), code, listed, options)).text).toBe(
      "Error: the code threw an error it did not catch: Error: tools.listIssues (list_issues) was refused: list_issues is not a valid tool here. Call only the tools you were given in this step; a skill's tools are offered from the step after the skill is loaded.",
    );
  });
});

describe("the module-skills fixture on disk", () => {
  it("table-totals (TypeScript, importing ./row.js for row.ts) runs from a local folder", async () => {
    const fixtures = join(import.meta.dirname, "../__fixtures__/module-skills");
    const { engine, request } = await setup({}, [createLocalSource({ path: fixtures, watch: false })]);
    const reply = await engine.runCode(request(["table-totals"]), {
      code: `import { total, countFilled } from "@/skills/table-totals";
const rows = [{ amount: 2 }, { amount: 3 }, { amount: "" }];
return [total(rows, "amount"), countFilled(rows, "amount")];`,
    });
    expect(reply.text).toBe("Result:\n[5,2]");
  });
});

describe("a module changed on disk after the skill was verified", () => {
  it("is refused under skills-lock.json, with a skill_unverified event", async () => {
    const tree = tempTree("skillset-code-lock-");
    trees.push(tree);
    tree.write(".agents/skills/mod/SKILL.md", withModule("mod"));
    tree.write(".agents/skills/mod/index.js", "export const total = (xs) => xs.reduce((a, b) => a + b, 0);\n");
    const folder = join(tree.root, ".agents/skills/mod");
    const lock = tree.write(
      "skills-lock.json",
      JSON.stringify({
        version: 1,
        skills: { mod: { source: "x", sourceType: "local", computedHash: digestSkillFolder(folder).hash } },
      }),
    );
    const { engine, request, entries } = await setup({ verifySkill: lockfileVerifier(lock) }, [
      createLocalSource({ path: join(tree.root, ".agents/skills"), watch: false }),
    ]);
    const load = await engine.load(request([]), { skill: "mod", id: "1" });
    expect(load.ok).toBe(true);
    const code = { code: `import { total } from "@/skills/mod"; return total([1, 2, 3]);` };
    expect((await engine.runCode(request(["mod"]), code)).text).toBe("Result:\n6");
    writeFileSync(join(folder, "index.js"), "export const total = () => { /* exfiltrate */ return -1; };\n");
    const reply = await engine.runCode(request(["mod"]), code);
    expect(reply.text).toMatch(
      /^Error: an import failed\. Cannot import "@\/skills\/mod": Skill 'mod' is refused: its files differ from .*skills-lock\.json[^]*; it cannot be used until it passes verification\. Modules you can import now: @\/skills\/mod\.$/,
    );
    expect(entries.filter((entry) => entry.event === "skill_unverified").map((entry) => entry.message)).toEqual([
      expect.stringMatching(/^Skill 'mod' refused: its files differ from /),
    ]);
  });
});
