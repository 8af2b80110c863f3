// The AI SDK page's example (docs/ai-sdk.md), typechecked against AI SDK 6 (npm run typecheck) and 7
// (test/ai-sdk-7/tsconfig.json); readme-example.test.ts checks that the page shows it as it is.
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { z } from "zod";
import { createSkills } from "../../src/ai.js";

export const skills = createSkills({ sources: ["./skills"], maxLoadedSkills: 5 });
export const system = "You are a helpful assistant.";
export const tools = {
  weather: tool({
    description: "The weather in a city.",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}.`,
  }),
  ...skills.tools,
};

// One turn of a conversation that you keep (a file, a database row): the loaded skills are
// recorded in its messages, so the next turn, in this process or another, continues with them.
export async function reply(history: ModelMessage[], text: string): Promise<ModelMessage[]> {
  const messages = await skills.prepareMessages([...history, { role: "user", content: text }]);
  const result = await generateText({
    model: "anthropic/claude-sonnet-4.5",
    messages,
    tools,
    prepareStep: skills.prepareStep({ instructions: system, tools }),
    stopWhen: stepCountIs(20),
  });
  return [...messages, ...result.response.messages]; // AI SDK 7: result.responseMessages
}
