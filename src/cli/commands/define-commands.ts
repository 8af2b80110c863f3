import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { createCommand } from "./create.js";
import { defineServingCommands } from "./define-serving-commands.js";
import { doctorCommand } from "./doctor.js";
import { infoCommand } from "./info.js";
import { listCommand } from "./list.js";
import { packageCommand } from "./package.js";
import { promptCommand } from "./prompt.js";
import { renderCommand } from "./render.js";
import { searchCommand } from "./search.js";
import { ALLOW_ROOT_HELP, EMBEDDINGS_HELP, HTML_HELP, LOCK_HELP, repeatable, SOURCES_HELP } from "./shared-options.js";
import { validateCommand } from "./validate.js";
import { verifyCommand } from "./verify.js";

/** Adds every `skillset` command to `program`, in the order `skillset --help` lists them. */
export function defineCommands(program: Command, context: CommandContext): void {
  defineLibraryCommands(program, context);
  defineAuthoringCommands(program, context);
  defineServingCommands(program, context);
}

// The commands that read a library and show what the model gets of it.
function defineLibraryCommands(program: Command, { terminal, run }: CommandContext): void {
  program
    .command("list")
    .description("List skills with their status: ok, warning, shadowed or skipped")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--budget <tokens>", "the catalog budget to show each skill's place under (default 5000; none: no limit)")
    .option("--json", "print JSON on stdout")
    .action((sources: string[], options) => run(() => listCommand(sources, options, terminal)));

  program
    .command("info")
    .description("Show one skill: metadata, path, resources and diagnostics")
    .argument("<name>", "the skill's name")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--json", "print JSON on stdout")
    .action((name: string, sources: string[], options) => run(() => infoCommand(name, sources, options, terminal)));

  program
    .command("search")
    .description("Find the skills search_skills would offer the model for a request, best first")
    .argument("<query>", "what the skill is for, in a few words")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--limit <n>", "how many skills to show, 1 to 25 (default 10)")
    .option("--json", 'print {"results":[{"name","description","path","score"}],"weakMatches":[…]} on stdout')
    .option("--embeddings <provider:model>", EMBEDDINGS_HELP)
    .action((query: string, sources: string[], options) => run(() => searchCommand(query, sources, options, terminal)));

  program
    .command("prompt")
    .description("Print the skills catalog exactly as the model sees it")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--format <format>", "markdown or xml (default: markdown)")
    .option(
      "--protocol <protocol>",
      "tools (the middleware's prompt, default) or text (the whole system prompt of the <use_skill> text protocol, createSkillRunner)",
    )
    .option("--no-scripts", "with --protocol text: the prompt of a runner without an executor")
    .option("--tokens", "count tokens (o200k_base) and print the counts on stderr")
    .option(
      "--budget <tokens>",
      "the catalog's token budget, as the middleware's catalogBudget (default 5000; none: no limit; XML: only when given, except with --protocol text)",
    )
    .action((sources: string[], options) => run(() => promptCommand(sources, options, terminal)));

  program
    .command("render")
    .description("Print exactly what the model receives when a user invokes a skill with /name args")
    .argument("<name>", "the skill's name")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--args <text>", "the arguments, as a user types them after /name")
    .option("--dynamic", "run the skill's !`command` blocks with the local executor (script rules apply)")
    .option("--lock <file>", LOCK_HELP)
    .action((name: string, sources: string[], options) => run(() => renderCommand(name, sources, options, terminal)));
}

// The commands of a skill's author and maintainer: make, check, pack and verify skills.
function defineAuthoringCommands(program: Command, { terminal, run }: CommandContext): void {
  program
    .command("create")
    .description("Create a new skill folder that passes validation")
    .argument("<name>", "the skill's name: lowercase letters, digits and hyphens")
    .option("--dir <dir>", "folder to create the skill in", ".")
    .option("--description <text>", "what the skill does and when to use it")
    .option("--resources <list>", "resource folders to add: scripts,references,assets")
    .action((name: string, options) => run(() => createCommand(name, options, terminal)));

  program
    .command("validate")
    .description("Validate skills strictly, as the Agent Skills reference validator does")
    .argument(
      "[paths...]",
      "skill folders (or SKILL.md files); with --recursive, folders to search (default: the working folder)",
    )
    .option("-r, --recursive", "validate every folder below each path that holds a SKILL.md")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--json", "print a JSON report on stdout")
    .option("--allow-claude-code-fields", "accept Claude Code's extra frontmatter fields (argument-hint, model, ...)")
    .action((paths: string[], options) => run(() => validateCommand(paths, options, terminal)));

  program
    .command("doctor")
    .description(
      "Report what hurts a library: rival skills, shadowing, catalog cost, skills chats never loaded, and lint",
    )
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--budget <tokens>", "the catalog budget to check against (default 5000; none: no limit)")
    .option(
      "--fail-on <severity>",
      "exit 1 when a finding is this serious or more: error, warning, info or none (default error)",
    )
    .option("--no-threads", "do not read skillset chat's saved threads")
    .option(
      "--embeddings <provider:model>",
      "also find rivals by meaning with this embeddings model, e.g. openai:text-embedding-3-small (needs its LangChain package; vectors are cached as search --embeddings caches them)",
    )
    .option("--json", "print a JSON report on stdout")
    .option("--html <file>", HTML_HELP)
    .action((sources: string[], options) => run(() => doctorCommand(sources, options, terminal)));

  program
    .command("package")
    .description(
      "Pack a skill folder as a .skill zip for upload to Claude.ai or the Claude API (validated first; same files, same bytes)",
    )
    .argument("<skill>", "the skill folder (or its SKILL.md)")
    .option("--out <file>", "the file to write, .skill or .zip (default: <name>.skill in the working folder)")
    .option("--allow-claude-code-fields", "accept Claude Code's extra frontmatter fields (argument-hint, model, ...)")
    .action((skill: string, options) => run(() => packageCommand(skill, options, terminal)));

  program
    .command("verify")
    .description(
      "Check installed skills against the skills-lock.json the skills CLI wrote: ok, modified, missing, or not in the lockfile",
    )
    .argument(
      "[folders...]",
      "skills folders to look in (default: .agents/skills and each agent's skills folder next to the lockfile)",
    )
    .option(
      "--lock <file>",
      "the lockfile (default: skills-lock.json of the project: the nearest folder up with .git or package.json)",
    )
    .option("--json", "print the report as JSON on stdout")
    .action((folders: string[], options) => run(() => verifyCommand(folders, options, terminal)));
}
