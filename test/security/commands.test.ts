// Decision 10: commands run without a shell. Injection attempts against parseCommand, the
// allow-list and the run_skill_script tool with a real local executor: nothing a shell would
// interpret may run, and a marker file an injected command would create never appears.
import { chmodSync, existsSync, readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { isCommandAllowed } from "../../src/exec/command-allow-list.js";
import { parseCommand } from "../../src/exec/parse-command.js";
import { createLocalExecutor } from "../../src/node.js";
import { load } from "../langchain/helpers.js";
import { Sandbox, link, marker, put, runCall, runSkillsAgent, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
afterEach(() => sandbox.cleanupAll());

const MARK = marker("pwned");

/** Injection attempts parseCommand must refuse (each would create MARK in a shell). */
const REFUSED_COMMANDS = [
  `scripts/echo-args.sh; touch ${MARK}`,
  `scripts/echo-args.sh && touch ${MARK}`,
  `scripts/echo-args.sh || touch ${MARK}`,
  `scripts/echo-args.sh | tee ${MARK}`,
  `scripts/echo-args.sh & touch ${MARK}`,
  `scripts/echo-args.sh $(touch ${MARK})`,
  `scripts/echo-args.sh "$(touch ${MARK})"`,
  `scripts/echo-args.sh \`touch ${MARK}\``,
  `scripts/echo-args.sh "\`touch ${MARK}\`"`,
  `scripts/echo-args.sh\ntouch ${MARK}`,
  `scripts/echo-args.sh\rtouch ${MARK}`,
  `scripts/echo-args.sh "a\ntouch ${MARK}"`,
  `scripts/echo-args.sh $HOME`,
  `scripts/echo-args.sh \${PATH}`,
  `scripts/echo-args.sh "$HOME"`,
  `scripts/echo-args.sh > ${MARK}`,
  `scripts/echo-args.sh >> ${MARK}`,
  `scripts/echo-args.sh 2>${MARK}`,
  `scripts/echo-args.sh < /etc/passwd`,
  `scripts/echo-args.sh <(touch ${MARK})`,
  `(touch ${MARK})`,
  `scripts/echo-args.sh *`,
  `scripts/*.sh`,
  `scripts/echo-args.?h`,
  `-rf scripts`,
  `--output=${MARK} scripts/echo-args.sh`,
  `scripts/echo-args.sh --output=/etc/x`,
  `scripts/echo-args.sh --output=../${MARK}`,
  `/bin/sh -c "touch ${MARK}"`,
  `/usr/bin/env touch ${MARK}`,
  `../outside.sh`,
  `scripts/../../outside.sh`,
  `scripts/echo-args.sh ../${MARK}`,
  `scripts/echo-args.sh a/../../b`,
  `scripts/echo-args.sh ~/x`,
  `scripts/echo-args.sh \u2025/x`,
  `scripts/echo-args.sh \uff0e\uff0e\uff0fx`,
  `scripts/echo-args.sh \uff0fetc\uff0fpasswd`,
  `scripts/echo-args.sh "unterminated`,
  `scripts/echo-args.sh 'unterminated`,
  `scripts/echo-args.sh a\\ b`,
  `scripts/echo-args.sh \u0000`,
  `scripts/echo-args.sh \u001b[2J`,
  "",
  "   ",
  `scripts/echo-args.sh ${"a".repeat(5000)}`,
];

/** Commands that may run, whose shell-looking parts must reach the script literally. */
const LITERAL_COMMANDS: Array<[string, string[]]> = [
  [`scripts/echo-args.sh '$(touch ${MARK})'`, [`$(touch ${MARK})`]],
  [`scripts/echo-args.sh '; touch ${MARK}'`, [`; touch ${MARK}`]],
  [`scripts/echo-args.sh '&& touch ${MARK}' '|| touch ${MARK}'`, [`&& touch ${MARK}`, `|| touch ${MARK}`]],
  [`scripts/echo-args.sh '\`touch ${MARK}\`'`, [`\`touch ${MARK}\``]],
  [`scripts/echo-args.sh '$HOME' '\${PATH}' '> ${MARK}'`, ["$HOME", "${PATH}", `> ${MARK}`]],
  [`scripts/echo-args.sh 'a'"b" "c d" ''`, ["ab", "c d", ""]],
  [`scripts/echo-args.sh '*' "?"`, ["*", "?"]],
];

describe("parseCommand refuses shell syntax and paths out of the folder", () => {
  it("refuses every injection attempt with a reason, in bounded time", () => {
    for (const command of REFUSED_COMMANDS) {
      const started = performance.now();
      const parsed = parseCommand(command);
      expect(performance.now() - started).toBeLessThan(100);
      expect(parsed.ok, JSON.stringify(command.slice(0, 80))).toBe(false);
      if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(5);
    }
  });

  it("keeps quoted shell syntax literal", () => {
    for (const [command, args] of LITERAL_COMMANDS)
      expect(parseCommand(command)).toEqual({ ok: true, argv: ["scripts/echo-args.sh", ...args] });
  });

  // Found by this suite (fixed): values hide after `=`, `@`, `:` or a short option (`-o/etc/x`,
  // `if=/etc/passwd`, `-C..`, `@/etc/passwd`, `file:///etc/passwd`); parseCommand checks each part.
  it("refuses absolute paths and `..` attached to options or keys", () => {
    for (const command of [
      "scripts/x -o/etc/x",
      "dd if=/etc/passwd",
      "git -C.. status",
      "scripts/x a=../b",
      "scripts/x @/etc/passwd",
      "scripts/x file:///etc/passwd",
    ]) {
      expect(parseCommand(command).ok, command).toBe(false);
    }
  });
});

describe("isCommandAllowed", () => {
  it("allows only the named program when allowed-tools names python3", () => {
    const entries = ["python3"];
    expect(isCommandAllowed(["python3", "scripts/a.py"], entries)).toBe(true);
    for (const argv of [
      ["env", "python3"],
      ["sh", "-c", "python3"],
      ["bash"],
      ["./python3"],
      ["scripts/python3"],
      ["python3x"],
      ["Python3"],
      ["\uff50ython3"],
      ["env"],
      ["xargs", "python3"],
      ["nice", "python3"],
      ["timeout", "1", "python3"],
    ]) {
      expect(isCommandAllowed(argv, entries), argv.join(" ")).toBe(false);
    }
  });

  it("`scripts/*` allows files directly in scripts/ only", () => {
    const entries = ["scripts/*"];
    expect(isCommandAllowed(["scripts/run.sh"], entries)).toBe(true);
    expect(isCommandAllowed(["./scripts/run.sh"], entries)).toBe(true);
    for (const argv of [
      ["scripts/sub/run.sh"],
      ["scriptsX/run.sh"],
      ["python3", "scripts/run.sh"],
      ["sh", "scripts/run.sh"],
      ["other/scripts/run.sh"],
      ["scripts"],
    ]) {
      expect(isCommandAllowed(argv, entries), argv.join(" ")).toBe(false);
    }
  });

  it("tool names and Bash(...) patterns allow no other program", () => {
    expect(isCommandAllowed(["sh", "-c", "x"], ["Read", "Grep", "WebFetch"])).toBe(false);
    expect(isCommandAllowed(["gitx"], ["Bash(git:*)"])).toBe(false);
    expect(isCommandAllowed(["sh", "-c", "git"], ["Bash(git:*)"])).toBe(false);
    expect(isCommandAllowed(["make", "build", "&&", "x"], ["Bash(make build)"])).toBe(false);
    expect(isCommandAllowed(["npm", "run", "other"], ["Bash(npm run test:*)"])).toBe(false);
  });
});

/** A skill with scripts/echo-args.sh and links to /bin/sh and /bin in its scripts/ folder. */
function scriptWorld(allowedTools?: string) {
  const base = sandbox.folder();
  const root = `${base}/skills`;
  const skill = `${root}/tool`;
  put(root, "tool/SKILL.md", skillMd("tool", "Runs things.", allowedTools ? `allowed-tools: ${allowedTools}\n` : ""));
  put(root, "tool/scripts/echo-args.sh", '#!/bin/sh\nfor arg in "$@"; do printf "ARG:%s\\n" "$arg"; done\n', 0o755);
  put(base, "outside.sh", `#!/bin/sh\ntouch ${MARK}-outside\n`, 0o755);
  link(root, "tool/scripts/evil", "/bin/sh");
  link(root, "tool/scripts/outside", "../../../outside.sh");
  link(root, "tool/scripts/bin", "/bin");
  chmodSync(`${base}/outside.sh`, 0o755);
  return { base, root, skill };
}

/** Any file anywhere below `folder` (and in the cwd) whose name contains MARK. */
function markers(folder: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name.includes(MARK)) found.push(`${path}/${entry.name}`);
      if (entry.isDirectory()) walk(`${path}/${entry.name}`);
    }
  };
  walk(folder);
  if (readdirSync(process.cwd()).some((name) => name.includes(MARK))) found.push(process.cwd());
  return found;
}

describe("end to end: run_skill_script with a real local executor", () => {
  it("refuses every injection attempt, runs the quoted ones literally, and the marker never appears", async () => {
    const { base } = scriptWorld();
    const executor = createLocalExecutor({ timeoutMs: 5000 });
    const refused = REFUSED_COMMANDS.filter((command) => command.length < 2000).map((command, index) =>
      runCall("tool", command, `bad-${index}`),
    );
    const literal = LITERAL_COMMANDS.map(([command], index) => runCall("tool", command, `lit-${index}`));
    const { outputs } = await runSkillsAgent({
      root: `${base}/skills`,
      executor,
      steps: [[load("tool")], refused, literal],
    });
    for (const call of refused) {
      const output = outputs.find((candidate) => candidate.id === call.id)!;
      expect(output.status, `${JSON.stringify(call.args.command)} → ${output.content}`).toBe("error");
      // The empty command is refused by the tool's input schema (`min(1)`), before the engine.
      expect(output.content).toMatch(call.args.command === "" ? /did not match expected schema/ : /refused/i);
    }
    for (const [index, [, args]] of LITERAL_COMMANDS.entries()) {
      const output = outputs.find((candidate) => candidate.id === `lit-${index}`)!;
      expect(output.status, output.content).not.toBe("error");
      for (const arg of args) expect(output.content).toContain(`ARG:${arg}`);
    }
    expect(markers(base)).toEqual([]);
  });

  it("refuses programs that are links out of the skill (scripts/evil -> /bin/sh, scripts/bin -> /bin, a relative link)", async () => {
    const { base, skill } = scriptWorld("scripts/* scripts/*/*");
    const executor = createLocalExecutor({ timeoutMs: 5000 });
    const commands = [
      `scripts/evil -c "touch ${MARK}"`,
      `scripts/bin/sh -c "touch ${MARK}"`,
      "scripts/outside",
      `./scripts/evil -c "touch ${MARK}"`,
    ];
    const { outputs } = await runSkillsAgent({
      root: `${base}/skills`,
      executor,
      steps: [[load("tool")], commands.map((command, index) => runCall("tool", command, `link-${index}`))],
    });
    for (const [index, command] of commands.entries()) {
      const output = outputs.find((candidate) => candidate.id === `link-${index}`)!;
      expect(output.status, `${command} → ${output.content}`).toBe("error");
    }
    // Directly through the executor as well.
    for (const argv of [
      ["scripts/evil", "-c", `touch ${MARK}`],
      ["scripts/bin/sh", "-c", `touch ${MARK}`],
      ["scripts/outside"],
    ]) {
      const result = await executor.run({ argv, cwd: skill });
      expect(result.exitCode, argv.join(" ")).not.toBe(0);
      expect(result.stderr).toMatch(/outside the skill|refused/);
    }
    expect(markers(base)).toEqual([]);
  });

  it("with allowed-tools python3, `env`, `sh -c`, `bash -c` and absolute interpreters are refused", async () => {
    const { base } = scriptWorld("python3");
    const executor = createLocalExecutor({ timeoutMs: 5000 });
    const commands = [
      `env touch ${MARK}`,
      `sh -c "touch ${MARK}"`,
      `bash -c "touch ${MARK}"`,
      `/usr/bin/python3 -c "open('${MARK}','w')"`,
      `env python3 -c "open('${MARK}','w')"`,
      `scripts/echo-args.sh ${MARK}`,
      `touch ${MARK}`,
    ];
    const { outputs } = await runSkillsAgent({
      root: `${base}/skills`,
      executor,
      steps: [[load("tool")], commands.map((command, index) => runCall("tool", command, `py-${index}`))],
    });
    for (const [index, command] of commands.entries()) {
      const output = outputs.find((candidate) => candidate.id === `py-${index}`)!;
      expect(output.status, command).toBe("error");
      expect(output.content).toMatch(/refused/i);
    }
    expect(markers(base)).toEqual([]);
  });

  it("a skill that is not loaded cannot run anything", async () => {
    const { base } = scriptWorld();
    const executor = createLocalExecutor({ timeoutMs: 5000 });
    const { outputs } = await runSkillsAgent({
      root: `${base}/skills`,
      executor,
      steps: [
        [
          runCall("tool", "scripts/echo-args.sh hi", "unloaded"),
          runCall("../tool", "scripts/echo-args.sh hi", "traversal"),
        ],
      ],
    });
    for (const id of ["unloaded", "traversal"])
      expect(outputs.find((output) => output.id === id)!.status).toBe("error");
  });

  // Found by this suite (fixed): an empty program name (`""`) is refused.
  it("parseCommand refuses an empty program name", () => {
    for (const command of ['"" x', "''", '""']) expect(parseCommand(command).ok, command).toBe(false);
  });

  it("through run_skill_script an empty program still ends in an error result, not a crashed run", async () => {
    const { base } = scriptWorld("Bash");
    const executor = createLocalExecutor({ timeoutMs: 5000 });
    const { outputs } = await runSkillsAgent({
      root: `${base}/skills`,
      executor,
      steps: [[load("tool")], [runCall("tool", '"" x', "empty")]],
    });
    const output = outputs.find((candidate) => candidate.id === "empty")!;
    // Today the text is the raw TypeError that LangChain's tool node caught (see executor.test.ts).
    expect(output.status).toBe("error");
    expect(output.content).not.toMatch(/exited with code 0/);
  });

  it("marker sanity: the skill's own script can create files (so the marker checks above are meaningful)", async () => {
    const { base, skill } = scriptWorld();
    put(skill, "scripts/make-marker.sh", `#!/bin/sh\ntouch ${MARK}-sanity\n`, 0o755);
    const result = await createLocalExecutor({ timeoutMs: 5000 }).run({ argv: ["scripts/make-marker.sh"], cwd: skill });
    expect(result.exitCode).toBe(0);
    expect(existsSync(`${skill}/${MARK}-sanity`)).toBe(true);
    expect(markers(base)).toEqual([`${skill}/${MARK}-sanity`]);
  });
});
