// Docs that cannot rot: every fenced block of README.md and docs/**/*.md (but docs/notes/) is
// checked against the BUILT package (`npm test` builds dist first), and so are the links between
// the pages.
//
//   ts, typescript, js, mjs  typechecked with the project's compiler options (strict, NodeNext): each
//                            block is a file under test/docs/.snippets/__fixtures__/ (ignored by
//                            git, eslint and tsc), so `skillset`, `skillset/langchain`, `skillset/ai`,
//                            `skillset/mcp` and `skillset/node` resolve to the package itself
//                            (self-reference through package.json `exports`); js/mjs as checked JS.
//   sh, bash                 every `skillset <command>` must be a command of the built CLI and its
//                            flags in `<command> --help`; every `npm run X` a script of package.json;
//                            never `npx skillset` (not on the npm registry). Run for real with `run`.
//   text                     output shown to readers, as recorded: its `$ ` lines are checked as
//                            commands, its `→ ` lines (MCP requests) must be JSON, and with
//                            `mcp-exchange` it is replayed; the rest of it is not checked.
//   json                     parses (an MCP client config: its skillset command is checked too).
//   yaml                     parses; a cases file (`cases:`) is read by `skillset eval` itself.
//   markdown                 a SKILL.md (frontmatter first), read by the built package: valid under
//                            strict validation (validateSkillText, Claude Code's fields allowed as
//                            with --allow-claude-code-fields) and loaded without any diagnostic at
//                            runtime (inspectSkill); ```markdown invalid: a SKILL.md that must fail.
//
// A block that is only an illustration says so where readers see it, and only those are skipped:
// the info string ```ts illustration, or a first line `// illustration only` (`# illustration only`).
//
// Hidden directives: an HTML comment right before a block (GitHub shows nothing of it):
//   <!-- snippet: prelude CODE -->  code compiled before the block, e.g. the declarations it assumes:
//                                   <!-- snippet: prelude declare const model: string; -->
//                                   (several preludes add up; keep them minimal)
//   <!-- snippet: file NAME -->     the block is written as NAME.ts, so a later block of the same page
//                                   can `<!-- snippet: prelude import { x } from "./NAME.js"; -->`
//   <!-- snippet: run -->           a sh block whose every line runs from the repository's root, with
//                                   `skillset` the built CLI, a scratch HOME and TMPDIR: each must exit 0
//   <!-- snippet: mcp-exchange F --> a text block of `→ request` / `← response` lines: the requests are
//                                   sent to `skillset mcp F`, each `←` line (up to a `…`) must match
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { parseDocument } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import type * as Skillset from "../src/index.js";
import { type CodeBlock, codeBlocks, documentationFiles, where } from "./docs/markdown-blocks.js";
import { linkProblems } from "./docs/links.js";
import { replayMcpExchange } from "./docs/mcp-exchange.js";
import {
  type CliHelp,
  commandLines,
  commandProblems,
  npmScripts,
  readCliHelp,
  runCommandLines,
} from "./docs/shell-commands.js";
import { COMPILED, typecheckBlocks } from "./docs/typecheck-snippets.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
const SNIPPETS = join(ROOT, "test/docs/.snippets/__fixtures__");

const SHELL = new Set(["sh", "bash", "shell"]);
const KNOWN = new Set([...Object.keys(COMPILED), ...SHELL, "text", "json", "yaml", "yml", "markdown", "md"]);

const docs = documentationFiles(ROOT);
const blocks = docs.flatMap((doc) => codeBlocks(ROOT, doc));
const isIllustration = (block: CodeBlock) =>
  block.flags.includes("illustration") || /^\s*(\/\/|#) illustration only\b/.test(block.code);
const checked = blocks.filter((block) => !isIllustration(block));
const ofKind = (...langs: string[]) => checked.filter((block) => langs.includes(block.lang));
const cases = (list: CodeBlock[]) => list.map((block) => [where(block), block] as const);

// The built package, as the snippets see it; typed from the sources, so tsc needs no build.
const skillset = (await import(pathToFileURL(join(ROOT, "dist/index.js")).href)) as typeof Skillset;
// What the built CLI says about its commands and options, read once.
let help: Promise<CliHelp> | undefined;
const cliHelp = () => (help ??= readCliHelp(CLI));

describe("documentation code blocks", () => {
  it(`are found (${blocks.length} in ${docs.length} files: ${summary()})`, () => {
    expect(existsSync(CLI), "build first: npm run build").toBe(true);
    expect(blocks.length).toBeGreaterThan(0);
  });

  it("each say their language, one this test checks", () => {
    const unknown = blocks
      .filter((block) => !KNOWN.has(block.lang))
      .map((block) => `${where(block)}: \`\`\`${block.lang || "(no language)"}`);
    expect(unknown).toEqual([]);
  });

  it("never run `npx skillset`: skillset is not on the npm registry, so npx would fetch whatever is published under the name", () => {
    const npx = blocks.filter((block) => /\bnpx\b(?![^\n]*--no-install)[^\n]*\bskillset\b/.test(block.code)).map(where);
    expect(npx).toEqual([]);
  });

  describe("TypeScript and JavaScript typecheck against the built package", () => {
    const compiled = ofKind(...Object.keys(COMPILED));
    let diagnostics: Map<CodeBlock, string[]>;
    beforeAll(() => {
      diagnostics = typecheckBlocks(ROOT, SNIPPETS, compiled);
    }, 600_000);
    it.each(cases(compiled))("%s", (_, block) => {
      expect(diagnostics.get(block)).toEqual([]);
    });
  });

  describe("shell commands name real commands, options and scripts", () => {
    const scripts = npmScripts(ROOT);
    beforeAll(cliHelp, 120_000);
    const prompted = (block: CodeBlock) => !SHELL.has(block.lang);
    it.each(cases([...ofKind(...SHELL), ...ofKind("text").filter((block) => /^\$ /m.test(block.code))]))(
      "%s",
      async (_, block) => {
        const lines = commandLines(block.code, { prompted: prompted(block) });
        const help = await cliHelp();
        expect(lines.flatMap((line) => commandProblems(line, help, scripts))).toEqual([]);
      },
    );
  });

  describe("shell blocks marked `run` succeed", () => {
    it.each(cases(ofKind(...SHELL).filter((block) => block.run)))(
      "%s",
      (_, block) => {
        expect(runCommandLines(ROOT, CLI, commandLines(block.code, { prompted: false }))).toEqual([]);
      },
      120_000,
    );
  });

  describe("JSON parses", () => {
    beforeAll(cliHelp, 120_000);
    it.each(cases(ofKind("json")))("%s", async (_, block) => {
      const value = JSON.parse(block.code) as { mcpServers?: Record<string, { command: string; args?: string[] }> };
      // An MCP client's config that starts skillset: the command it runs is checked as a shell line.
      const help = await cliHelp();
      for (const server of Object.values(value.mcpServers ?? {})) {
        const line = [server.command, ...(server.args ?? [])]
          .join(" ")
          .replace(/^\S*node \S*dist\/cli\/main\.js/, "skillset")
          .replace(/^\S*\/skillset /, "skillset ");
        expect(commandProblems(line, help, {})).toEqual([]);
      }
    });
  });

  describe("MCP requests shown are JSON, and exchanges replay", () => {
    it.each(cases(ofKind("text").filter((block) => /^→ /m.test(block.code))))(
      "%s",
      async (_, block) => {
        for (const line of block.code.split("\n").filter((text) => text.startsWith("→ ")))
          expect(() => JSON.parse(line.slice(2))).not.toThrow();
        if (block.mcpExchange) expect(await replayMcpExchange(ROOT, CLI, block.mcpExchange, block.code)).toEqual([]);
      },
      60_000,
    );
  });

  describe("YAML parses, and cases files are read by skillset eval", () => {
    it.each(cases(ofKind("yaml", "yml")))(
      "%s",
      async (_, block) => {
        const document = parseDocument(block.code);
        expect(document.errors.map((error) => error.message)).toEqual([]);
        if (document.has("cases")) expect(await evalCasesProblem(block)).toBeUndefined();
      },
      60_000,
    );
  });

  describe("SKILL.md examples are valid (or, marked `invalid`, invalid)", () => {
    it.each(cases(ofKind("markdown", "md")))("%s", (_, block) => {
      expect(block.code.startsWith("---\n"), "a markdown block is a SKILL.md example: frontmatter first").toBe(true);
      const report = skillset.validateSkillText(block.code, { allowClaudeCodeFields: true });
      const name = report.name ?? "unnamed";
      const runtime = skillset.inspectSkill({
        text: block.code,
        file: `${name}/SKILL.md`,
        directoryName: name,
        source: where(block),
      });
      const problems = [
        ...report.errors,
        ...runtime.diagnostics.map((diagnostic) => `${diagnostic.severity}: ${diagnostic.message}`),
      ];
      if (block.flags.includes("invalid")) expect(report.valid, "marked invalid, but valid").toBe(false);
      else expect(problems).toEqual([]);
    });
  });
});

describe("documentation links", () => {
  it.each(docs)("%s: relative links and #anchors lead somewhere", (doc) => {
    expect(linkProblems(ROOT, doc)).toEqual([]);
  });
});

describe("README", () => {
  it("keeps a Development section that gives the test command, `npm test` (CI runs what it says)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const development = readme.slice(readme.indexOf("\n## Development"));
    expect(readme).toContain("\n## Development\n");
    expect(development).toContain("`npm test`");
  });

  it("links every page of docs/ (but docs/notes/)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(docs.filter((doc) => doc !== "README.md" && !readme.includes(`](${doc})`))).toEqual([]);
  });
});

/**
 * `skillset eval` reads the block as a cases file, against examples/skills, and runs every case
 * with a model at a port where nothing listens: a report of runs that failed to reach the model
 * means the file was read and every skill it expects exists; an `invalid-cases` error says why not.
 */
async function evalCasesProblem(block: CodeBlock): Promise<string | undefined> {
  const folder = mkdtempSync(join(tmpdir(), "skillset-docs-cases-"));
  try {
    const file = join(folder, "cases.yaml");
    writeFileSync(file, block.code);
    const args = [
      "eval",
      file,
      join(ROOT, "examples/skills"),
      "--model",
      "openai:gpt-4o-mini",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--max-retries",
      "0",
      "--timeout",
      "5",
      "--json",
    ];
    const stdout = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1", OPENAI_API_KEY: "unused" },
      timeout: 50_000,
    }).then(
      (done) => done.stdout,
      (failed: { stdout: string }) => failed.stdout,
    );
    const report = JSON.parse(stdout) as { error?: { code: string; message: string }; cases?: unknown[] };
    if (report.error) return `${report.error.code}: ${report.error.message}`;
    return report.cases?.length === (parseDocument(block.code).toJS() as { cases: unknown[] }).cases.length
      ? undefined
      : `no report of every case: ${stdout}`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function summary(): string {
  const counts = new Map<string, number>();
  for (const block of blocks) {
    const kind = isIllustration(block) ? "illustration" : block.lang;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(", ");
}
