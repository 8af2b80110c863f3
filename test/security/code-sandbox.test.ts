// Decision 13 / issue 37: the model's code runs in a QuickJS-NG WebAssembly sandbox, one per thread.
// Each case tries to get past one promise (a limit, the module policy, the tool policy, the isolation
// of threads and of the host) and asserts the exact outcome; after each, the pool still runs the same
// thread and other threads.
import { afterAll, describe, expect, test } from "vitest";
import { createCodeSandboxPool } from "../../src/exec/code-sandbox/code-sandbox-pool.js";
import type { CodeRunHost, CodeRunOutcome } from "../../src/exec/code-sandbox/code-run-outcome.js";
import { formatCodeRunOutcome } from "../../src/exec/code-sandbox/format-code-run-outcome.js";

const limits = { timeoutMs: 1000, memoryBytes: 16 * 1024 * 1024, maxToolCalls: 256, maxResultChars: 2000 };
const pool = createCodeSandboxPool({ limits, keepValues: true });
// Filling the heap, or building and freeing very deep data, takes the engine's garbage collector a while
// on a busy machine: those attacks get more time, so that they end by the limit they test.
const roomy = createCodeSandboxPool({ limits: { ...limits, timeoutMs: 20_000 } });
afterAll(() => {
  pool.close();
  roomy.close();
});

const MODULES: Record<string, string> = {
  "@/skills/demo": "export const hello = 'hi';",
  "@/skills/demo/lib/a.js": "export const load = (s) => import(s); export const near = () => import('./' + '../b.js');",
  "@/skills/demo/b.js": "export default 'b';",
  "@/skills/bad": "const x = 1;\nthrow new Error('boom at import ' + x);",
};

/** A host that serves only MODULES (and records every specifier it is asked for) and the given tools. */
function strictHost(tools: CodeRunHost["tools"] = {}): CodeRunHost & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    tools,
    async loadModule(specifier) {
      asked.push(specifier);
      const source = MODULES[specifier];
      return source === undefined ? { error: `"${specifier}" is not a module of a loaded skill.` } : { source };
    },
  };
}

/** The note a kept-values thread gets when a limit stops its code. */
const RESET = "The sandbox was reset after the code was stopped; values kept from earlier runs are gone.";

let threadCount = 0;
/** Runs the attack in a fresh thread, then checks that thread and another still run code. */
async function attack(code: string, host: CodeRunHost = strictHost(), sandboxes = pool): Promise<CodeRunOutcome> {
  const thread = `attacker-${++threadCount}`;
  const outcome = await sandboxes.run(thread, code, host);
  for (const next of [thread, `bystander-${threadCount}`]) {
    const after = await sandboxes.run(next, "return 'alive';", strictHost());
    expect(after).toMatchObject({ ok: true, value: "alive" });
  }
  return outcome;
}

function failure(outcome: CodeRunOutcome): { kind: string; message: string } {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

describe("time", () => {
  test.each([
    ["a busy loop", "while (true) {}"],
    ["an async loop over resolved promises", "while (true) await Promise.resolve();"],
    ["a loop waiting on the clock", "const end = Date.now() + 60_000; while (Date.now() < end) {}"],
    ["a loop in a getter reached by JSON.stringify", "return { get x() { for (;;) {} } };"],
  ])("%s is stopped at the time limit", async (_name, code) => {
    const started = Date.now();
    const outcome = await attack(code);
    expect(failure(outcome)).toEqual({ kind: "timeout", message: "" });
    expect(Date.now() - started).toBeLessThan(limits.timeoutMs + 1500);
    expect(formatCodeRunOutcome(outcome, limits)).toBe(
      "Error: the code ran past its 1 s limit and was stopped. Do less in one run (fewer items, no busy or " +
        "waiting loops) and return partial results, or split the work over several runs.\n\n" +
        `Note: ${RESET}`,
    );
  });

  test("a run awaiting a tool that never answers ends at the deadline with the timeout error", async () => {
    const hang = strictHost({ slow: () => new Promise(() => {}) });
    const started = Date.now();
    const outcome = await attack("console.log('asked'); return await tools.slow({});", hang);
    expect(outcome).toEqual({
      ok: false,
      error: { kind: "timeout", message: "" },
      logs: ["asked"],
      logsCutChars: 0,
      toolCalls: 1,
      notes: [RESET],
    });
    expect(Date.now() - started).toBeLessThan(limits.timeoutMs + 1500);
  });

  test("there are no timers to run code after the run ends", async () => {
    const outcome = await attack(
      "return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof requestAnimationFrame];",
    );
    expect(outcome).toMatchObject({ ok: true, value: ["undefined", "undefined", "undefined", "undefined"] });
  });
});

describe("memory and stack", () => {
  test.each([
    ["an array that grows without end", "const a = []; while (true) a.push({ i: a.length, s: 'item' + a.length });"],
    ["strings kept in an array", "const s = 'x'.repeat(1 << 20); const a = []; while (true) a.push(s + a.length);"],
    ["one huge typed array", "return new Uint8Array(512 * 1024 * 1024).length;"],
  ])("%s ends with the memory error and a rebuilt sandbox", async (_name, code) => {
    const outcome = await attack(code, strictHost(), roomy);
    expect(failure(outcome)).toEqual({ kind: "memory", message: "" });
    expect(outcome.notes).toEqual([
      "The sandbox was rebuilt after reaching its memory limit; values kept from earlier runs are gone.",
    ]);
    expect(formatCodeRunOutcome(outcome, limits)).toBe(
      "Error: the code used more than its 16 MiB memory limit and was stopped. Keep less in memory: handle items " +
        "one at a time and return a summary rather than everything.\n\n" +
        "Note: The sandbox was rebuilt after reaching its memory limit; values kept from earlier runs are gone.",
    );
  });

  test("a string doubled without end is refused by the engine before it reaches the host", async () => {
    const outcome = await attack("let s = 'x'; while (true) s += s;");
    expect(failure(outcome).kind).toMatch(/^(memory|thrown)$/);
  });

  test("deep recursion is a RangeError the code could catch, not a crash", async () => {
    const outcome = await attack("function f(n) { return f(n + 1) + 1; } return f(0);");
    expect(failure(outcome).kind).toBe("thrown");
    expect(failure(outcome).message.split("\n")[0]).toBe("RangeError: Maximum call stack size exceeded");
    const caught = await attack("function f(n) { return f(n + 1) + 1; } try { f(0); } catch (e) { return e.name; }");
    expect(caught).toMatchObject({ ok: true, value: "RangeError" });
  });

  test("a value nested too deep to write as JSON is a result error", async () => {
    const outcome = await attack("let a = []; for (let i = 0; i < 20000; i++) a = [a]; return a;", strictHost(), roomy);
    expect(failure(outcome).kind).toBe("result");
    expect(failure(outcome).message.split("\n")[0]).toBe(
      "the returned value cannot be written as JSON (RangeError: Maximum call stack size exceeded",
    );
  });

  test.each([
    [
      "Array.prototype.toString",
      "let a = []; for (let i = 0; i < 20000; i++) a = [a]; return String(a).length;",
      "join",
    ],
    ["JSON.parse", "return JSON.parse('['.repeat(20000) + ']'.repeat(20000)).length;", "parse"],
    [
      "JSON.stringify",
      "let a = {}; for (let i = 0; i < 20000; i++) a = { a }; return JSON.stringify(a).length;",
      "stringify",
    ],
  ])("the engine's own recursion (%s) on deep data is a RangeError inside the sandbox", async (_name, code, frame) => {
    const outcome = await attack(code, strictHost(), roomy);
    expect(failure(outcome).kind).toBe("thrown");
    expect(failure(outcome).message.split("\n").slice(0, 2)).toEqual([
      "RangeError: Maximum call stack size exceeded",
      `    at ${frame} (native)`,
    ]);
  });
});

describe("output size", () => {
  test("a huge console.log reaches the host cut to the result size, with the cut counted", async () => {
    const outcome = await attack("console.log('x'.repeat(5_000_000)); return 1;");
    expect(outcome.logs.map((line) => line.length)).toEqual([2000]);
    expect(outcome.logsCutChars).toBe(5_000_000 - 2000);
  });

  test("many logs stop being kept at the result size", async () => {
    const outcome = await attack("for (let i = 0; i < 5000; i++) console.log('line ' + i); return 'done';");
    const written = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("").length;
    expect(outcome.logs.join("").length).toBe(2000);
    expect(outcome.logsCutChars).toBe(written - 2000);
    expect(outcome).toMatchObject({ ok: true, value: "done" });
  });

  test("a huge value comes back as its JSON cut to the result size, and the model is told how much was cut", async () => {
    const outcome = await attack("return 'y'.repeat(5_000_000);");
    expect(outcome).toMatchObject({ ok: true, value: undefined, jsonChars: 5_000_002 });
    expect(outcome.ok && outcome.json).toBe(`"${"y".repeat(1999)}`);
    expect(formatCodeRunOutcome(outcome, limits).split("\n").slice(-1)[0]).toBe(
      "[… 4998002 of 5000002 characters were cut: the output limit is 2000 characters. Return less (a summary, " +
        "fewer fields or records) or page through it over several runs.]",
    );
  });
});

describe("tool calls", () => {
  function counted(): { tools: CodeRunHost["tools"]; calls: () => number } {
    let calls = 0;
    return { tools: { ping: async () => ++calls }, calls: () => calls };
  }

  test.each([
    ["one after another", "for (let i = 0; i < 257; i++) await tools.ping({ i });", 257],
    ["all at once in Promise.all", "await Promise.all(Array.from({ length: 300 }, (_, i) => tools.ping({ i })));", 300],
    // Calls past the limit are refused at once; the code is stopped at the engine's next interrupt check.
    [
      "each failure caught",
      "for (let i = 0; i < 400; i++) { try { await tools.ping({}); } catch {} } return 'got away';",
      400,
    ],
  ])("a storm of tool calls (%s) ends with the tool-calls error; the host runs 256", async (_name, code, made) => {
    const { tools, calls } = counted();
    const outcome = await attack(code, strictHost(tools));
    expect(failure(outcome)).toEqual({ kind: "tool-calls", message: "" });
    expect(outcome.toolCalls).toBe(made);
    expect(calls()).toBe(256);
    expect(formatCodeRunOutcome(outcome, limits)).toBe(
      "Error: the code called tools more than 256 times in one run and was stopped. Make fewer calls per run: " +
        "handle part of the items, return what you have, and continue in another run.\n\n" +
        `Note: ${RESET}`,
    );
  });

  test("a tool that is not offered cannot be called, by name or through a function kept from an earlier run", async () => {
    const outcome = await attack("return await tools.deleteEverything({});", strictHost({ ping: async () => 1 }));
    expect(failure(outcome).message.split("\n")[0]).toBe(
      "TypeError: tools.deleteEverything is not a tool you can call here. Available tools: ping.",
    );
    await pool.run("keeper", "globalThis.kept = tools.ping; return await kept();", strictHost({ ping: async () => 1 }));
    const later = await pool.run("keeper", "return await kept();", strictHost({}));
    expect(failure(later).kind).toBe("thrown");
    expect(failure(later).message.split("\n")[0]).toBe(
      "TypeError: tools.ping is not a tool you can call here. Available tools: none.",
    );
  });
});

describe("modules", () => {
  test.each([
    [
      "a path climbing out of a skill",
      "import x from '@/skills/demo/../../etc/passwd';",
      "@/skills/demo/../../etc/passwd",
    ],
    ["an encoded climb", "await import('@/skills/%2e%2e/%2e%2e/etc/passwd');", "@/skills/%2e%2e/%2e%2e/etc/passwd"],
    [
      "a computed specifier",
      "const up = '..'; await import(['@/skills/demo', up, up, 'etc'].join('/'));",
      "@/skills/demo/../../etc",
    ],
    ["a Node built-in", "await import('node:fs');", "node:fs"],
    ["QuickJS's std module", "import * as std from 'std';", "std"],
    ["QuickJS's os module", "import * as os from 'os';", "os"],
    ["a relative import from the code", "import './secrets.js';", "./secrets.js"],
  ])("%s reaches loadModule as written, and the host's refusal reaches the model", async (_name, code, asked) => {
    const host = strictHost();
    const outcome = await attack(code, host);
    expect(host.asked).toEqual([asked]);
    expect(failure(outcome)).toEqual({
      kind: "import",
      message: `Cannot import "${asked}": "${asked}" is not a module of a loaded skill.`,
    });
  });

  test.each([
    ["climbing past the skills root", "'../../../../etc/passwd.js'", "@/../etc/passwd.js"],
    ["computed, near the importer", "'./' + '../b.js'", "@/skills/demo/b.js"],
  ])("a specifier computed inside a module (%s) is resolved against that module", async (_name, specifier, asked) => {
    const host = strictHost();
    const outcome = await pool.run(
      "modules",
      `import { load } from '@/skills/demo/lib/a.js'; return (await load(${specifier})).default;`,
      host,
    );
    expect(host.asked).toEqual(["@/skills/demo/lib/a.js", asked]);
    if (asked === "@/skills/demo/b.js") expect(outcome).toMatchObject({ ok: true, value: "b" });
    else
      expect(failure(outcome)).toEqual({
        kind: "import",
        message: `Cannot import "${asked}": "${asked}" is not a module of a loaded skill.`,
      });
  });

  test("import() through eval or Function cannot reach a module, even one an earlier run imported", async () => {
    await pool.run("evaluator", "import { hello } from '@/skills/demo'; return hello;", strictHost());
    const outcome = await pool.run(
      "evaluator",
      "return (await eval(\"import('@/skills/demo')\")).hello;",
      strictHost(),
    );
    expect(failure(outcome)).toEqual({
      kind: "thrown",
      message:
        'Error: Cannot import "@/skills/demo": only modules named directly in an import statement or import() call can be imported (not through eval or Function).',
    });
  });

  test("a module that throws at import is an import error with its message and place", async () => {
    const outcome = await attack("import '@/skills/bad'; return 'never';");
    expect(failure(outcome)).toEqual({
      kind: "import",
      message: "Error: boom at import 1\n    at <anonymous> (@/skills/bad:2:37)",
    });
  });
});

describe("isolation", () => {
  test("prototype pollution in one thread is not seen by another thread nor by the host, and its own bridge still works", async () => {
    const echo = { echo: async (args: unknown) => args };
    await pool.run(
      "polluter",
      "Object.prototype.x = 1; Array.prototype.push = () => 0; JSON.stringify = () => '\"hacked\"'; " +
        "JSON.parse = () => 'hacked'; Promise.prototype.then = () => { throw new Error('hacked'); }; String.prototype.slice = () => 'hacked';",
      strictHost(echo),
    );
    const own = await pool.run("polluter", "console.log('still', [1]); return ({}).x;", strictHost(echo));
    expect(own).toMatchObject({ ok: true, value: 1, logs: ["still [1]"] });
    const other = await pool.run(
      "clean",
      "const a = []; a.push(1); return [({}).x ?? 'none', a, JSON.stringify({ b: 1 })];",
      strictHost(),
    );
    expect(other).toMatchObject({ ok: true, value: ["none", [1], '{"b":1}'] });
    expect(({} as Record<string, unknown>).x).toBe(undefined);
    expect([].push.toString()).toBe("function push() { [native code] }");
  });

  test("nothing of the host's is reachable: no process, require, fetch, timers or WebAssembly; Function('return this') is the sandbox's own global", async () => {
    const outcome = await attack(
      "const g = Function('return this')(); const G = (async () => {}).constructor('return this')();" +
        "return { globals: [typeof process, typeof require, typeof module, typeof globalThis.fetch, typeof XMLHttpRequest, typeof std, typeof os, typeof WebAssembly, typeof Deno, typeof Bun]," +
        " same: [g === globalThis, typeof G], extra: Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__')).sort() };",
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        globals: Array(10).fill("undefined"),
        same: [true, "object"],
        extra: ["__skillset_import", "__skillset_set_tools", "__skillset_to_json"],
      },
    });
  });

  test("the bridge's globals cannot be replaced to forge a result", async () => {
    const outcome = await attack(
      "globalThis.__skillset_to_json = () => '1:{'; delete globalThis.__skillset_to_json; return { real: true };",
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: "thrown" } });
    const quiet = await attack("try { globalThis.__skillset_to_json = () => '1:{'; } catch {} return { real: true };");
    expect(quiet).toMatchObject({ ok: true, value: { real: true } });
  });
});
