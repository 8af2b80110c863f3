// Table "MCP server": round-trip latency of `skillset mcp` over stdio, the built CLI as a real
// process driven by the MCP SDK's client, on the generated library of 1,000 skills; against
// `ping` (the transport's own floor), the engine's load in the same process (no MCP), and a bare
// SDK server answering as many characters (the payload-matched floor, bench/mcp-echo.mjs).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { createSkillEngine } from "../dist/host.js";
import { createCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { ensureLibrary } from "./generate-library.mjs";
import { answerSizes, connectEcho } from "./mcp-echo.mjs";
import { measureInterleaved, time } from "./measure.mjs";
import { formatMs, formatRatio, summarize } from "./stats.mjs";

const LIBRARY_SIZE = 1_000;
const CALLS = { iterations: 300, warmup: 30 };
const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const anyResult = z.record(z.string(), z.unknown());

/** The MCP server table with its notes, as run.mjs prints it. */
export async function mcpTable() {
  const root = ensureLibrary(LIBRARY_SIZE);
  const client = new Client({ name: "skillset-bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", root], stderr: "ignore" }),
  );
  const catalog = createCatalog([createLocalSource({ path: root })]);
  const sizes = answerSizes();
  const echo = await connectEcho(sizes);
  try {
    const engine = createSkillEngine();
    const refreshed = await engine.refresh(catalog, { loaded: [] });
    const state = { skills: refreshed.skills, catalogVersion: refreshed.version, loaded: [], resources: {} };
    const names = refreshed.skills.map((skill) => skill.name);
    let next = 0;
    // Each round loads another skill, so no load is answered from a cache the previous one filled.
    const nextSkill = () => names[next++ % names.length];
    const call = (name, args) => client.callTool({ name, arguments: args });
    const loadOverMcp = async () => {
      const skill = nextSkill();
      const { ms, result } = await time(() => call("load_skill", { skill_name: skill }));
      await call("unload_skill", { skill_name: skill });
      sizes.load(result);
      return { ms, found: result.isError === true ? "refused" : "loaded" };
    };
    const samples = await measureInterleaved(
      [
        { label: "ping", run: async () => ({ ...(await time(() => client.ping())), found: "pong" }) },
        { label: "load_skill", run: loadOverMcp },
        {
          label: "engine.load (in process, no MCP)",
          run: async () => ({
            ...(await time(() =>
              engine.load({ state, sources: async () => catalog.sources }, { skill: nextSkill(), id: "bench" }),
            )),
            found: "loaded",
          }),
        },
        {
          label: "resources/read SKILL.md",
          run: async () => ({
            ...(await time(() => client.readResource({ uri: `skill://${nextSkill()}/SKILL.md` }))),
            found: "read",
          }),
        },
        {
          label: "skills/get",
          run: async () => {
            const { ms, result } = await time(() =>
              client.request({ method: "skills/get", params: { uri: `skill://${nextSkill()}/SKILL.md` } }, anyResult),
            );
            sizes.get(result);
            return { ms, found: "entry" };
          },
        },
        ...echo.contenders,
      ],
      { ...CALLS, gc: false },
    );
    const refused = [...samples.get("load_skill").found].filter((found) => found !== "loaded");
    if (refused.length > 0) throw new Error(`load_skill was refused during the benchmark: ${refused.join(", ")}`);
    const stats = Object.fromEntries([...samples].map(([label, { samples: runs }]) => [label, summarize(runs)]));
    const floor = stats.ping.median;
    // Each call against the bare server's round trip carrying as many characters.
    const echoOf = {
      load_skill: "echo tool, load_skill's answer size",
      "skills/get": "echo request, skills/get's answer size",
    };
    const rows = Object.entries(stats).map(([label, summary]) => ({
      "request (stdio, 1,000 skills)": label,
      "median ms": formatMs(summary.median),
      "p90 ms": formatMs(summary.p90),
      "vs ping": label === "ping" ? "" : formatRatio(summary.median / floor),
      "vs its echo": echoOf[label] ? formatRatio(summary.median / stats[echoOf[label]].median) : "",
    }));
    const overhead = stats.load_skill.median - stats["engine.load (in process, no MCP)"].median;
    return {
      title: "MCP server",
      rows,
      notes: [
        "",
        `${CALLS.iterations} calls each, interleaved, after ${CALLS.warmup} warm-up rounds; each load_skill is followed by an untimed unload_skill, and every call names another skill.`,
        `MCP adds ${formatMs(overhead)} ms to a load (load_skill over stdio minus the engine's own load); ping is the transport's floor: JSON-RPC over the child's stdin and stdout.`,
        `The echo rows are a bare MCP SDK server in a process of its own (bench/mcp-echo-server.mjs) answering a tool call with a text as long as the last load_skill's (${sizes.loadChars.toLocaleString("en-US")} characters at the end) and a request with one as long as the last skills/get answer's JSON (${sizes.getChars.toLocaleString("en-US")}): what the SDK on both sides and the pipe cost to carry such an answer, with no work behind it. "vs its echo" divides by that floor.`,
      ],
    };
  } finally {
    catalog.close();
    await client.close();
    await echo.client.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { formatTable } = await import("./stats.mjs");
  const { title, rows, notes } = await mcpTable();
  console.log([`## ${title}`, "", formatTable(rows), ...notes].join("\n"));
}
