// Rendering a skill's instructions for the model: argument placeholders, variables and dynamic
// context (Claude Code's `!`command`` and ```! blocks), in one pass over the skill's own text.
// The pieces live next door: tokenizing in instruction-segments.ts, argument substitution in
// instruction-arguments.ts, running commands within limits in dynamic-context.ts.
import type { DynamicCommandRunner } from "../../exec/dynamic-command.js";
import {
  DynamicContextRunner,
  MAX_COMMAND_OUTPUT_CHARS,
  MAX_DYNAMIC_COMMANDS,
  MAX_DYNAMIC_CONTEXT_CHARS,
  unclosedBlockNote,
} from "./dynamic-context.js";
import { createArgumentSubstitution } from "./instruction-arguments.js";
import { tokenizeInstructions } from "./instruction-segments.js";

export type { DynamicCommandResult, DynamicCommandRunner } from "../../exec/dynamic-command.js";
export { MAX_COMMAND_OUTPUT_CHARS, MAX_DYNAMIC_COMMANDS, MAX_DYNAMIC_CONTEXT_CHARS };

/** What {@link renderInstructions} fills in. */
export interface RenderInstructionsContext {
  /**
   * The argument string as typed. When absent, argument placeholders stay as written (so
   * `awk '{print $1}'` in a skill that takes no arguments is untouched); pass `""` to empty them.
   */
  arguments?: string;
  /** The frontmatter's `arguments` names, in order: `$<name>` is the argument at its position. */
  argumentNames?: readonly string[];
  /** The skill's folder, for `${CLAUDE_SKILL_DIR}` and `${SKILL_DIR}`. */
  skillDir: string;
  /** The session (thread) id, for `${CLAUDE_SESSION_ID}`; empty when unknown. */
  sessionId?: string;
  /** Runs dynamic-context commands. Absent: dynamic context is off and no command runs. */
  runCommand?: DynamicCommandRunner;
}

/**
 * Renders a skill's instructions (the SKILL.md body, without frontmatter).
 *
 * Placeholders, everywhere in the text (code blocks and code spans included, as in Claude Code):
 * `${CLAUDE_SKILL_DIR}` / `${SKILL_DIR}` → `skillDir`; `${CLAUDE_SESSION_ID}` → `sessionId` or
 * empty. When `arguments` is given (even `""`): `$ARGUMENTS` → the argument string as typed;
 * `$ARGUMENTS[N]`, `$N` and declared `$name` → the N-th argument (0-based, split like a shell,
 * see `splitArguments`), empty when out of range. Other `$…` stays literal. When the arguments are not blank and the text has no argument
 * placeholder at all (neither `$ARGUMENTS` nor `$ARGUMENTS[N]`, `$N` or a declared `$name`;
 * placeholders inside commands do not count), `\n\nARGUMENTS: <arguments as typed>` is appended.
 *
 * Dynamic context, replaced by the command's output before the model sees the text:
 * - inline `` !`command` ``: a single-backtick code span right after a `!` that starts a line or
 *   follows whitespace or `(`, `[`, `{`. So `\!` or `x!` does not run, nor does anything inside
 *   another code span (``` `` !`cmd` `` ```). Code spans are found within one line.
 * - a fenced block opened by ```` ```! ```` (three or more backticks, nothing else on the line but
 *   spaces) and closed by a backtick fence at least as long: each non-empty line is one command
 *   (there is no shell), and the outputs, in order, joined by line breaks, replace the block.
 *   A block that is never closed runs nothing; a note says so and its text stays as written.
 * - inside an ordinary fenced block (```` ``` ```` or `~~~`) nothing runs, so a skill can show
 *   the syntax. Fences count at any indentation (inside list items too); indented code blocks
 *   without a fence are not recognised, so fence examples instead.
 *
 * Security: there is one pass. Commands are found in the skill's own text, before anything is
 * substituted, and substituted values and command outputs are never scanned again, so an argument
 * or an output containing `` !`…` ``, ```` ```! ````, `$ARGUMENTS` or `${CLAUDE_SKILL_DIR}` stays
 * literal. Arguments are never substituted into a command: a command containing an argument
 * placeholder (when `arguments` is given) or `${CLAUDE_SESSION_ID}` is not run and a note says why. `${CLAUDE_SKILL_DIR}` and
 * `${SKILL_DIR}` in a command become `.`, since commands run in the skill's folder
 * (`` !`python3 ${CLAUDE_SKILL_DIR}/scripts/x.py` `` runs `python3 ./scripts/x.py`).
 *
 * Commands run one after another, in the order they appear, through `runCommand`; without it,
 * or when it refuses, the text says plainly that the command was not run and why. An output loses
 * its control characters (tabs and line breaks stay) and one final line break, and is capped at
 * {@link MAX_COMMAND_OUTPUT_CHARS}; all outputs together at {@link MAX_DYNAMIC_CONTEXT_CHARS};
 * at most {@link MAX_DYNAMIC_COMMANDS} commands run. Never throws for any text or output; an
 * exception from `runCommand` becomes a note.
 */
export async function renderInstructions(body: string, context: RenderInstructionsContext): Promise<string> {
  const substitution = createArgumentSubstitution(context);
  // Placeholders start with `$` and dynamic context with `!`: without either, every segment is
  // the text as written, and tokenizing it would cost most of a load.
  if (!body.includes("$") && !body.includes("!")) return substitution.finish(body);
  const runner = new DynamicContextRunner(context.runCommand, substitution.matcher);
  const parts: string[] = [];
  for (const segment of tokenizeInstructions(body, substitution.matcher)) {
    switch (segment.kind) {
      case "text":
        parts.push(segment.text);
        break;
      case "placeholder":
        parts.push(substitution.valueOf(segment.placeholder));
        break;
      case "command":
        parts.push(await runner.run(segment.command));
        break;
      case "block": {
        const outputs: string[] = [];
        for (const command of segment.commands) outputs.push(await runner.run(command));
        parts.push(outputs.join("\n"));
        break;
      }
      case "unclosed-block":
        parts.push(unclosedBlockNote(segment.line));
        break;
    }
  }
  return substitution.finish(parts.join(""));
}
