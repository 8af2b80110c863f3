// One-off: wrapModelCall time per call, base build vs this one, interleaved (not committed).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { AIMessage } from "@langchain/core/messages";
import { agentState, modelRequest } from "./middleware.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { measureInterleaved } from "./measure.mjs";
import { summarize } from "./stats.mjs";
const { createSkillsMiddleware: baseMw } = await import("/tmp/base/dist/langchain.js");
const { createSkillsMiddleware: nowMw } = await import("../dist/langchain.js");
const root = ensureLibrary(1000);
const { readdirSync } = await import("node:fs");
const loadNames = readdirSync(root).filter((name) => existsSync(join(root, name, "scripts"))).slice(0, 2);
const base = baseMw({ sources: [root] });
const now = nowMw({ sources: [root] });
const baseState = await agentState(base, { history: 15, turns: [loadNames] });
const nowState = await agentState(now, { history: 15, turns: [loadNames] });
const requests = { base: modelRequest(baseState, baseState.messages), now: modelRequest(nowState, nowState.messages) };
const response = new AIMessage("ok");
const handler = async () => response;
const contender = (label, middleware) => ({ label, run: async () => { const s = performance.now(); await middleware.wrapModelCall(requests[label], handler); return { ms: performance.now() - s, found: "ok" }; } });
for (let round = 0; round < 3; round++) {
  const results = await measureInterleaved([contender("base", base), contender("now", now)], { iterations: 3000, warmup: 300, gc: false });
  const b = summarize(results.get("base").samples).median * 1000, n = summarize(results.get("now").samples).median * 1000;
  console.log(`round ${round}: base ${b.toFixed(1)} µs, now ${n.toFixed(1)} µs, now/base ${(n / b).toFixed(3)}; loaded ${nowState.skillsLoaded}`);
}
