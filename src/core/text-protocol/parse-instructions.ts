import { inlineCodeMentions } from "./inline-code-mentions.js";
import { canonicalTag, isResultTag, PROTOCOL_TAG, type InstructionTag, type ResultTag } from "./protocol-tags.js";

/** One instruction read from a model's reply, or why it could not be read. */
export type SkillInstruction =
  | { kind: "use_skill"; skill: string; arguments?: string; source: string }
  | { kind: "unload_skill"; skill: string; source: string }
  | { kind: "read_resource"; skill: string; path: string; offset?: number; limit?: number; source: string }
  | { kind: "execute_script"; skill: string; command: string; source: string }
  | { kind: "search_skills"; query: string; limit?: number; source: string }
  | { kind: "malformed"; tag: InstructionTag; reason: string; source: string };

/** What {@link parseSkillInstructions} found in a reply. */
export interface ParsedReply {
  /** The instructions, in the reply's order; a malformed one says what is wrong. */
  instructions: SkillInstruction[];
  /** Instructions only talked about: inside inline code, in a line of prose. Not run. */
  mentioned: number;
  /**
   * Where a result the model wrote itself begins (an opening result tag, such as
   * `<script_result>`, closed later in the reply): results only come from the runner, so the
   * rest of the reply, written without them, is not read.
   */
  fabricatedResultAt?: number;
}

/** Longest skill name read; longer is no skill name. */
const MAX_NAME_CHARS = 256;
/** Longest path or command read. */
const MAX_CONTENT_CHARS = 10_000;
/** How much of an instruction as written is kept, for errors and the trace. */
const MAX_SOURCE_CHARS = 300;
/** The most lines `read_resource` reads at once, as `read_skill_resource`. */
const MAX_LIMIT = 2000;
/** The most results `search_skills` gives, as the engine's. */
const MAX_SEARCH_LIMIT = 25;

interface Tag {
  start: number;
  end: number;
  closing: boolean;
  /** `<use_skill name="x"/>` */
  selfClosing: boolean;
  name: InstructionTag | ResultTag;
  /** Without the `/` of a self-closing tag. */
  attributes: string;
}

/**
 * Reads the instructions in a model's reply, tolerant of how models write them and strict
 * about what runs:
 *
 * - Tag names in any case, with `_` or `-`; spaces and line breaks inside a tag; attribute
 *   values in double, single or typographic quotes, backslash-escaped quotes, or none; XML
 *   entities decoded; `skill`, `name` or `skill_name` for the skill (`query` for a search's
 *   words, which are put on one line); content wrapped in backticks or a fenced block
 *   unwrapped. Instructions inside fenced code blocks and around prose run; other tags are text.
 * - An instruction inside inline code (`` `<use_skill>x</use_skill>` ``) in a line that also
 *   holds prose is only talked about: it is counted in `mentioned` and does not run.
 * - Every instruction of the reply is returned, in order; the runner decides how many run.
 * - An unclosed or mismatched tag, a closing tag without its opening, a missing `skill`
 *   attribute or an empty or oversized value is a `malformed` instruction that says what is
 *   wrong, never an exception.
 * - A result tag written by the model ends the reading (see `fabricatedResultAt`).
 *
 * Linear in the reply's length: 1 MB replies and 10,000 tags take milliseconds.
 */
export function parseSkillInstructions(reply: string): ParsedReply {
  const tags = readTags(reply);
  const mentioned = inlineCodeMentions(reply);
  // The last closing tag of each name: an opening result tag closed later is a result the model wrote.
  const lastClosing = new Map<string, number>();
  tags.forEach((tag, index) => tag.closing && lastClosing.set(tag.name, index));
  const instructions: SkillInstruction[] = [];
  let mentionCount = 0;
  for (let index = 0; index < tags.length; index++) {
    const tag = tags[index]!;
    const next = tags[index + 1];
    const paired = !tag.closing && !tag.selfClosing && next?.closing === true && next.name === tag.name;
    const end = paired ? next.end : tag.end;
    if (mentioned(tag.start, end)) {
      if (paired) index++;
      if (!isResultTag(tag.name) && !tag.closing) mentionCount++;
      continue;
    }
    if (isResultTag(tag.name)) {
      // A lone `<script_result>` in prose is a word about results, not one.
      if (!tag.closing && (lastClosing.get(tag.name) ?? -1) > index)
        return { instructions, mentioned: mentionCount, fabricatedResultAt: tag.start };
      continue;
    }
    const name = tag.name as InstructionTag;
    const source = clip(reply.slice(tag.start, end));
    if (tag.closing) {
      instructions.push({
        kind: "malformed",
        tag: name,
        source,
        reason: `</${name}> has no opening <${name}> before it`,
      });
    } else if (tag.selfClosing) {
      instructions.push(instructionOf(name, readAttributes(tag.attributes), "", source));
    } else if (paired) {
      instructions.push(instructionOf(name, readAttributes(tag.attributes), reply.slice(tag.end, next.start), source));
      index++;
    } else {
      const found = next ? `<${next.closing ? "/" : ""}${next.name}>` : "the end of your reply";
      instructions.push({
        kind: "malformed",
        tag: name,
        source,
        reason: `<${name}> is not closed: ${found} came before </${name}>`,
      });
      // A mismatched closing tag is part of this mistake, not another one.
      if (next?.closing && !isResultTag(next.name)) index++;
    }
  }
  return { instructions, mentioned: mentionCount };
}

function readTags(reply: string): Tag[] {
  const tags: Tag[] = [];
  // An `exec` loop: several times faster than `matchAll` for thousands of tags.
  const pattern = new RegExp(PROTOCOL_TAG);
  for (let match = pattern.exec(reply); match !== null; match = pattern.exec(reply)) {
    const attributes = match[3]!.trimEnd();
    const selfClosing = attributes.endsWith("/");
    tags.push({
      start: match.index,
      end: match.index + match[0].length,
      closing: match[1] === "/",
      selfClosing,
      name: canonicalTag(match[2]!),
      attributes: selfClosing ? attributes.slice(0, -1) : attributes,
    });
  }
  return tags;
}

function instructionOf(
  tag: InstructionTag,
  attributes: Map<string, string>,
  rawContent: string,
  source: string,
): SkillInstruction {
  const content = unwrapCode(decodeEntities(rawContent));
  const skillAttribute = attributes.get("skill") ?? attributes.get("name") ?? attributes.get("skill_name");
  const malformed = (reason: string): SkillInstruction => ({ kind: "malformed", tag, source, reason });
  if (tag === "use_skill" || tag === "unload_skill") {
    const skill = content || skillAttribute?.trim() || "";
    const problem = nameProblem(tag, skill);
    if (problem) return malformed(problem);
    const args = attributes.get("arguments") ?? attributes.get("args");
    return tag === "use_skill"
      ? { kind: tag, skill, ...(args !== undefined ? { arguments: args } : {}), source }
      : { kind: tag, skill, source };
  }
  if (tag === "search_skills") {
    const query = (content || attributes.get("query")?.trim() || "").replace(/\s+/g, " ");
    if (query === "") return malformed("<search_skills> holds no words to search for");
    if (query.length > MAX_CONTENT_CHARS)
      return malformed(`the query is longer than ${MAX_CONTENT_CHARS.toLocaleString("en-US")} characters`);
    const limit = integerAttribute(attributes, "limit", 1, MAX_SEARCH_LIMIT);
    if (typeof limit === "string") return malformed(limit);
    return { kind: tag, query, ...(limit !== undefined ? { limit } : {}), source };
  }
  const skill = skillAttribute?.trim() ?? "";
  const problem = nameProblem(tag, skill, true);
  if (problem) return malformed(problem);
  const what = tag === "read_resource" ? "path" : "command";
  const value = content || attributes.get(what)?.trim() || "";
  if (value === "") return malformed(`<${tag}> names no ${what}`);
  if (value.length > MAX_CONTENT_CHARS)
    return malformed(`the ${what} is longer than ${MAX_CONTENT_CHARS.toLocaleString("en-US")} characters`);
  if (tag === "execute_script") return { kind: tag, skill, command: value, source };
  const offset = integerAttribute(attributes, "offset", 0, Number.MAX_SAFE_INTEGER);
  const limit = integerAttribute(attributes, "limit", 1, MAX_LIMIT);
  if (typeof offset === "string") return malformed(offset);
  if (typeof limit === "string") return malformed(limit);
  return {
    kind: tag,
    skill,
    path: value,
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined ? { limit } : {}),
    source,
  };
}

function nameProblem(tag: InstructionTag, skill: string, inAttribute = false): string | undefined {
  if (skill === "")
    return inAttribute ? `<${tag}> has no skill="…" attribute naming the skill` : `<${tag}> names no skill`;
  if (skill.length > MAX_NAME_CHARS) return `a skill name is not longer than ${MAX_NAME_CHARS} characters`;
  if (/[\r\n<>]/.test(skill)) return "a skill name has no line breaks, '<' or '>'";
  return undefined;
}

// An attribute that must be a whole number in [min, max]: the number, undefined when absent, or the problem.
function integerAttribute(
  attributes: Map<string, string>,
  name: string,
  min: number,
  max: number,
): number | string | undefined {
  const text = attributes.get(name)?.trim();
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  // The value is not echoed: reasons are skillset's own text, placed in results as written.
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? value
    : `${name} must be a whole number from ${min} to ${max}`;
}

// name="value", name='value', name=“value”, name=\"value\", name=value.
const ATTRIBUTE =
  /([A-Za-z_][\w-]*)\s*=\s*(?:\\?"([^"]*?)\\?"|'([^']*)'|[“”]([^“”]*)[“”]|[‘’]([^‘’]*)[‘’]|([^\s"'“”‘’]+))/g;

function readAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  if (!text.includes("=")) return attributes;
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase().replaceAll("-", "_");
    if (!attributes.has(name))
      attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? ""));
  }
  return attributes;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&", "#39": "'", "#x27": "'" };

// One pass, so `&amp;lt;` becomes `&lt;`, not `<`.
function decodeEntities(text: string): string {
  return text.includes("&")
    ? text.replace(/&(lt|gt|quot|apos|amp|#39|#x27);/g, (_, name: string) => ENTITIES[name]!)
    : text;
}

// `scripts/run.sh`, or a fenced block holding it, is the text inside.
function unwrapCode(text: string): string {
  const trimmed = text.trim();
  const fence = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(trimmed);
  if (fence) return fence[2]!.trim();
  const inline = /^(`+)([^`]+)\1$/.exec(trimmed);
  return inline ? inline[2]!.trim() : trimmed;
}

function clip(text: string, limit = MAX_SOURCE_CHARS): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
