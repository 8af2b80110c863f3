import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_COMMAND_OUTPUT_CHARS,
  MAX_DYNAMIC_COMMANDS,
  MAX_DYNAMIC_CONTEXT_CHARS,
  renderInstructions,
  type DynamicCommandResult,
  type RenderInstructionsContext,
} from "./render-instructions.js";
import { splitArguments } from "./skill-arguments.js";

const DIR = "/skills/demo";

/** A runner that records its commands and answers from `answers` (default: `out(<command>)`). */
function recorder(answers: Record<string, DynamicCommandResult> = {}) {
  const calls: string[] = [];
  const runCommand = async (command: string): Promise<DynamicCommandResult> => {
    calls.push(command);
    return answers[command] ?? { ok: true, output: `out(${command})\n` };
  };
  return { calls, runCommand };
}

const render = (body: string, context: Partial<RenderInstructionsContext> = {}) =>
  renderInstructions(body, { skillDir: DIR, ...context });

describe("renderInstructions: placeholders", () => {
  it("substitutes $ARGUMENTS as typed, $ARGUMENTS[N] and $N split like a shell", async () => {
    const body = "All: $ARGUMENTS\nFirst: $ARGUMENTS[0] / $0\nSecond: $1\nThird: $2.";
    expect(await render(body, { arguments: ` "my file"  'a b' x\\ y ` })).toBe(
      `All:  "my file"  'a b' x\\ y \nFirst: my file / my file\nSecond: a b\nThird: x y.`,
    );
  });

  it("makes out-of-range arguments and missing arguments empty", async () => {
    expect(await render("[$0] [$ARGUMENTS[5]] [$9]", { arguments: "one" })).toBe("[one] [] []");
    expect(await render("[$ARGUMENTS] [$0] [$name]", { arguments: "", argumentNames: ["name"] })).toBe("[] [] []");
  });

  it("leaves argument placeholders as written when no arguments are given, but fills the variables", async () => {
    const body = "awk '{print $1}' / $ARGUMENTS / $name / ${CLAUDE_SKILL_DIR}";
    expect(await render(body, { argumentNames: ["name"] })).toBe(
      "awk '{print $1}' / $ARGUMENTS / $name / /skills/demo",
    );
  });

  it("runs a command with $-forms as written when no arguments are given", async () => {
    const { calls, runCommand } = recorder();
    expect(await render("!`awk '{print $1}' data.txt`", { runCommand })).toBe("out(awk '{print $1}' data.txt)");
    expect(calls).toEqual(["awk '{print $1}' data.txt"]);
  });

  it("substitutes declared names by position, longest name first, whole identifiers only", async () => {
    const body = "$issue / $issues / $issuex / $mode-$mode_ / $ARGUMENTS[1]";
    expect(await render(body, { arguments: "12 fast", argumentNames: ["issue", "mode", "issues"] })).toBe(
      "12 /  / $issuex / fast-$mode_ / fast",
    );
  });

  it("substitutes the skill folder and the session id, empty when the session is unknown", async () => {
    const body = "Run ${CLAUDE_SKILL_DIR}/scripts/a.py and ${SKILL_DIR}/b; session ${CLAUDE_SESSION_ID}.";
    expect(await render(body, { sessionId: "thread-7" })).toBe(
      "Run /skills/demo/scripts/a.py and /skills/demo/b; session thread-7.",
    );
    expect(await render("[${CLAUDE_SESSION_ID}]")).toBe("[]");
  });

  it("leaves other $words literal", async () => {
    const body = "$HOME ${PATH} $arguments $ARGUMENTSX $0x $ ${CLAUDE_SKILL_DIR";
    expect(await render(body, { arguments: "a" })).toBe(`${body}\n\nARGUMENTS: a`);
  });

  it("substitutes inside code blocks and code spans", async () => {
    const body = "```bash\ngh issue view $0\n```\n\n`$ARGUMENTS`\n~~~\n${SKILL_DIR}\n~~~";
    expect(await render(body, { arguments: "42" })).toBe(
      "```bash\ngh issue view 42\n```\n\n`42`\n~~~\n/skills/demo\n~~~",
    );
  });

  it("appends ARGUMENTS when arguments were given and no argument placeholder is used", async () => {
    expect(await render("Do the thing.\n\n", { arguments: " x y " })).toBe("Do the thing.\n\nARGUMENTS:  x y ");
    expect(await render("Dir ${CLAUDE_SKILL_DIR}", { arguments: "x" })).toBe("Dir /skills/demo\n\nARGUMENTS: x");
    expect(await render("", { arguments: "x" })).toBe("ARGUMENTS: x");
  });

  it("does not append when any argument placeholder is used, or when the arguments are blank", async () => {
    expect(await render("Only $0.", { arguments: "a b" })).toBe("Only a.");
    expect(await render("Only $ARGUMENTS[1].", { arguments: "a b" })).toBe("Only b.");
    expect(await render("Only $name.", { arguments: "a b", argumentNames: ["name"] })).toBe("Only a.");
    expect(await render("Nothing.", { arguments: "  \n " })).toBe("Nothing.");
  });

  it("appends ARGUMENTS when the only placeholder is inside a command, which does not substitute it", async () => {
    const { runCommand } = recorder();
    expect(await render("Log: !`git log $0`", { arguments: "main", runCommand })).toBe(
      "Log: [dynamic context not run: `git log $0` — it contains $0, and arguments are never substituted into commands, which run exactly as written]\n\nARGUMENTS: main",
    );
  });

  it("never scans substituted text again", async () => {
    const { calls, runCommand } = recorder();
    const typed = "!`id` $ARGUMENTS ${CLAUDE_SKILL_DIR} $0\n```!\nid\n```";
    const rendered = await render("A: $ARGUMENTS\nB: $0\nC: ${CLAUDE_SESSION_ID}", {
      arguments: typed,
      sessionId: "$ARGUMENTS !`id`",
      runCommand,
    });
    expect(rendered).toBe(`A: ${typed}\nB: !\`id\`\nC: $ARGUMENTS !\`id\``);
    expect(calls).toEqual([]);
  });

  it("keeps CRLF line endings", async () => {
    expect(await render("a $0\r\nb\r\n", { arguments: "x" })).toBe("a x\r\nb\r\n");
  });
});

describe("renderInstructions: dynamic context", () => {
  it("says plainly that nothing ran when dynamic context is off", async () => {
    expect(await render("Status: !`git status`\n```!\ngit diff\n\nls\n```\nend")).toBe(
      "Status: [dynamic context not run: `git status` — dynamic context is off for this agent]\n" +
        "[dynamic context not run: `git diff` — dynamic context is off for this agent]\n[dynamic context not run: `ls` — dynamic context is off for this agent]\nend",
    );
  });

  it("replaces an inline command by its output without its final line break", async () => {
    const { calls, runCommand } = recorder();
    expect(await render("Branch: !`git branch --show-current`.", { runCommand })).toBe(
      "Branch: out(git branch --show-current).",
    );
    expect(calls).toEqual(["git branch --show-current"]);
  });

  it("runs inline commands only at a line start or after whitespace or an opening bracket", async () => {
    const { calls, runCommand } = recorder();
    const body = "!`a`\n x !`b` (!`c`) [!`d`] {!`e`}\tq!`f` \\!`g` !!`h` *!`i`";
    expect(await render(body, { runCommand })).toBe(
      "out(a)\n x out(b) (out(c)) [out(d)] {out(e)}\tq!`f` \\!`g` !!`h` *!`i`",
    );
    expect(calls).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("does not run commands shown in ordinary fences or in other code spans", async () => {
    const { calls, runCommand } = recorder();
    const body = [
      "```md",
      "Status: !`git status`",
      "```!",
      "git diff",
      "```",
      "~~~",
      "!`ls`",
      "~~~",
      "````",
      "```!",
      "id",
      "```",
      "````",
      "1. Step",
      "",
      "       ```bash",
      "       !`git status`",
      "       ```",
      "\t~~~",
      "\t!`ls`",
      "\t~~~",
      "Write `` !`cmd` `` or `!`x`. Also !``y`` and !` ` stay.",
    ].join("\n");
    expect(await render(body, { runCommand })).toBe(body);
    expect(calls).toEqual([]);
  });

  it("replaces a ```! block by each line's output, in order", async () => {
    const { calls, runCommand } = recorder();
    const body = "Before\n```!\n  git status  \n\ngit log -1\n```\nAfter\n   ````!  \nls\n````\n";
    expect(await render(body, { runCommand })).toBe("Before\nout(git status)\nout(git log -1)\nAfter\nout(ls)\n");
    expect(calls).toEqual(["git status", "git log -1", "ls"]);
  });

  it("closes a ```! block only with a backtick fence at least as long", async () => {
    const { calls, runCommand } = recorder();
    expect(await render("````!\na\n```\n~~~~\nb\n````\nc", { runCommand })).toBe(
      "out(a)\nout(```)\nout(~~~~)\nout(b)\nc",
    );
    expect(calls).toEqual(["a", "```", "~~~~", "b"]);
  });

  it("runs nothing from a ```! block that is never closed, and says so", async () => {
    const { calls, runCommand } = recorder();
    const body = "Intro !`a`\n```!\ntouch x\n!`b` $0";
    expect(await render(body, { runCommand, arguments: "v" })).toBe(
      "Intro out(a)\n[dynamic context not run: the ```! block that opens on line 2 is not closed]\n```!\ntouch x\n!`b` v",
    );
    expect(calls).toEqual(["a"]);
  });

  it("ends an inline command at the next single backtick, so nested backticks run nothing more", async () => {
    const { calls, runCommand } = recorder();
    expect(await render("!`echo `touch pwned``", { runCommand })).toBe("out(echo)touch pwned``");
    expect(await render("!`a ``b`` c`", { runCommand })).toBe("out(a ``b`` c)");
    expect(calls).toEqual(["echo", "a ``b`` c"]);
  });

  it("shows refusals and failures with the runner's reason", async () => {
    const { runCommand } = recorder({
      "curl x": { ok: false, reason: "refused: 'curl' is not allowed (allowed: scripts/*)" },
      "scripts/bad.sh": { ok: false, ran: true, reason: "exited with code 2: boom" },
    });
    expect(await render("!`curl x`\n!`scripts/bad.sh`", { runCommand })).toBe(
      "[dynamic context not run: `curl x` — refused: 'curl' is not allowed (allowed: scripts/*)]\n[dynamic context failed: `scripts/bad.sh` — exited with code 2: boom]",
    );
  });

  it("turns an exception from the runner into a note", async () => {
    const runCommand = async () => {
      throw new Error("sandbox gone");
    };
    expect(await render("x !`ls` y", { runCommand })).toBe("x [dynamic context failed: `ls` — sandbox gone] y");
  });

  it("shows a command with backticks in a code span that holds it", async () => {
    expect(await render("```!\necho `id` ``x``\n`a\n```")).toBe(
      "[dynamic context not run: ``` echo `id` ``x`` ``` — dynamic context is off for this agent]\n[dynamic context not run: `` `a `` — dynamic context is off for this agent]",
    );
  });

  it("never substitutes arguments or the session id into a command, and runs it not", async () => {
    const { calls, runCommand } = recorder();
    const rendered = await render("!`git log $ARGUMENTS`\n!`cat $name`\n```!\necho ${CLAUDE_SESSION_ID}\n```", {
      arguments: "x",
      argumentNames: ["name"],
      runCommand,
    });
    expect(rendered).toBe(
      [
        "[dynamic context not run: `git log $ARGUMENTS` — it contains $ARGUMENTS, and arguments are never substituted into commands, which run exactly as written]",
        "[dynamic context not run: `cat $name` — it contains $name, and arguments are never substituted into commands, which run exactly as written]",
        "[dynamic context not run: `echo ${CLAUDE_SESSION_ID}` — it contains ${CLAUDE_SESSION_ID}, and the session id is never substituted into commands, which run exactly as written]",
        "",
        "ARGUMENTS: x",
      ].join("\n"),
    );
    expect(calls).toEqual([]);
  });

  it("passes other $ forms to the runner as written, for it to judge", async () => {
    const { calls, runCommand } = recorder();
    await render("!`echo $HOME '$(id)'`", { runCommand });
    expect(calls).toEqual(["echo $HOME '$(id)'"]);
  });

  it("turns the skill-folder variables in a command into '.', as commands run in the skill's folder", async () => {
    const { calls, runCommand } = recorder();
    await render('!`python3 ${CLAUDE_SKILL_DIR}/scripts/a.py "${SKILL_DIR}/data.csv"`', { runCommand });
    expect(calls).toEqual(['python3 ./scripts/a.py "./data.csv"']);
  });

  it("keeps placeholders and commands in a command's output literal", async () => {
    const output = "$ARGUMENTS !`id` ${CLAUDE_SKILL_DIR} $0\n```!\nid\n```\n";
    const { calls, runCommand } = recorder({ "scripts/x": { ok: true, output } });
    expect(await render("A !`scripts/x` B $0", { arguments: "arg", runCommand })).toBe(
      `A ${output.slice(0, -1)} B arg`,
    );
    expect(calls).toEqual(["scripts/x"]);
  });

  it("removes control characters from outputs and reasons, and only one final line break", async () => {
    const { runCommand } = recorder({
      a: { ok: true, output: "\u001b[31mred\u001b[0m\ttab\r\n\n" },
      b: { ok: false, reason: "bad\u0007 bell" },
    });
    expect(await render("!`a` !`b`", { runCommand })).toBe(
      "[31mred[0m\ttab\r\n [dynamic context not run: `b` — bad bell]",
    );
  });

  it("caps what one command inserts", async () => {
    const { runCommand } = recorder({ big: { ok: true, output: "x".repeat(MAX_COMMAND_OUTPUT_CHARS + 5) } });
    expect(await render("!`big`", { runCommand })).toBe(
      `${"x".repeat(MAX_COMMAND_OUTPUT_CHARS)}\n[output cut: \`big\` wrote ${MAX_COMMAND_OUTPUT_CHARS + 5} characters; the first ${MAX_COMMAND_OUTPUT_CHARS} are shown]`,
    );
  });

  it("does not split a surrogate pair when cutting", async () => {
    const { runCommand } = recorder({ emoji: { ok: true, output: `${"x".repeat(MAX_COMMAND_OUTPUT_CHARS - 1)}😀` } });
    const rendered = await render("!`emoji`", { runCommand });
    expect(rendered.startsWith(`${"x".repeat(MAX_COMMAND_OUTPUT_CHARS - 1)}\n[output cut:`)).toBe(true);
  });

  it("caps what all commands insert together, and runs none after the cap", async () => {
    const output = "y".repeat(Math.floor(MAX_COMMAND_OUTPUT_CHARS * 0.9));
    const whole = Math.floor(MAX_DYNAMIC_CONTEXT_CHARS / output.length);
    const room = MAX_DYNAMIC_CONTEXT_CHARS - whole * output.length;
    const names = Array.from({ length: whole + 2 }, (_, index) => `c${index}`);
    const { calls, runCommand } = recorder(Object.fromEntries(names.map((name) => [name, { ok: true, output }])));
    const lines = (await render(names.map((name) => `!\`${name}\``).join("\n"), { runCommand })).split("\n");
    expect(room).toBeGreaterThan(0);
    expect(lines.slice(0, whole)).toEqual(Array(whole).fill(output));
    expect(lines.slice(whole)).toEqual([
      "y".repeat(room),
      `[output cut: \`c${whole}\` wrote ${output.length} characters; the first ${room} are shown]`,
      `[dynamic context not run: \`c${whole + 1}\` — the skill's commands already inserted ${MAX_DYNAMIC_CONTEXT_CHARS} characters, the most allowed]`,
    ]);
    expect(calls).toEqual(names.slice(0, whole + 1));
  });

  it(`runs at most ${MAX_DYNAMIC_COMMANDS} commands`, async () => {
    const { calls, runCommand } = recorder();
    const rendered = await render(
      ["```!", ...Array.from({ length: MAX_DYNAMIC_COMMANDS + 2 }, (_, index) => `c${index}`), "```"].join("\n"),
      { runCommand },
    );
    expect(calls).toHaveLength(MAX_DYNAMIC_COMMANDS);
    expect(rendered.split("\n").slice(-2)).toEqual([
      `[dynamic context not run: \`c${MAX_DYNAMIC_COMMANDS}\` — a skill may run at most ${MAX_DYNAMIC_COMMANDS} commands when it is rendered]`,
      `[dynamic context not run: \`c${MAX_DYNAMIC_COMMANDS + 1}\` — a skill may run at most ${MAX_DYNAMIC_COMMANDS} commands when it is rendered]`,
    ]);
  });

  it("shortens a very long command in a note", async () => {
    const command = `a${"b".repeat(500)}`;
    expect(await render(`!\`${command}\``)).toBe(
      `[dynamic context not run: \`${command.slice(0, 200)}…\` — dynamic context is off for this agent]`,
    );
  });

  it("renders large adversarial text in reasonable time", async () => {
    const { runCommand } = recorder();
    const line = `${"` ".repeat(20_000)}${"``` ".repeat(5_000)}${"$".repeat(50_000)}${"!` ".repeat(20_000)}`;
    const body = `${line}\n${"```!\n".repeat(2_000)}${"\n".repeat(100_000)}x`;
    const rendered = await render(body, { runCommand, arguments: "a" });
    expect(rendered.endsWith("x\n\nARGUMENTS: a")).toBe(true);
  });
});

// One pass: whatever the arguments, the output is the skill's text with the arguments put in
// place, and the runner sees only the commands written in the skill itself.
describe("renderInstructions: arguments never reach the scanner (property)", () => {
  const fragments = [
    "$ARGUMENTS",
    "$ARGUMENTS[0]",
    "$0",
    "$1",
    "$name",
    "!`id`",
    "`",
    "```!\nid\n```",
    "\n```!\n",
    "${CLAUDE_SKILL_DIR}",
    "${CLAUDE_SESSION_ID}",
    "'",
    '"',
    "\\",
    " ",
    "\n",
    "x",
  ];
  const argumentText = fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...fragments) },
        { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 5 }) },
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));

  it("substitutes arguments literally and runs only the skill's own commands", async () => {
    const body =
      "Fix $ARGUMENTS.\nFirst $0, second $ARGUMENTS[1], named $name.\n!`git status`\n```!\nls\n```\nDir ${CLAUDE_SKILL_DIR} ${CLAUDE_SESSION_ID}";
    await fc.assert(
      fc.asyncProperty(argumentText, argumentText, async (typed, sessionId) => {
        const { calls, runCommand } = recorder();
        const rendered = await render(body, { arguments: typed, argumentNames: ["name"], sessionId, runCommand });
        const [first = "", second = ""] = splitArguments(typed);
        expect(rendered).toBe(
          `Fix ${typed}.\nFirst ${first}, second ${second}, named ${first}.\nout(git status)\nout(ls)\nDir ${DIR} ${sessionId}`,
        );
        expect(calls).toEqual(["git status", "ls"]);
      }),
    );
  });

  it("appends arguments literally to a skill without placeholders and runs nothing from them", async () => {
    await fc.assert(
      fc.asyncProperty(argumentText, async (typed) => {
        const { calls, runCommand } = recorder();
        const rendered = await render("Just text.\n", { arguments: typed, runCommand });
        expect(rendered).toBe(typed.trim() === "" ? "Just text.\n" : `Just text.\n\nARGUMENTS: ${typed}`);
        expect(calls).toEqual([]);
      }),
    );
  });

  it("inserts command outputs literally, whatever they contain", async () => {
    await fc.assert(
      fc.asyncProperty(argumentText, async (output) => {
        const { calls, runCommand } = recorder({ a: { ok: true, output } });
        const rendered = await render("< !`a` >", { runCommand });
        const expected = output.replace(/[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, "").replace(/\r?\n$/, ""); // eslint-disable-line no-control-regex
        expect(rendered).toBe(`< ${expected} >`);
        expect(calls).toEqual(["a"]);
      }),
    );
  });
});
