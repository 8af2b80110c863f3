// The AI SDK page's second example (docs/ai-sdk.md), checked as the first (readme-example.ts).
import { stepCountIs, streamText, ToolLoopAgent, type ModelMessage } from "ai";
import { createSkills } from "../../src/ai.js";
import { skills, system, tools } from "./readme-example.js";

// streamText, e.g. in a route handler of a chat UI (the client sends the messages).
export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: ModelMessage[] };
  const result = streamText({
    model: "anthropic/claude-sonnet-4.5",
    messages: await skills.prepareMessages(messages),
    tools,
    prepareStep: skills.prepareStep({ instructions: system, tools }),
    stopWhen: stepCountIs(20),
  });
  return result.toTextStreamResponse();
}

// An agent, defined once: every call derives its skills from the messages it is given.
export const agent = new ToolLoopAgent({
  model: "anthropic/claude-sonnet-4.5",
  instructions: system,
  tools,
  prepareStep: skills.prepareStep({ instructions: system, tools }), // AI SDK 7: skills.prepareStep({ tools })
  stopWhen: stepCountIs(20),
});

// The loaded skills kept by thread id instead, in a store: any object with get and set.
const stored = createSkills({ sources: ["./skills"], store: new Map() });
export function agentFor(chatId: string) {
  const thread = stored.thread(chatId);
  const threadTools = { ...tools, ...thread.tools }; // the thread's skill tools in place of skills.tools
  return new ToolLoopAgent({
    model: "anthropic/claude-sonnet-4.5",
    instructions: system,
    tools: threadTools,
    prepareStep: thread.prepareStep({ instructions: system, tools: threadTools }),
    stopWhen: stepCountIs(20),
  });
}
