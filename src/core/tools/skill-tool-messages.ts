import type { SkillCallDecision } from "../loaded/plan-skill-calls.js";
import { parentFolder } from "../text/path-separator.js";
import { quoteForPrompt } from "../text/safe-text.js";
import type { SkillLocation, SkillMetadata } from "../skill-file/skill-metadata.js";
import type { ResourceDiscovery } from "../resources/skill-resources.js";
import type { AllowedToolsPolicy } from "./tool-policy.js";
import { LOAD_SKILL, READ_SKILL_RESOURCE, UNLOAD_SKILL } from "./skill-tool-definitions.js";

// What the model reads after a load_skill / unload_skill call, for every host: every refusal says
// what to do next. The tools themselves (names, arguments, descriptions) are in
// skill-tool-definitions.ts.

/** Largest `load_skill` result; deepagents moves results over ~80,000 characters to a file. */
export const MAX_LOAD_RESULT_CHARS = 60_000;

const MAX_LISTED_NAMES = 100;

/** Lists names, at most 100, as `a, b, c` (or `(none)`). */
function listNames(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, MAX_LISTED_NAMES).join(", ");
  return names.length > MAX_LISTED_NAMES ? `${shown}, and ${names.length - MAX_LISTED_NAMES} more` : shown;
}

/** The message for a refused `load_skill` / `unload_skill` call, or `undefined` when it goes ahead. */
export function refusalMessage(
  skill: string,
  decision: SkillCallDecision,
  context: {
    available: readonly string[];
    maxLoaded: number;
    closest?: { names: readonly string[]; searchTool?: string };
  },
): string | undefined {
  switch (decision.outcome) {
    case "load":
    case "unload":
      return undefined;
    case "not-found": {
      // A large catalog is not listed in full: the nearest names, and where to find the rest.
      const { closest } = context;
      if (!closest) return `Error: Skill '${skill}' not found. Available skills: ${listNames(context.available)}`;
      const near = closest.names.length > 0 ? ` Closest matches: ${closest.names.join(", ")}.` : "";
      return `Error: Skill '${skill}' not found.${near}${closest.searchTool ? ` Find other skills with ${closest.searchTool}.` : ""}`;
    }
    case "already-loaded":
      return decision.inThisStep
        ? `Skill '${skill}' is already being loaded by another ${LOAD_SKILL.name} call in this step.`
        : `Skill '${skill}' is already loaded. Its instructions are already active.`;
    case "busy":
      return `Error: Skill '${skill}' is being ${decision.otherAction === "load" ? "loaded" : "unloaded"} by another call in this step; try again in a later step if you still need to.`;
    case "budget": {
      const taken =
        decision.takenInThisStep.length > 0
          ? ` Loads earlier in this step took the remaining slot(s): ${decision.takenInThisStep.join(", ")}.`
          : "";
      return (
        `Error: Cannot load skill '${skill}'. Maximum number of simultaneously loaded skills reached (${context.maxLoaded}). ` +
        `Currently loaded: ${listNames(decision.loaded)}.${taken} ` +
        `Use \`${UNLOAD_SKILL.name}("skill-name")\` to unload a skill you no longer need, then retry loading.`
      );
    }
    case "not-loaded":
      return `Error: Skill '${skill}' is not currently loaded. Currently loaded skills: ${listNames(decision.loaded)}.`;
  }
}

/** The opening tag of a load result; also how a loaded skill is recognised in the messages. */
export function loadedSkillMarker(skill: string): string {
  return `<skill name="${skill}"`;
}

/**
 * The `load_skill` result: the `SKILL.md` content, then the resources and the skill's
 * recommended tools. Kept under {@link MAX_LOAD_RESULT_CHARS}; a longer `SKILL.md` is cut with a
 * note that says how to read the rest.
 */
export function loadResultText(
  skill: SkillMetadata,
  content: string,
  discovery: ResourceDiscovery,
  readTool: string,
  policy: AllowedToolsPolicy = "recommend",
  location: SkillLocation = { file: skill.path, folder: parentFolder(skill.path) },
): string {
  const directory = quoteForPrompt(location.folder);
  const tail: string[] = [];
  if (discovery.resources.length > 0) {
    tail.push(`<skill_resources base="${directory}">`);
    for (const resource of discovery.resources)
      tail.push(`- [${resource.type}] ${quoteForPrompt(resource.relativePath)}`);
    if (discovery.truncated) tail.push("- … (more files; the listing stopped at its limit)");
    tail.push(
      "</skill_resources>",
      `Paths above are relative to ${directory}; read them with \`${readTool}\` when the instructions call for them.`,
    );
  } else if (discovery.error) {
    tail.push(`(Could not list this skill's resources: ${discovery.error})`);
  }
  if (skill.allowedTools.length > 0) {
    tail.push(
      `${policy === "restrict" ? "Allowed" : "Recommended"} tools while this skill is active: ${skill.allowedTools.join(", ")}`,
    );
  }
  const closing = `</skill>${tail.length > 0 ? `\n${tail.join("\n")}` : ""}`;
  const opening = `${loadedSkillMarker(skill.name)} path="${quoteForPrompt(location.file)}">\n`;
  const room = MAX_LOAD_RESULT_CHARS - opening.length - closing.length - 200;
  let body = content;
  if (content.length > room) {
    const shown = content.slice(0, content.lastIndexOf("\n", room) + 1 || room);
    const lines = shown.split("\n").length - 1;
    // read_skill_resource takes a path in the skill's folder; other readers take the file's own path.
    const file =
      readTool === READ_SKILL_RESOURCE.name ? `\`SKILL.md\` of skill '${skill.name}'` : quoteForPrompt(location.file);
    body = `${shown}[… SKILL.md continues after line ${lines}: read ${file} with \`${readTool}\` from line offset ${lines}.]`;
  }
  return `${opening}${body}\n${closing}`;
}

/**
 * What the model gets in place of a user's `/name args`: the rendered skill, as `load_skill`
 * returns it, then what the user asked for and, if a skill had to make room, which one.
 */
export function invocationResultText(
  loadResult: string,
  skill: string,
  args: string,
  evicted: string | undefined,
  maxLoaded: number,
): string {
  const lines = [loadResult + `${INVOCATION_NOTE}/${skill}${args ? ` ${args}` : ""}`, "Follow its instructions now."];
  if (evicted)
    lines.push(`(Skill '${evicted}' was unloaded to make room: at most ${maxLoaded} skills can be loaded at once.)`);
  return lines.join("\n");
}

const INVOCATION_NOTE = "\nThe user invoked this skill: ";
const FORK_TASK_NOTE =
  "You run this skill as a forked agent: carry out its instructions now, then answer with the result; your last message is all the agent that started you receives.";

/** A forked skill's task: the skill as a load shows it, the user's `/name args` when a user invoked it, and what to do. */
export function forkTaskText(loadResult: string, skill: string, args: string | undefined): string {
  const asked = args === undefined ? "" : `${INVOCATION_NOTE}/${skill}${args ? ` ${args}` : ""}`;
  return `${loadResult}${asked}\n${FORK_TASK_NOTE}`;
}

/** The load result within a text that may be a user's invocation ({@link invocationResultText}). */
export function loadResultOf(text: string): string {
  const note = text.lastIndexOf(INVOCATION_NOTE);
  return note === -1 ? text : text.slice(0, note);
}

/** The `unload_skill` result. */
export function unloadResultText(skill: string, stillLoaded: readonly string[], maxLoaded: number): string {
  return (
    `Skill '${skill}' has been unloaded. Currently loaded: ${stillLoaded.length}/${maxLoaded} ` +
    `(${maxLoaded - stillLoaded.length} slot(s) available)${stillLoaded.length > 0 ? `: ${stillLoaded.join(", ")}` : ""}. ` +
    `Its instructions from the earlier ${LOAD_SKILL.name} call are still in the conversation history, but no longer apply.`
  );
}

// Code mode (`run_code`): what an import or a tool call the code may not make answers inside the
// sandbox. The sandbox prefixes them (`an import failed.`, `the code threw …`), so they are clauses.

/** The answer to `run_code` when the app has not turned code mode on. */
export const CODE_MODE_OFF_MESSAGE = "Error: Running code is not enabled for this agent.";

/** Why an import is refused, then which modules can be imported, so the model can fix the specifier (the sandbox names the specifier). */
export function importRefusalMessage(reason: string, importable: readonly string[]): string {
  const modules =
    importable.length > 0
      ? `Modules you can import now: ${listNames(importable.map((name) => `@/skills/${name}`))}.`
      : "No loaded skill has a module you can import.";
  return `${reason}. ${modules}`;
}

/** The rejection of `tools.<name>(…)` for a tool of the agent's that code may not call. */
export function codeToolRefusalMessage(
  tool: string,
  codeName: string,
  why: "skill-tool" | "not-allowed" | "not-disclosed" | "restricted",
  detail?: string,
): string {
  switch (why) {
    case "skill-tool":
      return `tools.${codeName} cannot be called from code: ${tool} works on the skills themselves; call ${tool} directly, outside run_code.`;
    case "not-allowed":
      return `tools.${codeName} (${tool}) is not available to code in this agent; call ${tool} directly, outside run_code, if you need it.`;
    case "not-disclosed":
    case "restricted":
      return `tools.${codeName} (${tool}) was refused: ${(detail ?? "").replace(/^Error: /, "")}`;
  }
}
