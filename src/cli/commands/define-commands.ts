import type { Command } from "commander";
import { importOptional } from "../chat/optional-package.js";
import type { Terminal } from "../terminal.js";
import { createCommand } from "./create.js";
import { doctorCommand } from "./doctor.js";
import { infoCommand } from "./info.js";
import { listCommand } from "./list.js";
import { packageCommand } from "./package.js";
import { promptCommand } from "./prompt.js";
import { renderCommand } from "./render.js";
import { searchCommand } from "./search.js";
import { validateCommand } from "./validate.js";
import { verifyCommand } from "./verify.js";

/** What the commands' definitions get from `main()`. */
export interface CommandContext {
  terminal: Terminal;
  /** skillset's version, which `skillset mcp` reports to its clients. */
  version: string;
  /** Runs a command's action; `main()` keeps the exit code it returns. */
  run(action: () => Promise<number>): Promise<void>;
}

// A variadic argument is [] when not given, so none has a default of its own: commander would
// print it as a second "(default: [])" after the one these descriptions give.
const SOURCES_HELP =
  'skills folders, npm:<package> (its skills), npm: (the packages the project\'s package.json names in "skills") or https://<site> (the skills it publishes at /.well-known/agent-skills/), lowest precedence first (default: ~/.claude/skills, ~/.agents/skills, then .claude/skills, .agents/skills of the project: the nearest folder up with .git or package.json)';
const LOCK_HELP =
  "refuse skills that differ from this skills-lock.json or are not listed in it, as the lockfile option does";
const ALLOW_ROOT_HELP =
  "a further folder that symlinks may lead into (repeatable; always allowed: the skills folder, its project, ~/.claude/skills, ~/.agents/skills)";

const EMBEDDINGS_HELP =
  "also rank search_skills by meaning with this embeddings model, e.g. openai:text-embedding-3-small (needs its LangChain package; vectors are cached under the user's cache folder)";

const HTML_HELP = "also write the report as one self-contained web page (charts, no scripts, works offline)";

// Collects a repeatable option's values.
const repeatable = (value: string, previous: string[] = []) => [...previous, value];

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

// The commands that serve the skills to a model or client; each imports its code only when it runs.
function defineServingCommands(program: Command, { terminal, version, run }: CommandContext): void {
  program
    .command("mcp")
    .description("Serve the skills over MCP: stdio, or Streamable HTTP with --http")
    .argument("[sources...]", SOURCES_HELP)
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option(
      "--http <port>",
      "serve over Streamable HTTP at http://127.0.0.1:<port>/mcp (0: a free port) instead of stdio",
    )
    .option(
      "--host <host>",
      "the address --http binds (default 127.0.0.1; anything else exposes the skills to the network)",
    )
    .option(
      "--allow-scripts",
      "offer run_skill_script, running skills' scripts on this machine under their allow-lists",
    )
    .option("--max-loaded <n>", "skills one session may have loaded at once (default 10)")
    .option("--lock <file>", LOCK_HELP)
    .option("--embeddings <provider:model>", EMBEDDINGS_HELP)
    // Loaded only for this command, so the others start without the MCP SDK.
    .action((sources: string[], options) =>
      run(async () => (await import("./mcp.js")).mcpCommand(sources, options, terminal, version)),
    );

  // chat and eval load LangChain and the provider packages, which the other commands do not need;
  // without them, one line names the package to install.
  withModelOptions(
    program
      .command("chat")
      .description("Talk with a model that has the skills: /skills, /<skill> args, /loaded, /unload, /exit")
      .argument("[sources...]", SOURCES_HELP)
      .option("--thread <id>", "continue a saved conversation (threads are kept under the user's data folder)")
      .option("--lock <file>", LOCK_HELP),
  ).action((sources: string[], options) =>
    run(async () =>
      (await importOptional(() => import("./chat.js"), "skillset chat", "langchain")).chatCommand(
        sources,
        options,
        terminal,
      ),
    ),
  );

  withModelOptions(
    program
      .command("eval")
      .description("Measure which skills a model loads for the requests they are meant for")
      .argument(
        "<cases>",
        "the cases file (YAML or JSON), a trigger-eval file (agentskills.io's query/should_trigger list), or a folder whose skills have evals/eval_queries.json; with --generate, the file to write (- for stdout)",
      )
      .argument("[sources...]", SOURCES_HELP)
      .option("--repeat <n>", "run every case n times, for variance (default 1; 3 for trigger evals)")
      .option("--json", "print a JSON report on stdout")
      .option("--html <file>", HTML_HELP)
      .option("--min-pass <rate>", "exit 1 when fewer runs pass, e.g. 0.9 or 90%")
      .option("--max-steps <n>", "most model calls per turn of a case (default 8)")
      .option("--concurrency <n>", "runs at once (default 4)")
      .option("--generate", "draft cases from the skills' descriptions with the model, for you to review")
      .option(
        "--skill <name>",
        "the skill a trigger-eval file measures (default: the skill whose folder holds the file)",
      ),
  ).action((cases: string, sources: string[], options) =>
    run(async () =>
      (await importOptional(() => import("./eval.js"), "skillset eval", "langchain")).evalCommand(
        cases,
        sources,
        options,
        terminal,
      ),
    ),
  );

  withModelOptions(
    program
      .command("tune")
      .description(
        "Tune a skill's description on its trigger evals: train/validation split, model-proposed rewrites, best on validation",
      )
      .argument("<skill>", "the skill's name")
      .argument("[sources...]", SOURCES_HELP)
      .option("--evals <file>", "the trigger-eval file (default: evals/eval_queries.json in the skill's folder)")
      .option("--iterations <n>", "most descriptions to propose (default 5)")
      .option("--write", "write the best description into the skill's SKILL.md (only the description changes)")
      .option("--json", "print a JSON report on stdout")
      .option("--html <file>", HTML_HELP)
      .option("--repeat <n>", "runs of each query (default 3)")
      .option("--max-steps <n>", "most model calls per run (default 8)")
      .option("--concurrency <n>", "runs at once (default 4)"),
  ).action((skill: string, sources: string[], options) =>
    run(async () =>
      (await importOptional(() => import("./tune.js"), "skillset tune", "langchain")).tuneCommand(
        skill,
        sources,
        options,
        terminal,
      ),
    ),
  );
}

// The options of the commands that talk to a model.
function withModelOptions(command: Command): Command {
  return command
    .requiredOption(
      "--model <provider:model>",
      "the model, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5 (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY)",
    )
    .option(
      "--base-url <url>",
      "another server with the provider's API, e.g. http://localhost:11434/v1 for Ollama with openai:<model>",
    )
    .option("--timeout <seconds>", "how long one model request may take (default 120)")
    .option("--max-retries <n>", "retries of a failed model request (default 2)")
    .option("-r, --recursive", "find skills in nested folders too")
    .option("--allow-root <dir>", ALLOW_ROOT_HELP, repeatable)
    .option("--allow-scripts", "run skills' scripts and dynamic context on this machine, under their allow-lists")
    .option("--files", "let the model read (not change) the files of the working folder")
    .option("--embeddings <provider:model>", EMBEDDINGS_HELP);
}
