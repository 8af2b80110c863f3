// Decision 11: bound YAML. Alias bombs, deep nesting, huge keys, tags, prototype keys and
// duplicate keys, through inspectSkill (lenient loading), validateSkillText (strict) and
// parseSkillDocument; each in bounded time, skipped with a diagnostic, nothing polluted.
// Inputs that can abort the process (a V8 fatal error) run in a child `node`.
import { existsSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { inspectSkill, parseSkillDocument, validateSkillText } from "../../src/index.js";
import { createLocalSource } from "../../src/node.js";
import { Sandbox, marker, put, removeCompiledSources, runChildScript, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
afterEach(() => sandbox.cleanupAll());
afterAll(() => removeCompiledSources());

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

const doc = (frontmatter: string, body = "body") => `---\n${frontmatter}\n---\n${body}\n`;

/** Runs all three entry points on `text`, each timed; never throws anything but a SkillsetError from parseSkillDocument. */
function everyParser(text: string) {
  const results: Record<string, { ms: number; outcome: string }> = {};
  const time = (label: string, fn: () => string) => {
    const started = performance.now();
    const outcome = fn();
    results[label] = { ms: performance.now() - started, outcome };
  };
  time("inspect", () => {
    const result = inspectSkill({ text, file: "/skills/x/SKILL.md", source: "test", directoryName: "x" });
    return result.skill
      ? `loaded:${result.diagnostics.map((d) => d.message).join("|")}`
      : `skipped:${result.diagnostics.map((d) => d.message).join("|")}`;
  });
  time("validate", () => {
    const report = validateSkillText(text);
    return report.valid ? "valid" : `invalid:${report.errors.join("|")}`;
  });
  for (const mode of ["strict", "lenient"] as const) {
    time(mode, () => {
      try {
        parseSkillDocument(text, mode);
        return "parsed";
      } catch (error) {
        expect((error as { name?: string }).name).toBe("SkillParseError");
        return `error:${(error as Error).message}`;
      }
    });
  }
  return results;
}

function billionLaughs(style: "flow" | "block", target: "extra" | "description" = "extra"): string {
  const lines = ["name: x", ...(target === "extra" ? ["description: y"] : [])];
  if (style === "flow") {
    lines.push('a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]');
    for (let level = 1; level <= 9; level++)
      lines.push(
        `a${level}: &a${level} [${Array(9)
          .fill(`*a${level - 1}`)
          .join(",")}]`,
      );
  } else {
    lines.push("a0: &a0\n" + Array(9).fill("  - lol").join("\n"));
    for (let level = 1; level <= 9; level++)
      lines.push(
        `a${level}: &a${level}\n` +
          Array(9)
            .fill(`  - *a${level - 1}`)
            .join("\n"),
      );
  }
  lines.push(target === "description" ? "description: *a9" : "bomb: *a9");
  return doc(lines.join("\n"));
}

describe("alias bombs", () => {
  for (const [label, text] of [
    ["flow, 9 levels", billionLaughs("flow")],
    ["block, 9 levels", billionLaughs("block")],
    ["the description itself is the bomb", billionLaughs("flow", "description")],
    [
      "merge keys",
      doc(
        [
          "name: x",
          "description: y",
          "a0: &a0 {a: 1, b: 2, c: 3}",
          ...Array.from(
            { length: 9 },
            (_, level) => `a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(",")}]`,
          ),
          "m:\n  <<: *a9",
        ].join("\n"),
      ),
    ],
    [
      "a bomb inside metadata",
      doc(
        [
          "name: x",
          "description: y",
          "metadata:",
          '  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
          ...Array.from(
            { length: 9 },
            (_, level) => `  a${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(",")}]`,
          ),
        ].join("\n"),
      ),
    ],
  ] as const) {
    it(`${label}: skipped (lenient) and invalid (strict), quickly and without a memory blow-up`, () => {
      const before = process.memoryUsage().rss;
      const results = everyParser(text);
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
      for (const [name, { ms }] of Object.entries(results)) expect(ms, name).toBeLessThan(1000);
      expect(results.inspect!.outcome).toMatch(/^skipped:.*(alias|resource exhaustion)/i);
      expect(results.validate!.outcome).toMatch(
        /^invalid:Invalid YAML in frontmatter: (anchors|aliases) are not allowed/,
      );
      expect(results.strict!.outcome).toMatch(/^error:Invalid YAML/);
      expect(results.lenient!.outcome).toMatch(/^error:Invalid YAML/);
    });
  }

  it("a few aliases of a large scalar stay bounded (no copy explosion)", () => {
    const big = "x".repeat(1024 * 1024);
    const text = doc(
      ["name: x", `description: &d ${big}`, ...Array.from({ length: 40 }, (_, i) => `k${i}: *d`)].join("\n"),
    );
    const before = process.memoryUsage().rss;
    const results = everyParser(text);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    for (const [name, { ms }] of Object.entries(results)) expect(ms, name).toBeLessThan(3000);
  });
});

describe("deep nesting", () => {
  it("moderate nesting (200 levels, flow and block) is handled in-process in bounded time", () => {
    const cases = [
      doc("name: x\ndescription: y\nk: " + "[".repeat(200) + "]".repeat(200)),
      doc("name: x\ndescription: y\nk: " + "{a: ".repeat(200) + "b" + "}".repeat(200)),
      doc(
        "name: x\ndescription: y\nk:\n" +
          Array.from({ length: 200 }, (_, i) => " ".repeat(2 * i + 2) + "-").join("\n") +
          " x",
      ),
      doc(
        "name: x\ndescription: y\nk:\n" +
          Array.from({ length: 200 }, (_, i) => " ".repeat(i + 1) + "a:").join("\n") +
          " x",
      ),
    ];
    for (const text of cases)
      for (const [name, { ms }] of Object.entries(everyParser(text))) expect(ms, name).toBeLessThan(1000);
  });

  const deepScript = (call: string) => `
    import { inspectSkill, parseSkillDocument, validateSkillText } from "./src/index.js";
    import { createLocalSource } from "./src/node.js";
    const [n, closed] = [Number(process.argv[2]), process.argv[3] === "closed"];
    const text = "---\\nname: x\\ndescription: y\\nk: " + "[".repeat(n) + (closed ? "]".repeat(n) : "") + "\\n---\\nbody\\n";
    const started = performance.now();
    ${call}
    console.log("OK " + Math.round(performance.now() - started));
  `;
  const DEPTHS: Array<[number, "open" | "closed"]> = [
    [5000, "closed"],
    [8000, "open"],
    [10000, "open"],
    [50000, "closed"],
  ];

  async function survivesAll(call: string) {
    const outcomes = await Promise.all(
      DEPTHS.map(([n, closed]) => runChildScript(deepScript(call), 20_000, [String(n), closed])),
    );
    return outcomes.map((outcome, index) => ({
      input: DEPTHS[index],
      ok: outcome.status === 0 && outcome.stdout.startsWith("OK"),
      fatal: /FATAL ERROR[^\n]*/.exec(outcome.stderr)?.[0],
      ms: outcome.ms,
    }));
  }

  it("10,000 `[` (and similar): validateSkillText and parseSkillDocument fail cleanly, in a fresh process", async () => {
    const outcomes = await survivesAll(`
      const report = validateSkillText(text);
      if (report.valid || !/Invalid YAML/.test(report.errors[0])) throw new Error("unexpected: " + JSON.stringify(report));
      for (const mode of ["strict", "lenient"]) {
        try { parseSkillDocument(text, mode); throw new Error("parsed"); } catch (error) { if (error.name !== "SkillParseError") throw error; }
      }`);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  });

  it("deep block nesting (3,000 levels of `- ` or `a:`, 10,000 compact `- - -`): every parser, inspectSkill included, fails cleanly (fresh process)", async () => {
    const script = `
      import { inspectSkill, parseSkillDocument, validateSkillText } from "./src/index.js";
      const n = Number(process.argv[3]);
      const values = {
        blockseq: () => "k:\\n" + Array.from({ length: n }, (_, i) => " ".repeat(i * 2 + 2) + "-").join("\\n") + " x",
        blockmap: () => "k:\\n" + Array.from({ length: n }, (_, i) => " ".repeat(i + 1) + "a:").join("\\n") + " x",
        compact: () => "k:\\n  " + "- ".repeat(n) + "x",
      };
      const text = "---\\nname: x\\ndescription: y\\n" + values[process.argv[2]]() + "\\n---\\nbody\\n";
      const started = performance.now();
      inspectSkill({ text, file: "/s/x/SKILL.md", source: "test" });
      validateSkillText(text);
      for (const mode of ["strict", "lenient"]) {
        try { parseSkillDocument(text, mode); } catch (error) { if (error.name !== "SkillParseError") throw error; }
      }
      console.log("OK " + Math.round(performance.now() - started));
    `;
    const inputs: Array<[string, number]> = [
      ["blockseq", 3000],
      ["blockmap", 3000],
      ["compact", 10_000],
    ];
    const outcomes = await Promise.all(inputs.map(([kind, n]) => runChildScript(script, 20_000, [kind, String(n)])));
    for (const [index, outcome] of outcomes.entries()) {
      expect(outcome.stderr, inputs[index]!.join(" ")).not.toMatch(/FATAL ERROR/);
      expect(outcome.stdout, `${inputs[index]!.join(" ")}: ${outcome.stderr.slice(-300)}`).toMatch(/^OK/);
    }
  });

  // Found by this suite (fixed): thousands of nested `[` aborted V8 (no try/catch could stop it);
  // frontmatter deeper than 64 levels is now refused before it reaches the YAML parser.
  it("inspectSkill survives a frontmatter value of thousands of nested `[` (fresh process)", async () => {
    const outcomes = await survivesAll(`
      const result = inspectSkill({ text, file: "/s/x/SKILL.md", source: "test" });
      if (result.diagnostics.length === 0) throw new Error("no diagnostic");`);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  });

  it("createLocalSource discovery survives a SKILL.md with 10,000 nested `[` (fresh process)", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    put(root, "deep/SKILL.md", doc("name: deep\ndescription: y\nk: " + "[".repeat(10_000)));
    const outcome = await runChildScript(
      `import { createLocalSource } from "./src/node.js";
       const source = createLocalSource({ path: process.argv[2], watch: false });
       const scan = await source.scan();
       console.log(scan.skills.map((skill) => skill.name).join(","));`,
      20_000,
      [root],
    );
    expect(outcome.stderr).not.toMatch(/FATAL ERROR/);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toMatch(/good/);
  });
});

describe("size of the frontmatter", () => {
  const worstCase = `
    import { inspectSkill, validateSkillText } from "./src/index.js";
    const parts = []; let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024 - 100; i++) { const line = "k" + i + ": a: b"; parts.push(line); size += line.length + 1; }
    const text = "---\\nname: x\\ndescription: y\\n" + parts.join("\\n") + "\\n---\\n";
    const started = performance.now();
    if (process.argv[2] === "inspect") inspectSkill({ text, file: "f", source: "s" }); else validateSkillText(text);
    console.log("OK " + Math.round(performance.now() - started) + " ms, rss " + Math.round(process.memoryUsage().rss / 1e6) + " MB");
  `;

  // Found by this suite (fixed): a 10 MiB frontmatter of invalid lines took ~30 s; frontmatter is
  // capped at 256 KiB and the repair of invalid lines at 50 lines.
  it("a 10 MiB frontmatter of invalid lines is handled in < 5 s by inspectSkill and validateSkillText", async () => {
    const outcomes = await Promise.all(
      ["inspect", "validate"].map((which) => runChildScript(worstCase, 5000, [which])),
    );
    for (const outcome of outcomes) {
      expect(outcome.timedOut).toBe(false);
      expect(outcome.stdout).toMatch(/^OK/);
    }
  });

  it("huge keys and many keys are bounded", () => {
    const cases = [
      doc("name: x\ndescription: y\n" + "k".repeat(1_000_000) + ": v"),
      doc("name: x\ndescription: y\n? " + "k".repeat(1_000_000) + "\n: v"),
      doc("name: x\ndescription: y\n" + Array.from({ length: 20_000 }, (_, i) => `key${i}: v`).join("\n")),
      doc("name: x\ndescription: y\n? [a, b]\n: c\n? {a: b}\n: d"),
    ];
    for (const text of cases)
      for (const [name, { ms }] of Object.entries(everyParser(text))) expect(ms, name).toBeLessThan(3000);
  });
});

describe("tags", () => {
  it("no tag executes anything or changes a value's type; strict validation refuses tags", () => {
    const mark = `${sandbox.folder()}/${marker()}`;
    const text = doc(
      [
        "name: !!str x",
        "description: !custom y",
        `exec: !!python/object/apply:os.system ["touch ${mark}"]`,
        "fn: !!js/function 'function () { globalThis.pwned = true }'",
        "bin: !!binary aGVsbG8=",
        "undef: !<tag:yaml.org,2002:js/undefined> ''",
        "regexp: !!js/regexp /a/",
        "num: !!int 3",
      ].join("\n"),
    );
    const results = everyParser(text);
    expect(results.validate!.outcome).toMatch(/tags are not allowed/);
    const inspected = inspectSkill({ text, file: "f", source: "s" });
    if (inspected.skill) {
      expect(typeof inspected.skill.name).toBe("string");
      expect(typeof inspected.skill.description).toBe("string");
    }
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(existsSync(mark)).toBe(false);
  });
});

describe("prototype keys", () => {
  const texts = [
    doc("name: x\ndescription: y\n__proto__:\n  polluted: yes\n  name: evil"),
    doc('name: x\ndescription: y\n"__proto__": {polluted: yes}'),
    doc("__proto__:\n  name: evil\n  description: from the prototype"),
    doc("name: x\ndescription: y\nmetadata:\n  __proto__:\n    polluted: yes\n  constructor: c\n  prototype: p"),
    doc("name: x\ndescription: y\nmetadata:\n  __proto__: polluted"),
    doc("name: x\ndescription: y\nconstructor:\n  prototype:\n    polluted: yes"),
    doc("name: x\ndescription: y\nconstructor: c\ntoString: t\nhasOwnProperty: h\nvalueOf: v"),
    doc("name: x\ndescription: y\nallowed-tools:\n  - __proto__\n  - constructor"),
  ];

  it("no input pollutes Object.prototype, and no field comes from a prototype", async () => {
    for (const text of texts) {
      everyParser(text);
      const inspected = inspectSkill({ text, file: "f", source: "s" });
      if (inspected.skill) {
        expect(inspected.skill.name).not.toBe("evil");
        expect(
          Object.getPrototypeOf(inspected.skill.metadata) === Object.prototype ||
            Object.getPrototypeOf(inspected.skill.metadata) === null,
        ).toBe(true);
      }
      for (const mode of ["strict", "lenient"] as const) {
        try {
          const { frontmatter } = parseSkillDocument(text, mode);
          const proto = Object.getPrototypeOf(frontmatter);
          expect(proto === Object.prototype || proto === null).toBe(true);
        } catch {
          // refused: fine
        }
      }
    }
    // The same through a real source.
    const root = sandbox.folder();
    texts.forEach((text, index) => put(root, `s${index}/SKILL.md`, text));
    const source = createLocalSource({ path: root, watch: false });
    const scan = await source.scan();
    source.close?.();
    expect(scan.skills.map((skill) => skill.name)).not.toContain("evil");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  });

  it("a frontmatter that is only `__proto__: {name, description}` is skipped as missing its name", () => {
    const result = inspectSkill({ text: texts[2]!, file: "f", source: "s" });
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics[0]!.message).toMatch(/name/);
  });
});

describe("duplicate keys", () => {
  const texts = [
    doc("name: x\ndescription: y\nname: z"),
    doc('name: x\ndescription: y\n"name": z'),
    doc("name: x\ndescription: y\n'description': other"),
    doc("name: x\ndescription: y\nmetadata:\n  a: 1\n  a: 2"),
    doc("name: x\ndescription: y\nmetadata: {a: 1, a: 2}"),
    doc("name: x\r\ndescription: y\r\nname: z"),
  ];
  it("are refused by strict validation and reported by lenient loading, never resolved silently", () => {
    for (const text of texts) {
      const results = everyParser(text);
      expect(results.validate!.outcome, text).toMatch(/^invalid:Invalid YAML in frontmatter:.*unique/);
      // Lenient loading may quote a broken one-line value and load with a warning; either way
      // the duplicate is reported, never resolved silently to one of the values.
      expect(results.inspect!.outcome, text).toMatch(/unique/);
    }
  });
});
