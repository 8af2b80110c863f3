// `skillset mcp` on a large library: start-up (a new process until it answers `initialize`),
// `skills/list` pages at the start, middle and end, and load_skill and skills/get against ping and
// against a bare SDK server answering as many characters (bench/mcp-echo.mjs).
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { answerSizes, connectEcho } from "./mcp-echo.mjs";
import { measureInterleaved, time } from "./measure.mjs";
import { median } from "./stats.mjs";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const anyResult = z.record(z.string(), z.unknown());
const PAGE_REQUESTS = 7;
const CALLS = { iterations: 100, warmup: 10 };

/** Medians in ms: start-up, the first, a middle and the last `skills/list` page, and the calls against ping. */
export async function measureMcp(root, names) {
  const client = new Client({ name: "skillset-bench", version: "1" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", root], stderr: "pipe" });
  const spawned = performance.now();
  const checked = checkEnded(transport.stderr, spawned);
  checked.catch(() => {}); // awaited below, once connected
  const startup = await time(() => client.connect(transport));
  try {
    // Measured once the server's start-up check of every skill's files has ended: until then each
    // request may wait for one of its slices (how long that lasts is a row of its own).
    const checkedMs = await checked;
    const list = (cursor) => client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, anyResult);
    // A cursor names the last name given (see server-context.ts): pages can be asked for anywhere.
    const cursorAfter = (name) => Buffer.from(JSON.stringify({ after: name })).toString("base64url");
    const page = async (cursor) => {
      const samples = [];
      let entries = 0;
      for (let run = 0; run < PAGE_REQUESTS; run++) {
        const { ms, result } = await time(() => list(cursor));
        samples.push(ms);
        entries = result.skills.length;
      }
      return { ms: median(samples), entries };
    };
    const pages = {
      first: await page(undefined),
      middle: await page(cursorAfter(names[Math.floor(names.length / 2)])),
      last: await page(cursorAfter(names[names.length - 11])),
    };
    let next = 0;
    const nextSkill = () => names[(next += 7919) % names.length];
    const sizes = answerSizes();
    const echo = await connectEcho(sizes);
    const results = await measureInterleaved(
      [
        { label: "ping", run: async () => ({ ...(await time(() => client.ping())), found: "pong" }) },
        {
          label: "load_skill",
          run: async () => {
            const skill = nextSkill();
            const timed = await time(() => client.callTool({ name: "load_skill", arguments: { skill_name: skill } }));
            await client.callTool({ name: "unload_skill", arguments: { skill_name: skill } });
            sizes.load(timed.result);
            return { ms: timed.ms, found: timed.result.isError ? "refused" : "loaded" };
          },
        },
        {
          label: "skills/get",
          run: async () => {
            const timed = await time(() =>
              client.request({ method: "skills/get", params: { uri: `skill://${nextSkill()}/SKILL.md` } }, anyResult),
            );
            sizes.get(timed.result);
            return { ms: timed.ms, found: "entry" };
          },
        },
        ...echo.contenders,
      ],
      { ...CALLS, gc: false },
    ).finally(() => echo.client.close());
    const calls = Object.fromEntries([...results].map(([label, { samples }]) => [label, median(samples)]));
    return { startupMs: startup.ms, checkedMs, pages, calls };
  } finally {
    await client.close();
  }
}

// Ms from spawning `skillset mcp` until it says its check of what the Skills extension serves ended.
function checkEnded(stderr, spawned) {
  return new Promise((resolve, reject) => {
    let text = "";
    stderr.setEncoding("utf8");
    stderr.on("data", (chunk) => {
      text += chunk;
      if (/the Skills extension serves .* \(checked in/.test(text)) resolve(performance.now() - spawned);
    });
    stderr.on("end", () => reject(new Error(`skillset mcp ended before its check did:\n${text}`)));
  });
}
