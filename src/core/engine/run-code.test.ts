import { afterEach, describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import { createCatalog } from "../catalog/catalog.js";
import type { SkillsLogEntry } from "../skill-events.js";
import { createSkillEngine, type SkillEngine, type SkillEngineOptions, type SkillRequest } from "./skill-engine.js";

// The engine's run_code: a loaded skill's TypeScript module imported by the model's code, the agent's
// tools under their camelCase names, the prompt's lines on modules, and the run's event.

const CSV_MODULE = `/** Parses CSV text into rows of cells. */
export function parseCsv(text: string): string[][] {
  return text.trim().split("\\n").map((line) => line.split(","));
}

/** Sums a column of numbers. */
export const sumColumn = (rows: string[][], column: number): number =>
  rows.reduce((total, row) => total + Number(row[column]), 0);
`;

const files = {
  "/s/csv-kit/SKILL.md":
    "---\nname: csv-kit\ndescription: Work with CSV.\nmetadata:\n  entrypoint: src/index.ts\n---\nUse the module.\n",
  "/s/csv-kit/src/index.ts": CSV_MODULE,
  "/s/csv-kit/src/extra.js": 'export { parseCsv } from "./index.ts";\nexport const answer = 42;\n',
  "/s/plain/SKILL.md": "---\nname: plain\ndescription: No module.\n---\nPlain.\n",
};

const engines: SkillEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.releaseCode();
});

async function setup(
  options: Partial<SkillEngineOptions> = {},
  loaded = ["csv-kit"],
  source = createMemorySource({ files }),
) {
  const catalog = createCatalog([source]);
  const entries: SkillsLogEntry[] = [];
  const engine = createSkillEngine({
    codeMode: { tools: ["read_file"] },
    ...options,
    logger: (entry) => entries.push(entry),
  });
  engines.push(engine);
  const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
  const request: SkillRequest = {
    state: { skills: refreshed.skills, catalogVersion: refreshed.version, loaded, resources: {} },
    sources: async () => catalog.sources,
    sessionId: "thread-1",
  };
  return { engine, request, entries };
}

describe("runCode", () => {
  it("imports a loaded skill's TypeScript module and calls an allowed tool by its camelCase name", async () => {
    const { engine, request, entries } = await setup();
    const calls: unknown[] = [];
    const reply = await engine.runCode(
      request,
      {
        code: `import { parseCsv, sumColumn } from "@/skills/csv-kit";
const text = await tools.readFile({ file_path: "/data.csv" });
console.log("read", text.length, "characters");
return sumColumn(parseCsv(text), 1);`,
      },
      {
        read_file: async (args) => {
          calls.push(args);
          return "a,1\nb,2\nc,39";
        },
      },
    );
    expect(reply).toMatchObject({ ok: true, text: "Logs:\nread 12 characters\n\nResult:\n42" });
    expect(calls).toEqual([{ file_path: "/data.csv" }]);
    const ran = entries.filter((entry) => entry.event === "code_ran");
    expect(ran).toEqual([
      expect.objectContaining({
        level: "info",
        ok: true,
        toolCalls: 1,
        imported: ["@/skills/csv-kit/src/index.ts"],
        refusedImports: [],
        thread: "thread-1",
      }),
    ]);
  });

  it("imports a file inside the skill, with relative imports resolved inside it, and await import()", async () => {
    const { engine, request } = await setup();
    const reply = await engine.runCode(request, {
      code: `const { answer, parseCsv } = await import("@/skills/csv-kit/src/extra.js");
return [answer, parseCsv("x,y")];`,
    });
    expect(reply.text).toBe('Result:\n[42,[["x","y"]]]');
  });

  it("refuses a tool the app did not list, and never exposes the skill tools", async () => {
    const { engine, request } = await setup();
    const tools = {
      read_file: async () => "",
      write_file: async () => "written",
      load_skill: async () => "loaded",
    };
    const written = await engine.runCode(
      request,
      { code: `return await tools.writeFile({ file_path: "/x" });` },
      tools,
    );
    expect(written.text).toBe(
      "Error: the code threw an error it did not catch: Error: tools.writeFile (write_file) is not available to code in this agent; call write_file directly, outside run_code, if you need it.",
    );
    const load = await engine.runCode(
      request,
      { code: `return await tools.loadSkill({ skill_name: "plain" });` },
      tools,
    );
    expect(load.text).toBe(
      "Error: the code threw an error it did not catch: Error: tools.loadSkill cannot be called from code: load_skill works on the skills themselves; call load_skill directly, outside run_code.",
    );
  });

  it("a TypeScript module's `./row.js` import finds `row.ts`, as tsc resolves it", async () => {
    const source = createMemorySource({
      files: {
        ...files,
        "/s/csv-kit/src/row.ts":
          'export const isBlank = (cells: string[]): boolean => cells.every((cell) => cell === "");\n',
        "/s/csv-kit/src/rows.ts":
          'import { isBlank } from "./row.js";\nimport type { Missing } from "./types.js";\nexport const blank = (rows: string[][]): number => rows.filter(isBlank).length;\n',
      },
    });
    const { engine, request } = await setup({}, ["csv-kit"], source);
    const reply = await engine.runCode(request, {
      code: `const { blank } = await import("@/skills/csv-kit/src/rows.ts"); return blank([["", ""], ["a"]]);`,
    });
    expect(reply.text).toBe("Result:\n1");
    const missing = await engine.runCode(request, { code: `await import("@/skills/csv-kit/src/nothing.js");` });
    expect(missing.text).toMatch(
      /^Error: an import failed\. Cannot import "@\/skills\/csv-kit\/src\/nothing\.js": cannot read src\/nothing\.js in skill 'csv-kit': /,
    );
  });

  it("without codeMode, run_code is refused", async () => {
    const { engine, request } = await setup({ codeMode: undefined });
    expect(await engine.runCode(request, { code: "return 1" })).toEqual({
      ok: false,
      text: "Error: Running code is not enabled for this agent.",
    });
  });

  it("the prompt lists the loaded skills' modules and their exports only in code mode", async () => {
    const { engine, request } = await setup({}, ["csv-kit", "plain"]);
    const prompt = await engine.systemPrompt(request);
    expect(prompt).toContain(
      [
        'Modules of loaded skills, for run_code (`import { name } from "@/skills/<skill>"`):',
        "- @/skills/csv-kit (src/index.ts):",
        "  - parseCsv(text: string): string[][] — Parses CSV text into rows of cells.",
        "  - sumColumn(rows: string[][], column: number): number — Sums a column of numbers.",
      ].join("\n"),
    );
    const off = await setup({ codeMode: undefined }, ["csv-kit"]);
    expect(await off.engine.systemPrompt(off.request)).not.toContain("Modules of loaded skills");
  });
});
