import { quoteForPrompt } from "../text/safe-text.js";
import { SKILL_TOOL_DEFINITIONS } from "../tools/skill-tool-definitions.js";
import { neutralizeTags, type InstructionTag, type ResultTag } from "./protocol-tags.js";

/**
 * One result as the model reads it: `<tag a="…">`, the body, `</tag>`. Attribute values are
 * escaped; the body keeps its text, but any protocol tag in it is neutralized (its `<` becomes
 * `&lt;`), so a file or an output cannot close the result early or pose as an instruction.
 * `note`, skillset's own text, follows the body as written. Bodies of several lines start on
 * their own line, so every result tag opens a line.
 */
export function resultTag(
  tag: ResultTag,
  attributes: Record<string, string | number>,
  body: string,
  note = "",
): string {
  const attributeText = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${quoteForPrompt(String(value))}"`)
    .join("");
  const text = neutralizeTags(body) + note;
  return text.includes("\n")
    ? `<${tag}${attributeText}>\n${text}\n</${tag}>`
    : `<${tag}${attributeText}>${text}</${tag}>`;
}

/**
 * An error or notice from the engine as a result: without its `Error: ` prefix, and with the
 * engine's advice, which names the tools of the tool-calling protocol, naming the instructions.
 * Only these exact phrases are rewritten, always to the same text. `note` as in {@link resultTag}.
 */
export function engineResult(
  tag: ResultTag,
  attributes: Record<string, string | number>,
  text: string,
  note = "",
): string {
  return resultTag(tag, attributes, text.replace(/^Error: /, ""), note)
    .replace('Use `unload_skill("skill-name")` to unload', "Use `<unload_skill>skill-name</unload_skill>` to unload")
    .replace("Load it with load_skill first.", "Load it first with `<use_skill>skill-name</use_skill>`.")
    .replace("from the earlier load_skill call", "from the earlier <use_skill>")
    .replace("Load one with load_skill to use it.", "Load one with `<use_skill>skill-name</use_skill>` to use it.");
}

/** The error tag that answers an instruction. */
export function errorTagOf(tag: InstructionTag): ResultTag {
  return tag === "read_resource" ? "resource_error" : tag === "execute_script" ? "script_error" : "skill_error";
}

/** How to write each instruction, for the errors about malformed ones (as the prompt shows it). */
export const INSTRUCTION_FORMS = Object.fromEntries(
  SKILL_TOOL_DEFINITIONS.map(({ textProtocol }) => [textProtocol.tag, textProtocol.form]),
) as Record<InstructionTag, string>;

/** What {@link resultsMessage} says besides the results. */
export interface ResultsNotes {
  /** Instructions of the reply that did not run because of the per-reply limit. */
  skipped: number;
  maxInstructions: number;
  /** The model wrote a result tag itself; what followed it was not read. */
  fabricated: boolean;
  /** The next reply is the turn's last: it must answer. */
  lastRound: boolean;
}

/** The user message that answers a reply: its results in order, then any notes. */
export function resultsMessage(results: readonly string[], notes: ResultsNotes): string {
  const lines = [...results];
  if (notes.skipped > 0) {
    lines.push(
      `(${notes.skipped.toLocaleString("en-US")} more instruction${notes.skipped === 1 ? "" : "s"} in your reply did not run: at most ${notes.maxInstructions} run per reply. Send the ones you still need again.)`,
    );
  }
  if (notes.fabricated)
    lines.push(
      "(Your reply went on with a result tag you wrote yourself; that part was ignored. Results only come from the system: the real ones are above.)",
    );
  if (notes.lastRound)
    lines.push("(No more instructions can run in this turn: answer the user now with what you have.)");
  return lines.join("\n\n");
}
