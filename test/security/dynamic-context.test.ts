// Dynamic context (`!`cmd`` and ```! blocks) with the real local executor: a skill's text may
// only run what its allow-list permits, one program without a shell; arguments and command
// outputs are never scanned for commands. An injected command would create a marker file, which
// must never appear.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderInstructions } from "../../src/core/instructions/render-instructions.js";
import { splitArguments } from "../../src/core/instructions/skill-arguments.js";
import { DEFAULT_ALLOWED_COMMANDS } from "../../src/exec/command-allow-list.js";
import { createLocalExecutor, type LocalExecutorOptions } from "../../src/exec/local-executor.js";
import { createSkillCommandRunner } from "../../src/exec/run-skill-command.js";
import { Sandbox, marker, put } from "./helpers.js";

const sandbox = new Sandbox();
const MARK = marker("pwned");
let skill: string;

beforeEach(() => {
  skill = sandbox.folder("skillset-dynamic-");
  put(skill, "SKILL.md", "---\nname: dyn\ndescription: d\n---\n");
  put(skill, "victim.txt", "still here\n");
  put(skill, "scripts/echo-args.sh", `#!/bin/sh\nfor a in "$@"; do printf '[%s]' "$a"; done\n`, 0o755);
  put(
    skill,
    "scripts/print.sh",
    `#!/bin/sh\nprintf '%s\\n' '!\`touch ${MARK}\`' '\`\`\`!' 'touch ${MARK}' '\`\`\`' '$ARGUMENTS $0 \${CLAUDE_SKILL_DIR}'\n`,
    0o755,
  );
  put(skill, "scripts/flood.sh", "#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\0' 'z'\n", 0o755);
  put(skill, "scripts/slow.sh", "#!/bin/sh\nsleep 30\n", 0o755);
});
afterEach(() => {
  expectNoMarker();
  sandbox.cleanupAll();
});

function expectNoMarker(): void {
  for (const folder of [skill, join(skill, "scripts"), process.cwd()])
    expect(readdirSync(folder).filter((name) => name.includes(MARK))).toEqual([]);
}

function render(
  body: string,
  options: { allowedCommands?: readonly string[]; arguments?: string; executor?: LocalExecutorOptions } = {},
) {
  const runCommand = createSkillCommandRunner({
    skillDir: skill,
    allowedCommands: options.allowedCommands ?? DEFAULT_ALLOWED_COMMANDS,
    executor: createLocalExecutor(options.executor),
  });
  return renderInstructions(body, {
    skillDir: skill,
    runCommand,
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
  });
}

describe("dynamic context runs only what the allow-list permits", () => {
  it("refuses forbidden programs and runs none of them", async () => {
    const body = [
      `!\`touch ${MARK}\``,
      "!`rm -rf victim.txt`",
      `!\`curl -o ${MARK} example.com\``,
      "```!",
      `touch ${MARK}`,
      "rm victim.txt",
      "```",
    ].join("\n");
    expect(await render(body)).toBe(
      [
        `[dynamic context not run: \`touch ${MARK}\` — refused: 'touch' is not allowed (allowed: scripts/*)]`,
        "[dynamic context not run: `rm -rf victim.txt` — refused: 'rm' is not allowed (allowed: scripts/*)]",
        `[dynamic context not run: \`curl -o ${MARK} example.com\` — refused: 'curl' is not allowed (allowed: scripts/*)]`,
        `[dynamic context not run: \`touch ${MARK}\` — refused: 'touch' is not allowed (allowed: scripts/*)]`,
        "[dynamic context not run: `rm victim.txt` — refused: 'rm' is not allowed (allowed: scripts/*)]",
      ].join("\n"),
    );
    expect(existsSync(join(skill, "victim.txt"))).toBe(true);
  });

  it("runs nothing at all when dynamic context is off", async () => {
    const rendered = await renderInstructions(`!\`scripts/echo-args.sh x\`\n!\`touch ${MARK}\``, { skillDir: skill });
    expect(rendered).toBe(
      `[dynamic context not run: \`scripts/echo-args.sh x\` — dynamic context is off for this agent]\n[dynamic context not run: \`touch ${MARK}\` — dynamic context is off for this agent]`,
    );
  });

  it.each([
    [`scripts/echo-args.sh; touch ${MARK}`, "';' (command separator)"],
    [`scripts/echo-args.sh && touch ${MARK}`, "'&' (background or '&&')"],
    [`scripts/echo-args.sh || touch ${MARK}`, "'|' (pipe or '||')"],
    [`scripts/echo-args.sh | tee ${MARK}`, "'|' (pipe or '||')"],
    [`scripts/echo-args.sh $(touch ${MARK})`, "'$' (variable or command substitution)"],
    [`scripts/echo-args.sh \`touch ${MARK}\``, "backticks (command substitution)"],
    [`scripts/echo-args.sh > ${MARK}`, "'>' (redirection)"],
    [`scripts/echo-args.sh >> ${MARK}`, "'>' (redirection)"],
    [`scripts/echo-args.sh < /etc/passwd`, "'<' (redirection)"],
  ])("refuses shell syntax even when every program is allowed: %s", async (command, named) => {
    const rendered = await render(`\`\`\`!\n${command}\n\`\`\``, { allowedCommands: ["*"] });
    expect(rendered).toMatch(/^\[dynamic context not run: `+ ?[^\n]* ?`+ — refused: shell syntax is not supported: /);
    expect(rendered).toContain(`shell syntax is not supported: ${named}`);
  });

  it("runs an allowed script in the skill's folder, also through ${CLAUDE_SKILL_DIR}", async () => {
    expect(await render("A !`scripts/echo-args.sh 'a b' c` B !`${CLAUDE_SKILL_DIR}/scripts/echo-args.sh x`")).toBe(
      "A [a b][c] B [x]",
    );
  });
});

describe("arguments never become commands", () => {
  const attempts = [
    `/x $(touch ${MARK})`,
    `!\`touch ${MARK}\``,
    `\n!\`touch ${MARK}\``,
    "$ARGUMENTS $0 $ARGUMENTS[1]",
    `x\n\`\`\`!\ntouch ${MARK}\n\`\`\`\n`,
    `\`\`\`!\ntouch ${MARK}\n\`\`\``,
    "${CLAUDE_SKILL_DIR} ${SKILL_DIR}",
    `'; touch ${MARK}' "\`touch ${MARK}\`"`,
  ];

  it.each(attempts)(
    "keeps %j literal and runs only the skill's own commands, even with every program allowed",
    async (typed) => {
      const body =
        "Args: $ARGUMENTS\nFirst: $0\n!`scripts/echo-args.sh hello`\n```!\nscripts/echo-args.sh block\n```\nEnd";
      const first = splitArguments(typed)[0] ?? "";
      expect(await render(body, { allowedCommands: ["*"], arguments: typed })).toBe(
        `Args: ${typed}\nFirst: ${first}\n[hello]\n[block]\nEnd`,
      );
    },
  );

  it.each(attempts)("appends %j literally to a skill without placeholders", async (typed) => {
    expect(await render("Text.", { allowedCommands: ["*"], arguments: typed })).toBe(
      typed.trim() === "" ? "Text." : `Text.\n\nARGUMENTS: ${typed}`,
    );
  });

  it("does not put arguments into a command", async () => {
    const rendered = await render("!`scripts/echo-args.sh $0`\n```!\nscripts/echo-args.sh $ARGUMENTS\n```", {
      allowedCommands: ["*"],
      arguments: `"x; touch ${MARK}"`,
    });
    expect(rendered).toBe(
      "[dynamic context not run: `scripts/echo-args.sh $0` — it contains $0, and arguments are never substituted into commands, which run exactly as written]\n" +
        "[dynamic context not run: `scripts/echo-args.sh $ARGUMENTS` — it contains $ARGUMENTS, and arguments are never substituted into commands, which run exactly as written]" +
        `\n\nARGUMENTS: "x; touch ${MARK}"`,
    );
  });
});

describe("dynamic context resists odd text and misbehaving commands", () => {
  it("keeps a command's output literal, even when it looks like commands and placeholders", async () => {
    expect(await render("Out:\n!`scripts/print.sh`\n$0", { allowedCommands: ["*"], arguments: "arg" })).toBe(
      `Out:\n!\`touch ${MARK}\`\n\`\`\`!\ntouch ${MARK}\n\`\`\`\n$ARGUMENTS $0 \${CLAUDE_SKILL_DIR}\narg`,
    );
  });

  it("runs nothing from an unterminated ```! block", async () => {
    expect(await render(`Intro\n\`\`\`!\ntouch ${MARK}\n`, { allowedCommands: ["*"] })).toBe(
      `Intro\n[dynamic context not run: the \`\`\`! block that opens on line 2 is not closed]\n\`\`\`!\ntouch ${MARK}\n`,
    );
  });

  it("ends an inline command at its first closing backtick, so nested backticks run nothing", async () => {
    expect(await render(`!\`scripts/echo-args.sh a \`touch ${MARK}\` b\``, { allowedCommands: ["*"] })).toBe(
      `[a]touch ${MARK}\` b\``,
    );
  });

  it("caps a huge output", async () => {
    const rendered = await render("!`scripts/flood.sh`");
    expect(rendered).toMatch(
      new RegExp(
        `^z{10000}\\n\\[output cut: \`scripts/flood.sh\` wrote \\d+ characters; the first 10000 are shown\\]$`,
      ),
    );
  });

  it("reports a command that times out, and returns", async () => {
    const started = performance.now();
    const rendered = await render("Before !`scripts/slow.sh` after", { executor: { timeoutMs: 300 } });
    expect(rendered).toMatch(
      /^Before \[dynamic context failed: `scripts\/slow.sh` — timed out after \d+ ms and was killed\] after$/,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
