import { z } from "zod";

// What a skill tool is, as data every host builds its own tool from (as the AI SDK's `tool()`:
// the definition is all a host reads; it adds only how its framework calls and answers).

/** Longest skill name a skill tool accepts (the spec allows 64; more is no skill name). */
export const MAX_SKILL_NAME_CHARS = 256;

/** Longest `arguments` of `load_skill` (and of a prompt), and longest script command; longer is a usage error, not a skill. */
export const MAX_SKILL_ARGUMENTS_CHARS = 10_000;

/** Longest path `read_skill_resource` accepts. */
export const MAX_RESOURCE_PATH_CHARS = 1024;

/** Most lines `read_skill_resource` reads at once. */
export const MAX_RESOURCE_LINES = 2000;

/** Longest `search_skills` query. */
export const MAX_SEARCH_QUERY_CHARS = 1000;

/** How many skills `search_skills` returns when the call does not say. */
export const DEFAULT_SEARCH_LIMIT = 5;

/** Most skills one `search_skills` call returns. */
export const MAX_SEARCH_LIMIT = 25;

/** How the text protocol offers the same action: its instruction tag, how to write it, what it does. */
export interface TextProtocolInstruction<Tag extends string = string> {
  tag: Tag;
  /** The instruction as the prompt shows it, and as errors about a malformed one quote it. */
  form: string;
  /** What it does, in the prompt's words (the prompt adds what depends on its options). */
  summary: string;
}

/** Longest code `run_code` accepts. */
export const MAX_CODE_CHARS = 100_000;

/**
 * One model-facing tool, defined once for every tool-calling host. A {@link SkillToolDefinition} adds
 * the text protocol's instruction; `run_code` has none, since the text protocol does not offer code mode.
 */
export interface ToolDefinition<
  Name extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  EngineInput = unknown,
> {
  /** The tool's name in every host. */
  name: Name;
  /** What the model reads about the tool. */
  description: string;
  /** The arguments, with their bounds and descriptions; hosts that take a raw shape use `input.shape`. */
  input: Input;
  /** The engine's input for a call with these arguments (hosts add the call's id where the engine takes one). */
  engineInput(input: z.output<Input>): EngineInput;
}

/** One model-facing skill tool, defined once for every host, with the text protocol's instruction for it. */
export interface SkillToolDefinition<
  Name extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  EngineInput = unknown,
  Tag extends string = string,
> extends ToolDefinition<Name, Input, EngineInput> {
  /** The text protocol's instruction for the same action. */
  textProtocol: TextProtocolInstruction<Tag>;
}

/** A definition, typed by what it holds (names and tags as literals). */
export function defineSkillTool<
  const Name extends string,
  Input extends z.ZodObject,
  EngineInput,
  const Tag extends string,
>(definition: SkillToolDefinition<Name, Input, EngineInput, Tag>): SkillToolDefinition<Name, Input, EngineInput, Tag> {
  return definition;
}

/** A definition without a text protocol instruction (`run_code`), typed by what it holds. */
export function defineTool<const Name extends string, Input extends z.ZodObject, EngineInput>(
  definition: ToolDefinition<Name, Input, EngineInput>,
): ToolDefinition<Name, Input, EngineInput> {
  return definition;
}

/** The `skill_name` argument of every tool but `search_skills`. */
export function skillNameInput(description: string) {
  return z.string().min(1).max(MAX_SKILL_NAME_CHARS).describe(description);
}
