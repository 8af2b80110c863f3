import * as ai from "ai";
import * as test from "ai/test";
import aiPackage from "ai/package.json" with { type: "json" };
import { expect, it } from "vitest";
import { describeSkillsForAiSdk, type Message } from "../ai/scenarios.js";

// The suite of test/ai/scenarios.ts on AI SDK 7, which needs Node 22. Named *.spec.ts so that the
// main suite (Node 20, AI SDK 6) leaves it out; `npm test --prefix test/ai-sdk-7` runs it.
it("runs on AI SDK 7 and Node 22", () => {
  expect(aiPackage.version.split(".")[0]).toBe("7");
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(22);
});

describeSkillsForAiSdk({
  major: 7,
  ai,
  test,
  // AI SDK 7 gathers every step's messages in `responseMessages` (`response.messages` is the last step's).
  responseMessages: async (result) =>
    await (result as unknown as { responseMessages: PromiseLike<Message[]> }).responseMessages,
});
