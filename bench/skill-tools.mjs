// Table "Skill tools": the tools list each model call carries (as OpenAI tool JSON, UTF-8 bytes)
// before a skill that brings tools is loaded, after, and after its unload, through the real
// createAgent loop; and how much of it is a byte-identical prefix of the call before, which is
// what a provider's prompt cache keeps (tools come before the messages).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { fakeModel } from "@langchain/core/testing";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { AIMessage, createAgent, tool } from "langchain";
import { z } from "zod";
import { createSkillsMiddleware } from "../dist/langchain.js";

const AGENT_TOOLS = ["search_web", "fetch_page", "read_calendar", "send_email", "run_sql"];
const SKILL_TOOLS = ["list_issues", "create_issue", "label_issue"];

/** The Skill tools table with its notes, as run.mjs prints it. */
export async function skillToolsTable() {
  const root = mkdtempSync(join(tmpdir(), "skillset-bench-tools-"));
  try {
    mkdirSync(join(root, "github"));
    writeFileSync(
      join(root, "github", "SKILL.md"),
      `---\nname: github\ndescription: Works with GitHub issues.\nmetadata:\n  include_tools: ${SKILL_TOOLS.join(" ")}\n---\n\nUse the issue tools.\n`,
    );
    const lists = await toolLists(root);
    const labels = ["before load", "after load_skill", "after unload_skill"];
    const rows = lists.slice(0, 3).map((list, index) => {
      const prefix = index === 0 ? list.length : commonPrefix(lists[index - 1], list);
      return {
        call: labels[index],
        "tools list (bytes)": fmt(list.length),
        "prefix kept from the call before (bytes)": index === 0 ? "n/a" : fmt(prefix),
        share: index === 0 ? "n/a" : `${((prefix / Math.max(list.length, lists[index - 1].length)) * 100).toFixed(1)}%`,
      };
    });
    const always = lists[1].length;
    return {
      title: "Skill tools",
      rows,
      notes: [
        "",
        `${AGENT_TOOLS.length} agent tools, the skills tools (load_skill, unload_skill), and a skill bringing ${SKILL_TOOLS.length} tools; bytes of the JSON the OpenAI API gets as \`tools\`. Skill tools go after every other tool, so a load or unload keeps the whole list before them: the prefix is all of the shorter list but its closing \`]\`. Offering the skill's tools all the time would cost ${fmt(always - lists[0].length)} bytes on every call before the load.`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// The tools JSON of each model call: load, unload, then an answer.
async function toolLists(root) {
  const make = (name) =>
    tool(async () => name, {
      name,
      description: `The ${name} tool: does ${name.replace(/_/g, " ")} for the user.`,
      schema: z.object({ query: z.string().describe("What to act on."), limit: z.number().int().optional() }),
    });
  let model = fakeModel()
    .respondWithTools([{ name: "load_skill", args: { skill_name: "github" }, id: "l1" }])
    .respondWithTools([{ name: "unload_skill", args: { skill_name: "github" }, id: "u1" }])
    .respond(new AIMessage("done"));
  const lists = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools, ...rest) => {
    lists.push(Buffer.from(JSON.stringify(tools.map((entry) => convertToOpenAITool(entry)))));
    return bindTools(tools, ...rest);
  };
  const middleware = createSkillsMiddleware({ sources: [root], skillTools: SKILL_TOOLS.map(make) });
  const agent = createAgent({ model, tools: AGENT_TOOLS.map(make), middleware: [middleware] });
  await agent.invoke({ messages: [{ role: "user", content: "Go" }] });
  return lists;
}

function commonPrefix(left, right) {
  let same = 0;
  while (same < left.length && same < right.length && left[same] === right[same]) same++;
  return same;
}

function fmt(bytes) {
  return bytes.toLocaleString("en-US");
}
