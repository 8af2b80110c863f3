import { HumanMessage } from "langchain";
import type { Catalog } from "../../core/catalog/catalog.js";
import { listInvocableSkills, parseSkillCommand } from "../../core/instructions/skill-command.js";
import type { SkillOperation } from "../../core/loaded/skill-operations.js";
import { plural } from "../plural.js";
import { describeSkillEvent, describeToolActivity } from "./activity.js";
import type { ChatAgent } from "./chat-agent.js";
import { CHAT_COMMANDS_HELP, parseChatCommand } from "./chat-commands.js";
import type { ChatModel } from "./chat-model.js";
import type { ChatOutput } from "./chat-output.js";
import { runTurn, threadValues } from "./run-turn.js";
import { describeTurnError } from "./turn-error.js";

/** What handling a line led to. */
export type LineOutcome = "continue" | "failed" | "exit";

/** One conversation: a thread of the agent, and what the user's lines do to it. */
export interface ChatSession {
  /** Handles one line the user typed: a chat command, or a message (`/name args` included). */
  handle(line: string, signal: AbortSignal): Promise<LineOutcome>;
}

/** Options of {@link createChatSession}. */
export interface ChatSessionOptions {
  agent: ChatAgent;
  threadId: string;
  /** The catalog over the agent's sources, for `/skills`. */
  catalog: Catalog;
  model: ChatModel;
  timeoutMs: number;
  output: ChatOutput;
  /** Terminal width for `/skills` descriptions; whole descriptions when not given. */
  columns?: number;
}

/** Creates a {@link ChatSession}. */
export function createChatSession(options: ChatSessionOptions): ChatSession {
  const { agent, threadId, output } = options;

  async function listSkills(): Promise<void> {
    const skills = listInvocableSkills((await options.catalog.refresh()).skills);
    if (skills.length === 0) return output.print("No skills can be invoked.");
    for (const skill of skills) {
      const head = `/${skill.name}${skill.argumentHint ? ` ${skill.argumentHint}` : ""}`;
      output.print(fit(`${head} — ${skill.description.replace(/\s+/g, " ")}`, options.columns));
    }
  }

  async function listLoaded(): Promise<void> {
    const values = await threadValues(agent, threadId);
    const loaded = values.skillsLoaded ?? [];
    if (loaded.length === 0) return output.print("No skills are loaded.");
    for (const name of loaded)
      output.print(`${name} (${plural(values.skillResources?.[name]?.length ?? 0, "resource")})`);
  }

  // A user's unload: the same operation the model's unload_skill applies, and a note in the
  // conversation so the model stops following instructions it still sees in the history.
  async function unload(skill: string): Promise<void> {
    const loaded = (await threadValues(agent, threadId)).skillsLoaded ?? [];
    if (!loaded.includes(skill)) {
      return output.error(`Skill '${skill}' is not loaded. Loaded: ${loaded.length > 0 ? loaded.join(", ") : "none"}.`);
    }
    const operations: SkillOperation[] = [{ kind: "unload", skill }];
    const note = new HumanMessage({
      content: `[The user unloaded the skill '${skill}' with /unload: its instructions no longer apply.]`,
      additional_kwargs: { skillset_command: { text: `/unload ${skill}` } },
    });
    await agent.updateState(
      { configurable: { thread_id: threadId } },
      { skillsLoaded: operations, skillResources: operations, messages: [note] },
    );
    output.activity({ level: "info", text: `unloaded ${skill}` });
  }

  async function send(message: string, signal: AbortSignal): Promise<LineOutcome> {
    const command = /^\/([a-z0-9][a-z0-9-]*)(?:\s|$)/.exec(message);
    if (command && !parseSkillCommand(message, (await options.catalog.refresh()).skills)) {
      output.activity({
        level: "warn",
        text: `/${command[1]} is not a skill you can invoke (see /skills); sent as a message`,
      });
    }
    const result = await runTurn(
      agent,
      threadId,
      message,
      {
        text: (piece) => output.text(piece),
        textEnd: () => output.endLine(),
        skillEvent: (entry) => output.activity(describeSkillEvent(entry)),
        tool: (activity) => {
          const line = describeToolActivity(activity);
          if (line) output.activity(line);
        },
      },
      { signal },
    );
    output.endLine();
    if (result.status === "stopped") output.activity({ level: "warn", text: "stopped" });
    if (result.status !== "failed") return "continue";
    output.error(describeTurnError(result.error, options.model, options.timeoutMs).message);
    return "failed";
  }

  return {
    async handle(line, signal) {
      const text = line.trim();
      if (!text) return "continue";
      const command = parseChatCommand(text);
      switch (command?.kind) {
        case undefined:
          return send(text, signal);
        case "exit":
          return "exit";
        case "help":
          output.print(CHAT_COMMANDS_HELP);
          return "continue";
        case "skills":
          await listSkills();
          return "continue";
        case "loaded":
          await listLoaded();
          return "continue";
        case "unload":
          await unload(command.skill);
          return "continue";
        case "usage":
          output.error(command.message);
          return "continue";
      }
    },
  };
}

// One line within `columns`, cut with an ellipsis.
function fit(line: string, columns: number | undefined): string {
  if (!columns || line.length <= columns) return line;
  return `${line.slice(0, Math.max(columns - 1, 10))}…`;
}
