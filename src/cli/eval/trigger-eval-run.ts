import { MemorySaver } from "@langchain/langgraph";
import type { SkillSource } from "../../core/skill-source.js";
import { createChatAgent } from "../chat/chat-agent.js";
import type { ChatModel } from "../chat/chat-model.js";
import type { Terminal } from "../terminal.js";
import { runTriggerQueries } from "./run-trigger-evals.js";
import type { TriggerQuery } from "./trigger-evals.js";
import { scoreTriggers, type SkillTriggerReport } from "./trigger-score.js";

/** How trigger queries are run: the agent's settings and the runs' pace. */
export interface TriggerRunSettings {
  model: ChatModel;
  timeoutMs: number;
  /** Runs of each query. */
  repeat: number;
  concurrency: number;
  maxSteps: number;
  allowScripts: boolean;
  /** The working folder, for `--files`. */
  filesRoot?: string;
  terminal: Terminal;
}

/**
 * Measures one skill's queries with a fresh agent over `sources` (so a tuned description is seen
 * as the catalog shows it), reporting errors and progress on stderr as `eval` does.
 */
export async function measureTriggers(
  skill: string,
  file: string,
  queries: readonly TriggerQuery[],
  sources: readonly SkillSource[],
  settings: TriggerRunSettings,
): Promise<SkillTriggerReport> {
  const { terminal } = settings;
  // Sources read without watching (watch: false), so there is nothing to close afterwards.
  const agent = createChatAgent({
    model: settings.model.model,
    sources,
    allowScripts: settings.allowScripts,
    checkpointer: new MemorySaver(),
    maxModelCalls: settings.maxSteps,
    ...(settings.filesRoot === undefined ? {} : { filesRoot: settings.filesRoot }),
  });
  const runs = await runTriggerQueries(skill, queries, {
    agent,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    repeat: settings.repeat,
    concurrency: settings.concurrency,
    onRun: (run, done, total) => {
      if (run.error)
        terminal.err(
          terminal.color.red(
            `${terminal.interactive ? "\r\x1b[K" : ""}${skill}, ${run.case.id}${settings.repeat > 1 ? ` (run ${run.run})` : ""}: ${run.error}`,
          ),
        );
      if (terminal.interactive)
        terminal.status(done < total ? `\r\x1b[KEvaluating ${skill}: ${done}/${total} runs` : "\r\x1b[K");
    },
  });
  return scoreTriggers(skill, file, queries, runs);
}
