import * as ai from "ai";
import * as test from "ai/test";
import aiPackage from "ai/package.json" with { type: "json" };
import { expect, it } from "vitest";
import { describeSkillsForAiSdk, type Message } from "./scenarios.js";

// AI SDK 6 under the project's Node 20; AI SDK 7 runs the same suite under Node 22 (test/ai-sdk-7/).
it("runs on AI SDK 6", () => {
  expect(aiPackage.version.split(".")[0]).toBe("6");
});

describeSkillsForAiSdk({
  major: 6,
  ai,
  test,
  // AI SDK 6 gathers every step's messages in `response.messages` (a promise when streaming).
  responseMessages: async (result) =>
    (await (result as unknown as { response: PromiseLike<{ messages: Message[] }> }).response).messages,
});
