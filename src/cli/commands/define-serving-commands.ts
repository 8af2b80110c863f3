import type { Command } from "commander";
import { importOptional } from "../chat/optional-package.js";
import type { CommandContext } from "./command-context.js";
import { ALLOW_ROOT_HELP, EMBEDDINGS_HELP, HTML_HELP, LOCK_HELP, repeatable, SOURCES_HELP } from "./shared-options.js";

/**
 * Adds the commands that serve the skills to a model or client (mcp, chat, eval, tune); each
 * imports its code only when it runs.
 */
export function defineServingCommands(program: Command, context: CommandContext): void {
  defineMcpCommand(program, context);
  defineModelCommands(program, context);
}

function defineMcpCommand(program: Command, { terminal, version, run }: CommandContext): void {
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
    .option(
      "--allow-code",
      "offer run_code: the model's JavaScript in a WebAssembly sandbox per session, importing loaded skills' modules",
    )
    .option("--max-loaded <n>", "skills one session may have loaded at once (default 10)")
    .option("--lock <file>", LOCK_HELP)
    .option("--embeddings <provider:model>", EMBEDDINGS_HELP)
    // Loaded only for this command, so the others start without the MCP SDK.
    .action((sources: string[], options) =>
      run(async () => (await import("./mcp.js")).mcpCommand(sources, options, terminal, version)),
    );
}

// chat, eval and tune load LangChain and the provider packages, which the other commands do not
// need; without them, one line names the package to install.
function defineModelCommands(program: Command, { terminal, run }: CommandContext): void {
  withModelOptions(
    program
      .command("chat")
      .description("Talk with a model that has the skills: /skills, /<skill> args, /loaded, /unload, /exit")
      .argument("[sources...]", SOURCES_HELP)
      .option("--thread <id>", "continue a saved conversation (threads are kept under the user's data folder)")
      .option(
        "--allow-code",
        "offer run_code: the model's JavaScript in a WebAssembly sandbox, importing loaded skills' modules (and, with --files, reading files)",
      )
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
