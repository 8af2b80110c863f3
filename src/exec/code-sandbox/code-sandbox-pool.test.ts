import { afterEach, describe, expect, test } from "vitest";
import { createCodeSandboxPool, type CodeSandboxPool } from "./code-sandbox-pool.js";
import type { CodeRunHost, CodeRunOutcome } from "./code-run-outcome.js";

const pools: CodeSandboxPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

function pool(options: Parameters<typeof createCodeSandboxPool>[0] = {}): CodeSandboxPool {
  const created = createCodeSandboxPool(options);
  pools.push(created);
  return created;
}

/** A host serving the given modules (an entrypoint may name its full specifier) and tools; it records what was asked. */
function host(
  modules: Record<string, string | { source: string; specifier: string }> = {},
  tools: CodeRunHost["tools"] = {},
): CodeRunHost & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    tools,
    async loadModule(specifier) {
      asked.push(specifier);
      const module = modules[specifier];
      if (module === undefined) return { error: `"${specifier}" is not a loaded skill's module.` };
      return typeof module === "string" ? { source: module } : module;
    },
  };
}

function value(outcome: CodeRunOutcome): unknown {
  if (!outcome.ok) throw new Error(`run failed: ${outcome.error.kind}: ${outcome.error.message}`);
  return outcome.value;
}

describe("the code is the body of an async function", () => {
  test("`return` gives the value as a JSON copy, with logs and the tool-call count", async () => {
    const outcome = await pool().run(
      "t",
      "console.log('a', 1, {b: [2]}); return { sum: 1 + 2, list: [1, 'x'] };",
      host(),
    );
    expect(outcome).toEqual({
      ok: true,
      value: { sum: 3, list: [1, "x"] },
      json: '{"sum":3,"list":[1,"x"]}',
      jsonChars: 24,
      logs: ['a 1 {"b":[2]}'],
      logsCutChars: 0,
      toolCalls: 0,
      notes: [],
    });
  });

  test("console.info/warn/error/debug are captured, warn/error/debug with a prefix; Errors show name and message", async () => {
    const outcome = await pool().run(
      "t",
      "console.info('i'); console.warn('w'); console.error(new TypeError('bad')); console.debug(null, undefined);",
      host(),
    );
    expect(outcome.logs).toEqual(["i", "warn: w", "error: TypeError: bad", "debug: null undefined"]);
    expect(outcome.ok && outcome.json).toBe(undefined);
  });

  test("`await` works at the top, and a value that is not JSON (a function) is returned as nothing", async () => {
    expect(value(await pool().run("t", "const x = await Promise.resolve(41); return x + 1;", host()))).toBe(42);
    const fn = await pool().run("t", "return () => 1;", host());
    expect(fn).toMatchObject({ ok: true, value: undefined, json: undefined, jsonChars: 0 });
  });
});

describe("imports", () => {
  const modules = {
    "@/skills/csv": {
      source: "export { parse } from './lib/parse.js'; export default 'csv';",
      specifier: "@/skills/csv/index.js",
    },
    "@/skills/csv/lib/parse.js": "import { split } from '../util/split.js'; export const parse = (t) => split(t, ',');",
    "@/skills/csv/util/split.js": "export const split = (t, c) => t.split(c);",
  };

  test("a static import at the top, its relative imports resolved against the entrypoint's full specifier", async () => {
    const served = host(modules);
    const outcome = await pool().run(
      "t",
      "import name, { parse } from '@/skills/csv';\nreturn [name, parse('a,b')];",
      served,
    );
    expect(value(outcome)).toEqual(["csv", ["a", "b"]]);
    expect(served.asked).toEqual(["@/skills/csv", "@/skills/csv/lib/parse.js", "@/skills/csv/util/split.js"]);
  });

  test("`await import(…)` loads through the host too, and both names of an entrypoint are one module instance", async () => {
    const served = host({ ...modules, "@/skills/csv/index.js": "export default 'never read: the alias is used'" });
    const outcome = await pool().run(
      "t",
      "const a = await import('@/skills/csv'); const b = await import('@/skills/csv/index.js'); return [a === b, a.parse('x,y')];",
      served,
    );
    expect(value(outcome)).toEqual([true, ["x", "y"]]);
    expect(served.asked).toEqual(["@/skills/csv", "@/skills/csv/lib/parse.js", "@/skills/csv/util/split.js"]);
  });

  test("a module is asked of the host again on every run, so one the host stops serving cannot be imported", async () => {
    const sandboxes = pool({ keepValues: true });
    const served = host({ "@/skills/a": "export default 1;" });
    expect(value(await sandboxes.run("t", "import a from '@/skills/a'; return a;", served))).toBe(1);
    const outcome = await sandboxes.run("t", "import a from '@/skills/a'; return a;", host());
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: "import", message: 'Cannot import "@/skills/a": "@/skills/a" is not a loaded skill\'s module.' },
    });
  });

  test("a module that changed since a kept context imported it resets the context and says so", async () => {
    const sandboxes = pool({ keepValues: true });
    await sandboxes.run(
      "t",
      "import a from '@/skills/a'; globalThis.kept = a; return a;",
      host({ "@/skills/a": "export default 1;" }),
    );
    const outcome = await sandboxes.run(
      "t",
      "import a from '@/skills/a'; return [a, typeof kept];",
      host({ "@/skills/a": "export default 2;" }),
    );
    expect(value(outcome)).toEqual([2, "undefined"]);
    expect(outcome.notes).toEqual([
      'Module "@/skills/a" changed since an earlier run; the sandbox was reset and values kept from earlier runs are gone.',
    ]);
  });

  test("a module the host never answers for ends the run at its time limit", async () => {
    const hanging: CodeRunHost = { tools: {}, loadModule: () => new Promise(() => {}) };
    const outcome = await pool({ limits: { timeoutMs: 200 } }).run(
      "t",
      "import a from '@/skills/slow'; return a;",
      hanging,
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: "timeout", message: "" } });
  });

  test("a module with a syntax error is an import error naming the module, line and column", async () => {
    const outcome = await pool().run("t", "import '@/skills/x';", host({ "@/skills/x": "export const a = ;\n" }));
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        kind: "import",
        message: 'Cannot import "@/skills/x": SyntaxError in @/skills/x at line 1, column 18: Unexpected token',
      },
    });
  });
});

describe("tools", () => {
  test("arguments and results cross as JSON copies, never as shared objects", async () => {
    const seen: unknown[] = [];
    const shared = { n: 1, when: new Date(0) };
    const tools = {
      echo: async (args: unknown) => {
        seen.push(args);
        return shared;
      },
    };
    const outcome = await pool().run(
      "t",
      "const arg = { a: [1], f() {} }; const r = await tools.echo(arg); r.n = 99; arg.a.push(2); return [r, await tools.echo()];",
      host({}, tools),
    );
    expect(value(outcome)).toEqual([
      { n: 99, when: "1970-01-01T00:00:00.000Z" },
      { n: 1, when: "1970-01-01T00:00:00.000Z" },
    ]);
    expect(seen).toEqual([{ a: [1] }, null]);
    expect(shared.n).toBe(1);
    expect(outcome.toolCalls).toBe(2);
  });

  test("a rejected tool call is a rejected promise with the host's message: caught, or ending the run", async () => {
    const tools = {
      fail: async () => {
        throw new Error("no such record 7");
      },
    };
    const caught = await pool().run(
      "t",
      "try { await tools.fail({}); } catch (e) { return e.message; }",
      host({}, tools),
    );
    expect(value(caught)).toBe("no such record 7");
    const uncaught = await pool().run("t", "await tools.fail({});", host({}, tools));
    expect(uncaught).toMatchObject({
      ok: false,
      error: { kind: "thrown", message: "Error: no such record 7" },
      toolCalls: 1,
    });
  });
});

test("tools named like Object's own properties are plain tools", async () => {
  const tools = { constructor: async () => "c", toString: async () => "t" };
  const named = Object.defineProperty(tools, "__proto__", { value: async () => "p", enumerable: true });
  const outcome = await pool().run(
    "t",
    "return [await tools.constructor(), await tools.__proto__(), await tools.toString(), Object.keys(tools)];",
    host({}, named),
  );
  expect(value(outcome)).toEqual(["c", "p", "t", ["constructor", "toString", "__proto__"]]);
});

describe("keepValues", () => {
  test("off (the default): each run starts from a fresh global object", async () => {
    const sandboxes = pool();
    await sandboxes.run("t", "globalThis.count = 1; Object.prototype.polluted = true;", host());
    expect(value(await sandboxes.run("t", "return [typeof count, ({}).polluted];", host()))).toEqual([
      "undefined",
      null,
    ]);
  });

  test("on: what a run puts on globalThis is there in the thread's next run, but declarations stay local", async () => {
    const sandboxes = pool({ keepValues: true });
    await sandboxes.run("t", "globalThis.count = 1; const local = 2;", host());
    expect(value(await sandboxes.run("t", "count += 1; return [count, typeof local];", host()))).toEqual([
      2,
      "undefined",
    ]);
    expect(value(await sandboxes.run("other", "return typeof count;", host()))).toBe("undefined");
  });

  test("on: a run stopped by a limit resets the thread's values and says so", async () => {
    const sandboxes = pool({ keepValues: true, limits: { timeoutMs: 200 } });
    await sandboxes.run("t", "globalThis.count = 1;", host());
    const stopped = await sandboxes.run("t", "count = 2; while (true) {}", host());
    expect(stopped).toMatchObject({
      ok: false,
      error: { kind: "timeout" },
      notes: ["The sandbox was reset after the code was stopped; values kept from earlier runs are gone."],
    });
    expect(value(await sandboxes.run("t", "return typeof count;", host()))).toBe("undefined");
  });
});

describe("the pool", () => {
  test("runs of one thread wait for each other; other threads run beside them", async () => {
    const sandboxes = pool({ keepValues: true });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tools = { wait: () => gate.then(() => "opened") };
    const first = sandboxes.run(
      "t",
      "globalThis.order = ['first']; await tools.wait(); order.push('first done'); return order;",
      host({}, tools),
    );
    const second = sandboxes.run("t", "order.push('second'); return order;", host());
    const other = await sandboxes.run("u", "return 'other thread ran';", host());
    expect(value(other)).toBe("other thread ran");
    release();
    expect(value(await first)).toEqual(["first", "first done"]);
    expect(value(await second)).toEqual(["first", "first done", "second"]);
  });

  test("keeps at most maxSandboxes live, freeing the least recently used thread's", async () => {
    const sandboxes = pool({ maxSandboxes: 2 });
    await sandboxes.run("a", "return 1", host());
    await sandboxes.run("b", "return 1", host());
    await sandboxes.run("a", "return 1", host());
    await sandboxes.run("c", "return 1", host());
    expect(sandboxes.threads()).toEqual(["a", "c"]);
    sandboxes.release("a");
    expect(sandboxes.threads()).toEqual(["c"]);
    expect(value(await sandboxes.run("a", "return 'a again'", host()))).toBe("a again");
  });

  test("release() while a run is going lets it finish, then frees its sandbox; the thread's next run starts afresh", async () => {
    const sandboxes = pool({ keepValues: true });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = sandboxes.run(
      "t",
      "globalThis.mark = 1; await tools.wait(); return mark;",
      host({}, { wait: () => gate }),
    );
    sandboxes.release("t");
    expect(sandboxes.threads()).toEqual([]);
    release();
    expect(value(await running)).toBe(1);
    expect(value(await sandboxes.run("t", "return typeof mark;", host()))).toBe("undefined");
  });

  test("runs queued behind a run when the pool closes are refused with sandbox-closed", async () => {
    const sandboxes = pool();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => {};
    const waiting = new Promise<void>((resolve) => (started = resolve));
    const wait = () => {
      started();
      return gate;
    };
    const first = sandboxes.run("t", "await tools.wait(); return 'first';", host({}, { wait }));
    const queued = sandboxes.run("t", "return 'queued';", host());
    await waiting;
    sandboxes.close();
    release();
    expect(value(await first)).toBe("first");
    await expect(queued).rejects.toMatchObject({ code: "sandbox-closed" });
  });

  test("after close() a run is refused with sandbox-closed", async () => {
    const sandboxes = pool();
    await sandboxes.run("a", "return 1", host());
    sandboxes.close();
    await expect(sandboxes.run("a", "return 1", host())).rejects.toMatchObject({
      code: "sandbox-closed",
      message: "This code sandbox pool was closed.",
    });
  });

  test("limits are checked up front, naming the limit and its range", () => {
    expect(() => createCodeSandboxPool({ limits: { timeoutMs: 0 } })).toThrow(
      "Code limit timeoutMs must be an integer from 1 to 2147483647; got 0.",
    );
    expect(() => createCodeSandboxPool({ limits: { memoryBites: 1 } as never })).toThrow(
      "Unknown code limit memoryBites; the limits are memoryBytes, timeoutMs, maxToolCalls, maxResultChars.",
    );
    expect(createCodeSandboxPool({ limits: { maxToolCalls: 3 } }).limits).toEqual({
      memoryBytes: 67108864,
      timeoutMs: 5000,
      maxToolCalls: 3,
      maxResultChars: 20000,
    });
  });
});

describe("syntax errors", () => {
  test("name the line and column as the model wrote them", async () => {
    const outcome = await pool().run("t", "const a = 1;\nreturn a +;", host());
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: "syntax", message: "SyntaxError in run_code.js at line 2, column 11: Unexpected token" },
    });
  });

  test("`export` is refused with what to do instead", async () => {
    const outcome = await pool().run("t", "export const a = 1;", host());
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: "syntax", message: "line 1, column 1: `export` is not available here; return the value instead." },
    });
  });

  test("a runtime error's stack names the line and column in the code as written", async () => {
    const outcome = await pool().run("t", "const a = 1;\n  null.x;", host());
    expect(outcome).toMatchObject({ ok: false, error: { kind: "thrown" } });
    expect(!outcome.ok && outcome.error.message.split("\n").slice(0, 2)).toEqual([
      "TypeError: cannot read property 'x' of null",
      "    at <anonymous> (run_code.js:2:3)",
    ]);
    const firstLine = await pool().run("t", "  null.x;", host());
    expect(!firstLine.ok && firstLine.error.message.split("\n")[1]).toBe("    at <anonymous> (run_code.js:1:3)");
  });
});

describe("a sandbox's own upkeep", () => {
  test("without kept values, a sandbox whose heap grew past 32 MiB is replaced after the run", async () => {
    const { createCodeSandbox } = await import("./code-sandbox.js");
    const { resolveCodeLimits } = await import("./code-limits.js");
    const sandbox = await createCodeSandbox({
      limits: resolveCodeLimits({ memoryBytes: 128 * 1024 * 1024 }),
      keepValues: false,
    });
    expect(value(await sandbox.run("return 1;", host()))).toBe(1);
    expect(sandbox.usable).toBe(true);
    const big = await sandbox.run("const a = new Uint8Array(40 * 1024 * 1024); a[1] = 1; return a.length;", host());
    expect(value(big)).toBe(41943040);
    expect(sandbox.usable).toBe(false);
    sandbox.dispose();
  });

  test("a `__proto__` key in a tool's arguments does not reach the tool", async () => {
    const seen: unknown[] = [];
    const tools = {
      merge: async (args: unknown) => {
        seen.push(args);
        return Object.assign({}, args as object);
      },
    };
    const outcome = await pool().run(
      "t",
      'const args = JSON.parse(\'{"a":1,"__proto__":{"polluted":true},"b":{"__proto__":{"x":1}}}\'); return await tools.merge(args);',
      host({}, tools),
    );
    expect(value(outcome)).toEqual({ a: 1, b: {} });
    expect(seen).toEqual([{ a: 1, b: {} }]);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });
});
