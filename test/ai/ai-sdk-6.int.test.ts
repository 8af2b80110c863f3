import { generateText, stepCountIs, streamText, ToolLoopAgent, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import aiPackage from "ai/package.json" with { type: "json" };
import { expect, it } from "vitest";
import { describeSkillsForAiSdk, type AiSdk } from "./scenarios.js";

// AI SDK 6 under the project's Node 20; AI SDK 7 runs the same suite under Node 22 (test/ai-sdk-7/).
it("runs on AI SDK 6", () => {
  expect(aiPackage.version.split(".")[0]).toBe("6");
});

describeSkillsForAiSdk({
  major: 6,
  generateText: generateText as unknown as AiSdk["generateText"],
  streamText: streamText as unknown as AiSdk["streamText"],
  ToolLoopAgent: ToolLoopAgent as unknown as AiSdk["ToolLoopAgent"],
  stepCountIs,
  MockLanguageModelV3: MockLanguageModelV3 as unknown as AiSdk["MockLanguageModelV3"],
  // AI SDK 6 gathers every step's messages in `response.messages` (a promise when streaming).
  responseMessages: async (result) => ((await (result as unknown as { response: PromiseLike<{ messages: ModelMessage[] }> }).response).messages),
});
