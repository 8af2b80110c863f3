import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  load,
  runAgent,
  scriptedModel,
  skillFile,
  skillTree,
  systemPromptOf,
  toolResults,
} from "../../test/langchain/helpers.js";
import { createLocalExecutor } from "../exec/local-executor.js";
import { createSkillsMiddleware } from "./skills-middleware.js";

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

function fixture() {
  const tree = skillTree({
    "report/SKILL.md": skillFile("report", "Writes reports.", "allowed-tools: python3 scripts/*.sh\n"),
    "report/references/guide.md": Array.from({ length: 30 }, (_, i) => `guide line ${i + 1}`).join("\n") + "\n",
    "report/scripts/hello.sh": '#!/bin/sh\necho "hello $1 from $(pwd)"\n',
    "report/scripts/fail.sh": "#!/bin/sh\necho broken >&2\nexit 2\n",
    "report/assets/logo.png": "",
    "plain/SKILL.md": skillFile("plain", "No allowed-tools."),
    "plain/scripts/ok.sh": "#!/bin/sh\necho plain ok\n",
  });
  trees.push(tree);
  writeFileSync(
    join(tree.root, "report/assets/logo.png"),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
  );
  for (const script of ["report/scripts/hello.sh", "report/scripts/fail.sh", "plain/scripts/ok.sh"])
    chmodSync(join(tree.root, script), 0o755);
  return tree.root;
}

const read = (skill: string, path: string, id: string, extra: Record<string, unknown> = {}) => ({
  name: "read_skill_resource",
  args: { skill_name: skill, path, ...extra },
  id,
});
const run = (skill: string, command: string, id: string) => ({
  name: "run_skill_script",
  args: { skill_name: skill, command },
  id,
});

describe("read_skill_resource", () => {
  it("reads a loaded skill's text resource in pages, describes binaries, and refuses what is not allowed", async () => {
    const root = fixture();
    const model = scriptedModel([
      [read("report", "references/guide.md", "before")],
      [load("report")],
      [
        read("report", "references/guide.md", "page1", { limit: 10 }),
        read("report", "references/guide.md", "page3", { offset: 20, limit: 10 }),
        read("report", "assets/logo.png", "png"),
      ],
      [
        read("report", "../plain/SKILL.md", "escape"),
        read("report", "missing.md", "missing"),
        read("report", "/etc/passwd", "absolute"),
      ],
    ]);
    const { result } = await runAgent({
      middleware: [createSkillsMiddleware({ sources: [root], readResourceTool: true })],
      model,
    });
    const results = toolResults(result.messages);
    expect(results.get("before")).toEqual({
      content: "Error: Skill 'report' is not loaded. Load it with load_skill first.",
      status: "error",
    });
    expect(results.get("page1")!.content).toBe(
      `[references/guide.md: lines 1-10 of 30; next offset 10]\n${Array.from({ length: 10 }, (_, i) => `guide line ${i + 1}`).join("\n")}`,
    );
    expect(results.get("page3")!.content.split("\n")[0]).toBe("[references/guide.md: lines 21-30 of 30]");
    expect(results.get("png")!.content).toBe(
      "assets/logo.png is a binary file (11 bytes, looks like a PNG image); its content is not shown.",
    );
    expect(results.get("escape")).toEqual({
      content:
        "Error: Cannot read '../plain/SKILL.md': '..' is not allowed; resources must be inside the skill's folder.",
      status: "error",
    });
    expect(results.get("missing")).toEqual({
      content: "Error: Cannot read 'missing.md' in skill 'report': missing.md does not exist in the skill's folder.",
      status: "error",
    });
    expect(results.get("absolute")!.status).toBe("error");
    expect(systemPromptOf(model, 0)).toContain("Read a loaded skill's resources with `read_skill_resource`");
  });
});

describe("run_skill_script", () => {
  it("runs allowed commands in the skill's folder and refuses the rest before anything runs", async () => {
    const root = fixture();
    const model = scriptedModel([
      [load("report"), load("plain")],
      [
        run("report", "scripts/hello.sh world", "hello"),
        run("report", "scripts/fail.sh", "fail"),
        run("report", "node -e 1", "node"),
      ],
      [
        run("report", "scripts/hello.sh; rm -rf /", "inject"),
        run("plain", "scripts/ok.sh", "plain"),
        run("plain", "python3 -c 1", "plain-python"),
      ],
    ]);
    const { result } = await runAgent({
      middleware: [
        createSkillsMiddleware({
          sources: [root],
          runScripts: { executor: createLocalExecutor({ timeoutMs: 10_000 }) },
        }),
      ],
      model,
    });
    const results = toolResults(result.messages);
    expect(results.get("hello")!.content).toMatch(
      new RegExp(
        `^\\$ scripts/hello\\.sh world\\n\\(exited with code 0 after \\d+ ms\\)\\n--- stdout ---\\nhello world from ${join(root, "report")}$`,
      ),
    );
    expect(results.get("fail")!.status).toBe("error");
    expect(results.get("fail")!.content).toMatch(
      /^\$ scripts\/fail\.sh\n\(exited with code 2 after \d+ ms\)\n--- stderr ---\nbroken$/,
    );
    expect(results.get("node")).toEqual({
      content: "Error: Command refused: 'node' is not allowed for skill 'report' (allowed: python3, scripts/*.sh).",
      status: "error",
    });
    expect(results.get("inject")).toEqual({
      content:
        "Error: Command refused: shell syntax is not supported: ';' (command separator). Run one program with its arguments; no shell is involved.",
      status: "error",
    });
    expect(results.get("plain")!.content).toContain("plain ok");
    expect(results.get("plain-python")).toEqual({
      content: "Error: Command refused: 'python3' is not allowed for skill 'plain' (allowed: scripts/*).",
      status: "error",
    });
    expect(systemPromptOf(model, 0)).toContain("run its scripts, from the skill's folder, with `run_skill_script`");
  });
});
