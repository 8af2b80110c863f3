// The text protocol with LangChain: createChatModelComplete over a chat model, and
// createSkillsMiddleware({ protocol: "text" }) in the real createAgent loop with a model that
// is bound without tools.
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, createAgent, HumanMessage, tool, type BaseMessage } from "langchain";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMemorySource } from "../index.js";
import { createChatModelComplete, createSkillsMiddleware } from "../langchain.js";
import { createLocalExecutor, createLocalSkillRunner } from "../node.js";

const SKILLS = fileURLToPath(new URL("../../test/text-protocol/fixtures/skills", import.meta.url));

const textOf = (message: BaseMessage) => message.text;

/** A fake chat model that records the tools each binding got. */
function recordingModel(replies: Array<string | ((messages: BaseMessage[]) => string)>) {
  let model = fakeModel();
  for (const reply of replies)
    model = model.respond(
      typeof reply === "string" ? new AIMessage(reply) : (messages: BaseMessage[]) => new AIMessage(reply(messages)),
    );
  const bound: unknown[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools, ...rest) => {
    bound.push(tools);
    return bindTools(tools, ...rest);
  };
  return { model, bound };
}

describe("createChatModelComplete", () => {
  it("sends the conversation as system, human and AI messages and returns the reply's text", async () => {
    const model = fakeModel().respond(
      new AIMessage({ content: [{ type: "text", text: "<use_skill>pdf-processing</use_skill>" }] }),
    );
    const controller = new AbortController();
    const reply = await createChatModelComplete(model)(
      [
        { role: "system", content: "S" },
        { role: "user", content: "U" },
        { role: "assistant", content: "A" },
        { role: "user", content: "R" },
      ],
      { signal: controller.signal },
    );
    expect(reply).toBe("<use_skill>pdf-processing</use_skill>");
    expect(model.calls[0]!.messages.map((message) => [message.type, textOf(message)])).toEqual([
      ["system", "S"],
      ["human", "U"],
      ["ai", "A"],
      ["human", "R"],
    ]);
    expect(model.calls[0]!.options.signal).toBe(controller.signal);
  });

  it("drives createLocalSkillRunner with a LangChain chat model", async () => {
    const model = fakeModel()
      .respond(
        new AIMessage(
          '<use_skill>pdf-processing</use_skill>\n<execute_script skill="pdf-processing">scripts/extract.sh assets/report.pdf</execute_script>',
        ),
      )
      .respond(
        (messages: BaseMessage[]) => new AIMessage(`Page 2 says: ${/Page 2: (.*)/.exec(textOf(messages.at(-1)!))![1]}`),
      );
    const runner = createLocalSkillRunner({
      sources: [SKILLS],
      complete: createChatModelComplete(model),
      executor: createLocalExecutor({ timeoutMs: 20_000 }),
    });
    const result = await runner.run("What is on page 2 of assets/report.pdf?");
    runner.close();
    expect(result.text).toBe("Page 2 says: Revenue grew 12% over Q2");
  });
});

describe('createSkillsMiddleware({ protocol: "text" }) in createAgent', () => {
  it("binds no skill tools, shows <available_skills>, and runs the reply's instructions between model calls", async () => {
    const { model, bound } = recordingModel([
      "Let me load the skill first.\n<use_skill>pdf-processing</use_skill>",
      "<execute_script skill='pdf-processing'>scripts/extract.sh assets/report.pdf</execute_script>",
      (messages) => `The report: ${/Page 1: (.*)/.exec(textOf(messages.at(-1)!))![1]}.`,
    ]);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        createSkillsMiddleware({
          sources: [SKILLS],
          protocol: "text",
          runScripts: { executor: createLocalExecutor({ timeoutMs: 20_000 }) },
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Summarise assets/report.pdf")] });

    expect(bound.every((tools) => tools.length === 0)).toBe(true);
    expect(model.calls).toHaveLength(3);
    const system = textOf(model.calls[0]!.messages[0]!);
    // Without a system prompt of the agent's own, the skills section starts the message.
    expect(system).not.toMatch(/^\s/);
    expect(system).toContain("<available_skills>\n<skill>\n<name>\npdf-processing\n</name>");
    expect(system).toContain('<execute_script skill="skill-name">');
    expect(system).not.toMatch(/\bload_skill\b/);
    expect(result.messages.map((message) => message.type)).toEqual(["human", "ai", "human", "ai", "human", "ai"]);
    const results = result.messages[2]!;
    expect(results.additional_kwargs).toEqual({ skillset_results: true });
    expect(textOf(results)).toMatch(
      /^<skill_content name="pdf-processing">\n<skill name="pdf-processing"[\s\S]*read them with `read_resource` when the instructions call for them\.\nRecommended tools while this skill is active: scripts\/\*\.sh\n<\/skill_content>$/,
    );
    expect(textOf(result.messages[4]!)).toMatch(
      /^<script_result skill="pdf-processing" exit_code="0">\n\$ scripts\/extract\.sh assets\/report\.pdf\n/,
    );
    expect(textOf(result.messages.at(-1)!)).toBe("The report: Quarterly report, Q3.");
    expect(result.skillsLoaded).toEqual(["pdf-processing"]);
  });

  it("keeps loaded skills in the thread: the next turn runs the script without loading again", async () => {
    const { model } = recordingModel([
      "<use_skill>pdf-processing</use_skill>",
      "Ready.",
      '<read_resource skill="pdf-processing">assets/config.json</read_resource>',
      "All pages.",
    ]);
    const agent = createAgent({
      model,
      tools: [],
      checkpointer: new MemorySaver(),
      middleware: [createSkillsMiddleware({ sources: [SKILLS], protocol: "text" })],
    });
    const config = { configurable: { thread_id: "text-1" } };
    await agent.invoke({ messages: [new HumanMessage("Get ready for PDFs.")] }, config);
    const second = await agent.invoke({ messages: [new HumanMessage("Which pages are extracted?")] }, config);
    expect(textOf(second.messages.at(-2)!)).toBe(
      '<resource_content skill="pdf-processing" path="assets/config.json">\n[assets/config.json: lines 1-1 of 1]\n{ "pages": "all", "layout": "reading-order" }\n</resource_content>',
    );
    expect(second.skillsLoaded).toEqual(["pdf-processing"]);
  });

  it("stops after 10 model calls in one invocation, the last told to answer", async () => {
    const { model } = recordingModel(Array.from({ length: 12 }, () => "<use_skill>summarizer</use_skill>"));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [SKILLS], protocol: "text" })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Loop forever.")] });
    expect(model.calls).toHaveLength(10);
    expect(
      textOf(model.calls[9]!.messages.at(-1)!).endsWith(
        "(No more instructions can run in this turn: answer the user now with what you have.)",
      ),
    ).toBe(true);
    expect(result.messages.at(-1)!.type).toBe("ai");
  });

  it("over the catalog budget (5,000 by default), offers <search_skills> and runs it between model calls", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 300; index++) {
      const name = `ledger-task-${String(index).padStart(3, "0")}`;
      files[`/skills/${name}/SKILL.md`] =
        `---\nname: ${name}\ndescription: Reconcile ledger ${index} against the bank statements and flag the entries that do not match.\n---\nSteps.\n`;
    }
    files["/skills/weather-station-logs/SKILL.md"] =
      "---\nname: weather-station-logs\ndescription: Parse the raw logs of a weather station and chart rain over time.\n---\nRead the log, then chart it.\n";
    const { model } = recordingModel([
      "<search_skills>weather station rain</search_skills>",
      "<use_skill>weather-station-logs</use_skill>",
      "Charted.",
    ]);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ sources: [createMemorySource({ files })], protocol: "text" })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Chart the rain in station.log")] });
    const system = textOf(model.calls[0]!.messages[0]!);
    expect(system).toMatch(
      /<more_skills count="\d+">\d+ more skills are not listed here\. Find them with search_skills\.<\/more_skills>\n<\/available_skills>/,
    );
    expect(system).not.toContain("weather-station-logs");
    expect(system).toContain("<search_skills>words about the task</search_skills>");
    expect(textOf(result.messages[2]!)).toMatch(
      /^<search_results query="weather station rain">\nSkills matching 'weather station rain', best first:\n- weather-station-logs: Parse the raw logs/,
    );
    expect(textOf(result.messages[4]!)).toMatch(/^<skill_content name="weather-station-logs">/);
    expect(result.skillsLoaded).toEqual(["weather-station-logs"]);
  });

  it("leaves a reply that calls the agent's own tools to the tools: its text instructions do not run", async () => {
    const echo = tool(async ({ text }: { text: string }) => `echo: ${text}`, {
      name: "echo",
      description: "Echo.",
      schema: z.object({ text: z.string() }),
    });
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: "<use_skill>summarizer</use_skill>",
          tool_calls: [{ name: "echo", args: { text: "hi" }, id: "call-1" }],
        }),
      )
      .respond(new AIMessage("Done."));
    const agent = createAgent({
      model,
      tools: [echo],
      middleware: [createSkillsMiddleware({ sources: [SKILLS], protocol: "text" })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Echo hi.")] });
    expect(result.messages.map((message) => message.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(result.skillsLoaded).toEqual([]);
  });
});
