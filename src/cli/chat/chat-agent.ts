import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createAgent, modelCallLimitMiddleware } from "langchain";
import type { SkillRanker } from "../../core/search/skill-search.js";
import type { SkillSource } from "../../core/skill-source.js";
import { createLocalExecutor } from "../../exec/local-executor.js";
import { createSkillsMiddleware } from "../../langchain/skills-middleware.js";
import { createFileTools } from "./file-tools.js";

/** What the agent of `skillset chat` and `skillset eval` is made of. */
export interface ChatAgentOptions {
  model: BaseChatModel;
  /** Skill sources, lowest precedence first. */
  sources: readonly SkillSource[];
  /** Run skill scripts and dynamic context with the local executor (`--allow-scripts`). */
  allowScripts: boolean;
  /** Offer `run_code` (`--allow-code`); its code may call the read-only file tools when there are any. */
  allowCode?: boolean;
  /** The working folder the read-only file tools may read (`--files`). */
  filesRoot?: string;
  checkpointer: BaseCheckpointSaver;
  /** Most model calls in one turn (`eval`'s step limit); unlimited when not given. */
  maxModelCalls?: number;
  /** Refuse skills that differ from this skills-lock.json or are not listed in it (`--lock`). */
  lockfile?: string;
  /** The rankers of `search_skills` (`--embeddings`); the middleware's default when not given. */
  searchRankers?: SkillRanker[];
}

// What `--files` gives the model; all of it only reads, so code may call it too.
const READ_ONLY_FILE_TOOLS = ["ls", "read_file", "glob", "grep"] as const;

/** The system prompt the skills section is appended to. */
export function chatSystemPrompt(filesRoot: string | undefined): string {
  const files = filesRoot
    ? ` You can read, but not change, the files of the working folder ${filesRoot} with ls, read_file, glob and grep.`
    : "";
  return `You are a helpful assistant talking with a user in a terminal. Answer in plain text.${files}`;
}

/**
 * The agent both commands run: LangChain's `createAgent` with the skills middleware, as a user
 * of `skillset/langchain` would build it. Skills' resources are read with `read_skill_resource`
 * (a skill's folder is not the working folder); scripts only with `allowScripts`.
 */
export function createChatAgent(options: ChatAgentOptions) {
  const executor = options.allowScripts ? createLocalExecutor() : undefined;
  const skills = createSkillsMiddleware({
    sources: [...options.sources],
    readResourceTool: true,
    ...(options.searchRankers ? { searchRankers: options.searchRankers } : {}),
    ...(executor ? { runScripts: { executor }, dynamicContext: { executor } } : {}),
    ...(options.lockfile === undefined ? {} : { lockfile: options.lockfile }),
    ...(options.allowCode ? { codeMode: { tools: options.filesRoot ? [...READ_ONLY_FILE_TOOLS] : [] } } : {}),
  });
  const limit =
    options.maxModelCalls === undefined
      ? []
      : [modelCallLimitMiddleware({ runLimit: options.maxModelCalls, exitBehavior: "end" })];
  return createAgent({
    model: options.model,
    tools: options.filesRoot ? createFileTools(options.filesRoot) : [],
    systemPrompt: chatSystemPrompt(options.filesRoot),
    middleware: [skills, ...limit],
    checkpointer: options.checkpointer,
  });
}

/** The agent {@link createChatAgent} builds. */
export type ChatAgent = ReturnType<typeof createChatAgent>;
