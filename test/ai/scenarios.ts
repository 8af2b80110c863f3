// The behaviour of `skillset/ai`, through the AI SDK's real loop (generateText, streamText,
// ToolLoopAgent) with its own mock model. One suite for every supported major version: the
// AI SDK 6 tests run it under the project's Node 20 (test/ai/ai-sdk-6.int.test.ts), the AI SDK 7
// tests under Node 22 (test/ai-sdk-7/).
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSkills, type SkillStateStore, type SkillsOptions, type StoredSkillState } from "../../src/ai.js";
import { createMemorySource, SkillsetError } from "../../src/index.js";
import { createLocalExecutor } from "../../src/node.js";
import { tempTree } from "../helpers/skill-tree.js";
import { scriptedModel, textOf, type ModelCall, type MockModelClass, type ScriptedStep } from "./scripted-model.js";

/** A model message, as both SDK versions shape it. */
export interface Message {
  role: string;
  content: unknown;
}

/** What a generate or stream result gives the tests. */
interface CallResult {
  text: string | PromiseLike<string>;
  textStream?: AsyncIterable<string>;
  toUIMessageStream?(options?: { onError?: (error: unknown) => string }): ReadableStream<unknown>;
}

/** The `ai` package's functions the suite drives. */
interface AiModule {
  generateText(options: object): Promise<CallResult>;
  streamText(options: object): CallResult;
  ToolLoopAgent: new (settings: object) => {
    generate(options: object): Promise<CallResult>;
    stream(options: object): PromiseLike<CallResult> | CallResult;
  };
  stepCountIs(count: number): unknown;
  readUIMessageStream(options: { stream: ReadableStream<unknown> }): AsyncIterable<UiMessage>;
  convertToModelMessages(messages: unknown[], options?: { tools?: object }): Promise<Message[]>;
}

/** A chat UI's message, as `useChat` keeps it. */
interface UiMessage {
  id: string;
  role: string;
  parts: Array<{ type: string; text?: string; state?: string; errorText?: string }>;
}

/** One AI SDK major version, as the suite drives it. */
export interface AiSdk {
  major: number;
  /** The `ai` package and its `ai/test`. */
  ai: unknown;
  test: unknown;
  /** Every message the call added, all steps (6: `response.messages`, 7: `responseMessages`). */
  responseMessages(result: CallResult): Promise<Message[]>;
}

const BASE = "You are a careful assistant.";

const skillFile = (name: string, description: string, extra = "", body = `Follow the ${name} steps.`) =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;

const REVIEW = skillFile(
  "review-pr",
  "Review a pull request.",
  "argument-hint: '[pr-number] [priority]'\narguments: [pr, priority]\n",
  "Review PR $pr with priority $priority.\nAll: $ARGUMENTS\nFolder: ${CLAUDE_SKILL_DIR}\nSession: ${CLAUDE_SESSION_ID}",
);

const SKILLS: Record<string, string> = {
  "csv/SKILL.md": skillFile(
    "csv",
    "Analyze CSV files.",
    "allowed-tools: sh\n",
    "Use pandas. Run scripts/hello.sh first.",
  ),
  "csv/references/guide.md": "line 1\nline 2\nline 3\n",
  "csv/scripts/hello.sh": 'echo "hello $1"\n',
  "review-pr/SKILL.md": REVIEW,
  "deploy/SKILL.md": skillFile(
    "deploy",
    "Deploy to production.",
    "disable-model-invocation: true\n",
    "Deploy $ARGUMENTS now.",
  ),
  "internal/SKILL.md": skillFile("internal", "Internal steps.", "user-invocable: false\n"),
  "status/SKILL.md": skillFile("status", "Repo status.", "allowed-tools: echo\n", "Status: !`echo all good`\nDone."),
  "a/SKILL.md": skillFile("a", "Skill a."),
  "b/SKILL.md": skillFile("b", "Skill b."),
  "c/SKILL.md": skillFile("c", "Skill c."),
};

/** Registers the suite for one SDK version. */
export function describeSkillsForAiSdk(version: AiSdk): void {
  const sdk = {
    ...(version.ai as AiModule),
    ...(version.test as { MockLanguageModelV3: MockModelClass }),
    major: version.major,
    responseMessages: version.responseMessages,
  };
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(options: Partial<SkillsOptions> = {}, files = SKILLS) {
    const tree = tempTree("skillset-ai-");
    for (const [path, content] of Object.entries(files)) tree.write(path, content);
    const skills = createSkills({ sources: [tree.root], ...options });
    cleanups.push(tree.cleanup, () => skills.close());
    return { root: tree.root, tree, skills };
  }

  const user = (content: string): Message => ({ role: "user", content });
  const load = (
    skill: string,
    id?: string,
    extra: Record<string, unknown> = {},
  ): [string, Record<string, unknown>, string?] => ["load_skill", { skill_name: skill, ...extra }, id];
  const unload = (skill: string, id?: string): [string, Record<string, unknown>, string?] => [
    "unload_skill",
    { skill_name: skill },
    id,
  ];

  /** One generateText turn over `history`; returns the conversation after it and what the model saw. */
  async function turn(
    skills: ReturnType<typeof createSkills> | ReturnType<ReturnType<typeof createSkills>["thread"]>,
    history: Message[],
    steps: ScriptedStep[],
    options: { tools?: object } = {},
  ) {
    const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, steps);
    const messages = (await skills.prepareMessages(history as never)) as Message[];
    const tools = { ...options.tools, ...skills.tools };
    const result = await sdk.generateText({
      model,
      messages,
      tools,
      prepareStep: skills.prepareStep({ instructions: BASE, tools }),
      stopWhen: sdk.stepCountIs(10),
    });
    // What an application keeps: through JSON, as a database would.
    const conversation = JSON.parse(
      JSON.stringify([...messages, ...(await sdk.responseMessages(result))]),
    ) as Message[];
    return { calls, conversation, text: await result.text };
  }

  /** The text of every tool result in `conversation`, by tool call id, and whether it was an error. */
  function toolResults(conversation: Message[]): Map<string, { text: string; error: boolean }> {
    const results = new Map<string, { text: string; error: boolean }>();
    for (const message of conversation) {
      if (message.role !== "tool") continue;
      for (const part of message.content as Array<{ toolCallId: string; output: { type: string; value: unknown } }>) {
        results.set(part.toolCallId, { text: String(part.output.value), error: part.output.type.startsWith("error") });
      }
    }
    return results;
  }

  const lastText = (call: ModelCall) => textOf(call.messages.at(-1));

  describe(`skillset/ai with AI SDK ${sdk.major}`, () => {
    describe("generateText", () => {
      it("adds the catalog after the system prompt, and shows a skill as loaded from the step after its load", async () => {
        const { root, skills } = setup();
        const { calls, conversation, text } = await turn(
          skills,
          [user("Profile data.csv")],
          [[load("csv", "l1")], "Profiled."],
        );
        expect(text).toBe("Profiled.");
        expect(calls[0]!.system.startsWith(`${BASE}\n\n`)).toBe(true);
        expect(calls[0]!.system).toContain("\n- csv: Analyze CSV files.\n");
        expect(calls[0]!.system).not.toContain("- deploy:");
        expect(calls[0]!.system.endsWith("Loaded skills: none (10 slots free).")).toBe(true);
        expect(calls[0]!.tools).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
        const loaded = toolResults(conversation).get("l1")!;
        expect(loaded.error).toBe(false);
        expect(loaded.text).toBe(
          `<skill name="csv" path="${join(root, "csv", "SKILL.md")}">\n---\nname: csv\ndescription: Analyze CSV files.\nallowed-tools: sh\n---\n\nUse pandas. Run scripts/hello.sh first.\n\n</skill>\n` +
            `<skill_resources base="${join(root, "csv")}">\n- [reference] references/guide.md\n- [script] scripts/hello.sh\n</skill_resources>\n` +
            `Paths above are relative to ${join(root, "csv")}; read them with \`read_skill_resource\` when the instructions call for them.\n` +
            "Recommended tools while this skill is active: sh",
        );
        expect(
          calls[1]!.system.endsWith(
            "Loaded skills (1/10, 9 slots free):\n- csv (1 script, 1 reference; recommended tools: sh)",
          ),
        ).toBe(true);
        // The prefix a provider caches is the same before and after the load.
        const catalog = calls[0]!.system.slice(0, calls[0]!.system.lastIndexOf("Loaded skills"));
        expect(calls[1]!.system.startsWith(catalog)).toBe(true);
        expect(await skills.loadedSkills(conversation as never)).toEqual(["csv"]);
      });

      it("keeps the loaded skills of a persisted conversation across turns, with no store", async () => {
        const { skills } = setup();
        const first = await turn(skills, [user("Profile data.csv")], [[load("csv")], "Done."]);
        const history = [...first.conversation, user("And unload it.")];
        const second = await turn(skills, history, [[load("csv", "again")], [unload("csv", "u1")], "Unloaded."]);
        expect(second.calls[0]!.system).toContain("Loaded skills (1/10, 9 slots free):\n- csv (");
        expect(toolResults(second.conversation).get("again")).toEqual({
          text: "Skill 'csv' is already loaded. Its instructions are already active.",
          error: true,
        });
        expect(toolResults(second.conversation).get("u1")!.text).toBe(
          "Skill 'csv' has been unloaded. Currently loaded: 0/10 (10 slot(s) available). Its instructions from the earlier load_skill call are still in the conversation history, but no longer apply.",
        );
        expect(second.calls[2]!.system.endsWith("Loaded skills: none (10 slots free).")).toBe(true);
        expect(await skills.loadedSkills(second.conversation as never)).toEqual([]);
      });

      it("holds the budget across steps and turns", async () => {
        const { skills } = setup({ maxLoadedSkills: 2 });
        const first = await turn(skills, [user("Use a and b.")], [[load("a")], [load("b")], "Both."]);
        const second = await turn(
          skills,
          [...first.conversation, user("Now c.")],
          [[load("c", "c1")], [unload("a")], [load("c", "c2")], "Swapped."],
        );
        expect(toolResults(second.conversation).get("c1")).toEqual({
          text: "Error: Cannot load skill 'c'. Maximum number of simultaneously loaded skills reached (2). Currently loaded: a, b. Use `unload_skill(\"skill-name\")` to unload a skill you no longer need, then retry loading.",
          error: true,
        });
        expect(toolResults(second.conversation).get("c2")!.error).toBe(false);
        expect(await skills.loadedSkills(second.conversation as never)).toEqual(["b", "c"]);
      });

      it("lets parallel calls of one step agree: the budget holds and each refusal says why", async () => {
        const { skills } = setup({ maxLoadedSkills: 2 });
        const { calls, conversation } = await turn(
          skills,
          [user("Everything.")],
          [[load("a", "pa"), load("b", "pb"), load("c", "pc")], [unload("a", "ua"), load("a", "la")], "ok"],
        );
        const results = toolResults(conversation);
        expect([results.get("pa")!.error, results.get("pb")!.error]).toEqual([false, false]);
        expect(results.get("pc")).toEqual({
          text: "Error: Cannot load skill 'c'. Maximum number of simultaneously loaded skills reached (2). Currently loaded: (none). Loads earlier in this step took the remaining slot(s): a, b. Use `unload_skill(\"skill-name\")` to unload a skill you no longer need, then retry loading.",
          error: true,
        });
        expect(calls[1]!.system.endsWith("Loaded skills (2/2, 0 slots free):\n- a\n- b")).toBe(true);
        expect(results.get("ua")!.error).toBe(false);
        expect(results.get("la")).toEqual({
          text: "Error: Skill 'a' is being unloaded by another call in this step; try again in a later step if you still need to.",
          error: true,
        });
        expect(await skills.loadedSkills(conversation as never)).toEqual(["b"]);
      });

      it("refuses unknown and manual-only skills as unknown, and loads model-only ones", async () => {
        const { skills } = setup();
        const { conversation } = await turn(
          skills,
          [user("Go.")],
          [[load("nope", "n1"), load("deploy", "d1"), load("internal", "i1")], "ok"],
        );
        const results = toolResults(conversation);
        expect(results.get("n1")!.text).toBe(
          "Error: Skill 'nope' not found. Available skills: a, b, c, csv, internal, review-pr, status",
        );
        expect(results.get("d1")!.text).toBe(
          "Error: Skill 'deploy' not found. Available skills: a, b, c, csv, internal, review-pr, status",
        );
        expect([results.get("n1")!.error, results.get("d1")!.error, results.get("i1")!.error]).toEqual([
          true,
          true,
          false,
        ]);
        expect(await skills.loadedSkills(conversation as never)).toEqual(["internal"]);
      });

      it("renders arguments the model passes, and the thread id as the session", async () => {
        const { root, skills } = setup();
        const { conversation } = await turn(
          skills.thread("chat-7"),
          [user("Review 42.")],
          [[load("review-pr", "r1", { arguments: '42 "very high"' })], "ok"],
        );
        const text = toolResults(conversation).get("r1")!.text;
        expect(text).toContain(
          `Review PR 42 with priority very high.\nAll: 42 "very high"\nFolder: ${join(root, "review-pr")}\nSession: chat-7\n`,
        );
      });

      it("reads a loaded skill's files and runs its scripts, and refuses both for a skill that is not loaded", async () => {
        const { skills } = setup({ runScripts: { executor: createLocalExecutor({ timeoutMs: 10_000 }) } });
        const read = (
          skill: string,
          path: string,
          id: string,
          extra = {},
        ): [string, Record<string, unknown>, string] => [
          "read_skill_resource",
          { skill_name: skill, path, ...extra },
          id,
        ];
        const run = (skill: string, command: string, id: string): [string, Record<string, unknown>, string] => [
          "run_skill_script",
          { skill_name: skill, command },
          id,
        ];
        const { calls, conversation } = await turn(
          skills,
          [user("Go.")],
          [
            [read("csv", "references/guide.md", "early")],
            [load("csv")],
            [
              read("csv", "references/guide.md", "r1", { offset: 1, limit: 1 }),
              read("csv", "../a/SKILL.md", "r2"),
              run("csv", "sh scripts/hello.sh world", "s1"),
              run("csv", "rm -rf /", "s2"),
            ],
            "ok",
          ],
        );
        expect(calls[0]!.tools).toEqual(["load_skill", "unload_skill", "read_skill_resource", "run_skill_script"]);
        const results = toolResults(conversation);
        expect(results.get("early")).toEqual({
          text: "Error: Skill 'csv' is not loaded. Load it with load_skill first.",
          error: true,
        });
        expect(results.get("r1")).toEqual({
          text: "[references/guide.md: lines 2-2 of 3; next offset 2]\nline 2",
          error: false,
        });
        expect(results.get("r2")!.error).toBe(true);
        expect(results.get("r2")!.text).toMatch(/^Error: Cannot read '\.\.\/a\/SKILL\.md': /);
        expect(results.get("s1")!.error).toBe(false);
        expect(results.get("s1")!.text).toContain("hello world");
        expect(results.get("s2")!.error).toBe(true);
        expect(results.get("s2")!.text).toMatch(/^Error: Command refused: /);
      });

      it("reflects the catalog as it is on disk, turn by turn", async () => {
        const { tree, skills } = setup();
        const first = await turn(skills, [user("Load a.")], [[load("a")], "ok"]);
        tree.write("fresh/SKILL.md", skillFile("fresh", "A new skill."));
        rmSync(join(tree.root, "a"), { recursive: true });
        const second = await turn(skills, [...first.conversation, user("What is there?")], ["Let me see."]);
        expect(second.calls[0]!.system).toContain("\n- fresh: A new skill.\n");
        expect(second.calls[0]!.system).not.toContain("\n- a: ");
        expect(second.calls[0]!.system.endsWith("Loaded skills: none (10 slots free).")).toBe(true);
      });

      it("keeps system messages as they are and adds the skills section as one more", async () => {
        const { skills } = setup();
        const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, ["ok"]);
        const instructions = {
          role: "system" as const,
          content: BASE,
          providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
        };
        await sdk.generateText({
          model,
          messages: [user("Hi")],
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions }),
        });
        expect(calls[0]!.systemMessages).toHaveLength(2);
        expect(calls[0]!.systemMessages[0]).toEqual(instructions);
        expect(calls[0]!.systemMessages[1]!.content).toMatch(
          /^## Skills\n[\s\S]*\nLoaded skills: none \(10 slots free\)\.$/,
        );
      });

      if (sdk.major === 6) {
        it("asks for the system prompt on AI SDK 6, which does not show it to prepareStep", async () => {
          const { skills } = setup();
          const { model } = scriptedModel(sdk.MockLanguageModelV3, ["ok"]);
          await expect(
            sdk.generateText({
              model,
              system: BASE,
              messages: [user("Hi")],
              tools: skills.tools,
              prepareStep: skills.prepareStep(),
            }),
          ).rejects.toThrow("skills.prepareStep(): AI SDK 6 does not show prepareStep the system prompt");
        });
      } else {
        it("keeps the call's own instructions when prepareStep is given none", async () => {
          const { skills } = setup();
          const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, [[load("a")], "ok"]);
          await sdk.generateText({
            model,
            instructions: BASE,
            messages: [user("Hi")],
            tools: skills.tools,
            prepareStep: skills.prepareStep(),
            stopWhen: sdk.stepCountIs(5),
          });
          expect(calls.map((call) => call.system.startsWith(`${BASE}\n\n## Skills\n`))).toEqual([true, true]);
          expect(calls[1]!.system.split("## Skills").length).toBe(2);
          expect(calls[1]!.system.endsWith("- a")).toBe(true);
        });
      }
    });

    describe("search_skills", () => {
      const LIBRARY: Record<string, string> = Object.fromEntries(
        ["csv", "pdf", "docx", "xlsx", "pptx", "png", "svg", "sql", "yaml", "toml"].flatMap((format) =>
          ["convert", "validate", "summarize", "repair", "diff", "merge"].map((verb) => [
            `${verb}-${format}/SKILL.md`,
            skillFile(
              `${verb}-${format}`,
              `${verb[0]!.toUpperCase()}${verb.slice(1)} ${format.toUpperCase()} files: a long description that repeats what the skill does for ${format} files, so the catalog needs room.`,
            ),
          ]),
        ),
      );

      it("is offered while the catalog is over its budget, and finds a skill the catalog no longer shows in full", async () => {
        const { skills } = setup({ catalogBudget: 500 }, LIBRARY);
        const { calls, conversation } = await turn(
          skills,
          [user("Repair my spreadsheet.")],
          [
            [["search_skills", { query: "repair xlsx spreadsheet", limit: 2 }, "s1"]],
            [load("repair-xlsx", "l1")],
            "ok",
          ],
        );
        expect(calls[0]!.tools).toEqual(["load_skill", "unload_skill", "search_skills", "read_skill_resource"]);
        expect(calls[0]!.system).toContain("\n- More skills, by name only (`load_skill` shows what one does): ");
        const found = toolResults(conversation).get("s1")!;
        expect(found.error).toBe(false);
        expect(
          found.text.startsWith(
            "Skills matching 'repair xlsx spreadsheet', best first:\n- repair-xlsx: Repair XLSX files: ",
          ),
        ).toBe(true);
        expect(found.text.split("\n- ")).toHaveLength(3);
        expect(toolResults(conversation).get("l1")!.error).toBe(false);
      });

      it("is left out of the step's tools while the catalog fits, unless asked for always; never with false", async () => {
        const small = setup().skills;
        expect(Object.keys(small.tools)).toContain("search_skills");
        expect((await turn(small, [user("Hi")], ["ok"])).calls[0]!.tools).not.toContain("search_skills");
        const always = setup({ searchSkills: true }).skills;
        expect((await turn(always, [user("Hi")], ["ok"])).calls[0]!.tools).toContain("search_skills");
        const never = setup({ searchSkills: false, catalogBudget: 500 }, LIBRARY).skills;
        expect(Object.keys(never.tools)).toEqual(["load_skill", "unload_skill", "read_skill_resource"]);
        expect((await turn(never, [user("Hi")], ["ok"])).calls[0]!.tools).toEqual([
          "load_skill",
          "unload_skill",
          "read_skill_resource",
        ]);
      });
    });

    describe("tools that come with a skill", () => {
      const GITHUB = {
        "github/SKILL.md": skillFile(
          "github",
          "Work with GitHub issues.",
          "metadata:\n  include_tools: list_issues create_issue\n",
        ),
        "a/SKILL.md": skillFile("a", "Skill a."),
      };
      const listIssues = {
        description: "List the repository's open issues.",
        inputSchema: z.object({}),
        execute: async () => "#1 Crash on start",
      };

      it("offers a skill's tools from the step after its load, last and in order, refuses them before, and withdraws them on unload", async () => {
        const { skills } = setup({ skillTools: { list_issues: listIssues } }, GITHUB);
        const steps: ScriptedStep[] = [
          [["list_issues", {}, "early"]],
          [load("github", "l1")],
          [["list_issues", {}, "ok"]],
          [unload("github", "u1")],
          "done",
        ];
        const { calls, conversation } = await turn(skills, [user("What is open?")], steps);
        const own = ["load_skill", "unload_skill", "read_skill_resource"];
        expect(calls.map((call) => call.tools)).toEqual([
          own,
          own,
          [...own, "list_issues"],
          [...own, "list_issues"],
          own,
        ]);
        const results = toolResults(conversation);
        // Not among the step's active tools: the AI SDK answers it as an unknown tool.
        expect(results.get("early")).toEqual({ text: expect.stringContaining("'list_issues'"), error: true });
        expect(
          results
            .get("l1")!
            .text.endsWith(
              "\n\nTools this skill brings, offered from your next step: list_issues. Not available in this agent (nobody supplies them): create_issue; do the task without them.",
            ),
        ).toBe(true);
        expect(results.get("ok")).toEqual({ text: "#1 Crash on start", error: false });
      });

      it("refuses a call to a skill's tool while its skill is not loaded, also where activeTools are not used", async () => {
        const { skills } = setup({ skillTools: { list_issues: listIssues } }, GITHUB);
        const execute = skills.tools.list_issues!.execute!;
        await expect(execute({}, { toolCallId: "x", messages: [] })).rejects.toThrow(
          "Error: list_issues is not a valid tool here. Call only the tools you were given in this step; a skill's tools are offered from the step after the skill is loaded.",
        );
      });

      it("refuses skillTools that would replace skillset's own tools", () => {
        expect(() => setup({ skillTools: { load_skill: listIssues } }, GITHUB)).toThrow(
          "createSkills: skillTools may not replace skillset's own tools: load_skill",
        );
      });
    });

    describe("code mode (run_code)", () => {
      const PRICING = {
        "pricing/SKILL.md": skillFile("pricing", "Prices orders.", "metadata:\n  entrypoint: lib/pricing.ts\n"),
        "pricing/lib/pricing.ts":
          "/** Totals quantities times prices. */\nexport const total = (lines: { sku: string; quantity: number }[], prices: Record<string, number>): number =>\n  lines.reduce((sum, line) => sum + line.quantity * prices[line.sku]!, 0);\n",
      };
      const lookupPrice = {
        description: "The price of a SKU.",
        inputSchema: z.object({ sku: z.string() }),
        execute: async ({ sku }: { sku: string }) => ({ sku, price: sku === "apple" ? 2 : 3 }),
      };
      const CODE = `import { total } from "@/skills/pricing";
const prices = {};
for (const sku of ["apple", "pear"]) prices[sku] = (await tools.lookupPrice({ sku })).price;
return total([{ sku: "apple", quantity: 3 }, { sku: "pear", quantity: 2 }], prices);`;

      it("run_code imports the loaded skill's module and calls the app's code tools; the prompt lists the module", async () => {
        const { skills } = setup({ codeMode: { tools: { lookup_price: lookupPrice } } }, PRICING);
        const thread = skills.thread("code-thread");
        const steps: ScriptedStep[] = [
          [["run_code", { code: CODE }, "early"]],
          [load("pricing", "l1")],
          [["run_code", { code: CODE }, "c1"]],
          [["run_code", { code: "return await tools.lookupPrice({ sku: 7 });" }, "bad"]],
          "done",
        ];
        const { calls, conversation } = await turn(thread, [user("Price the order")], steps);
        const results = toolResults(conversation);
        expect(results.get("early")).toEqual({
          text: "Error: an import failed. Cannot import \"@/skills/pricing\": skill 'pricing' is not loaded; load it with load_skill, then run the code again. No loaded skill has a module you can import.",
          error: true,
        });
        expect(results.get("c1")).toEqual({ text: "Result:\n12", error: false });
        expect(results.get("bad")!.text).toMatch(
          /^Error: the code threw an error it did not catch: Error: invalid input: [^]*expected string/,
        );
        expect(calls[0]!.tools).toContain("run_code");
        expect(calls[2]!.system).toContain(
          "- @/skills/pricing (lib/pricing.ts):\n  - total(lines: { sku: string; quantity: number }[], prices: Record<string, number>): number — Totals quantities times prices.",
        );
      });

      it("without codeMode there is no run_code; a code tool cannot replace skillset's own", () => {
        expect(Object.keys(setup({}, PRICING).skills.tools)).not.toContain("run_code");
        expect(() => setup({ skillTools: { run_code: lookupPrice } }, PRICING)).toThrow(
          "createSkills: skillTools may not replace skillset's own tools: run_code",
        );
      });
    });

    describe("streamText and ToolLoopAgent", () => {
      it("streamText streams the answer, and the loop loads between steps", async () => {
        const { skills } = setup();
        const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, [[load("csv", "s1")], "Streamed."]);
        const result = sdk.streamText({
          model,
          messages: [user("Go.")],
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions: BASE }),
          stopWhen: sdk.stepCountIs(5),
        });
        const chunks: string[] = [];
        for await (const chunk of result.textStream!) chunks.push(chunk);
        expect(chunks).toEqual(["St", "reamed."]);
        expect(calls[1]!.system).toContain("Loaded skills (1/10, 9 slots free):\n- csv (");
        expect(toolResults(await sdk.responseMessages(result)).get("s1")!.error).toBe(false);
      });

      it("streamText lets parallel calls agree too", async () => {
        const { skills } = setup({ maxLoadedSkills: 1 });
        const { model } = scriptedModel(sdk.MockLanguageModelV3, [[load("a", "x1"), load("b", "x2")], "ok"]);
        const result = sdk.streamText({
          model,
          messages: [user("Go.")],
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions: BASE }),
          stopWhen: sdk.stepCountIs(5),
        });
        const conversation = await sdk.responseMessages(result);
        expect([toolResults(conversation).get("x1")!.error, toolResults(conversation).get("x2")!.error]).toEqual([
          false,
          true,
        ]);
        expect(await skills.loadedSkills(conversation as never)).toEqual(["a"]);
      });

      it("carries the loaded skills through a chat UI's messages (UIMessage), as useChat keeps them", async () => {
        const { skills } = setup();
        const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, [
          [load("csv"), load("nope")],
          "Loaded.",
          "Next.",
        ]);
        const ask: UiMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Profile data.csv" }] };
        const result = sdk.streamText({
          model,
          messages: await sdk.convertToModelMessages([ask]),
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions: BASE }),
          stopWhen: sdk.stepCountIs(5),
        });
        let answer: UiMessage | undefined;
        // A UI stream hides error texts unless told otherwise; refusals are safe to show, and the
        // model reads them again from the history.
        const stream = result.toUIMessageStream!({
          onError: (error) => (SkillsetError.isInstance(error) ? error.message : "An error occurred."),
        });
        for await (const message of sdk.readUIMessageStream({ stream })) answer = message;
        const toolParts = answer!.parts.filter((part) => part.type.startsWith("tool-"));
        expect(toolParts.map((part) => [part.type, part.state])).toEqual([
          ["tool-load_skill", "output-available"],
          ["tool-load_skill", "output-error"],
        ]);
        expect(toolParts[1]!.errorText).toMatch(/^Error: Skill 'nope' not found\./);
        const history = JSON.parse(
          JSON.stringify([ask, answer, { id: "u2", role: "user", parts: [{ type: "text", text: "Go on." }] }]),
        ) as UiMessage[];
        const messages = await sdk.convertToModelMessages(history, { tools: skills.tools });
        expect(await skills.loadedSkills(messages as never)).toEqual(["csv"]);
        await sdk.generateText({
          model,
          messages,
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions: BASE }),
        });
        expect(calls.at(-1)!.system).toContain("Loaded skills (1/10, 9 slots free):\n- csv (");
      });

      it("ToolLoopAgent generates and streams with the skills, turn after turn", async () => {
        const { skills } = setup();
        const { model, calls } = scriptedModel(sdk.MockLanguageModelV3, [
          [load("csv")],
          "First.",
          [load("a")],
          "Second.",
        ]);
        const agent = new sdk.ToolLoopAgent({
          model,
          instructions: BASE,
          tools: skills.tools,
          prepareStep: skills.prepareStep({ instructions: BASE }),
          stopWhen: sdk.stepCountIs(5),
        });
        const input = [user("One.")];
        const first = await agent.generate({ messages: input });
        expect(await first.text).toBe("First.");
        const history = [...input, ...(await sdk.responseMessages(first)), user("Two.")];
        const second = await agent.stream({ messages: history });
        expect(await second.text).toBe("Second.");
        expect(
          calls[3]!.system.endsWith(
            "Loaded skills (2/10, 8 slots free):\n- csv (1 script, 1 reference; recommended tools: sh)\n- a",
          ),
        ).toBe(true);
      });
    });

    describe("/name args in the user's message", () => {
      it("gives the model the rendered skill in place of the command, and counts the skill as loaded from then on", async () => {
        const { root, skills } = setup();
        const thread = skills.thread("t-42");
        const first = await turn(thread, [user('/review-pr 42 "very high" extra')], ["Reviewing."]);
        const expected =
          `<skill name="review-pr" path="${join(root, "review-pr", "SKILL.md")}">\n` +
          "---\nname: review-pr\ndescription: Review a pull request.\nargument-hint: '[pr-number] [priority]'\narguments: [pr, priority]\n---\n\n" +
          `Review PR 42 with priority very high.\nAll: 42 "very high" extra\nFolder: ${join(root, "review-pr")}\nSession: t-42\n\n</skill>\n` +
          'The user invoked this skill: /review-pr 42 "very high" extra\nFollow its instructions now.';
        expect(lastText(first.calls[0]!)).toBe(expected);
        expect(first.conversation[0]).toEqual({ role: "user", content: expected });
        expect(first.calls[0]!.system.endsWith("Loaded skills (1/10, 9 slots free):\n- review-pr")).toBe(true);
        const second = await turn(thread, [...first.conversation, user("Thanks.")], ["ok"]);
        expect(second.calls[0]!.system.endsWith("Loaded skills (1/10, 9 slots free):\n- review-pr")).toBe(true);
        expect(textOf(second.calls[0]!.messages[0])).toBe(expected);
      });

      it("replaces the first text part of a message with parts, and keeps the others", async () => {
        const { skills } = setup();
        const image = { type: "image", image: "aGVsbG8=", mediaType: "image/png" };
        const [message] = (await skills.prepareMessages([
          { role: "user", content: [{ type: "text", text: "/deploy staging" }, image] },
        ] as never)) as Message[];
        const parts = message!.content as Array<{ type: string; text?: string }>;
        expect(parts[0]!.text).toContain("Deploy staging now.");
        expect(parts[1]).toEqual(image);
      });

      it("passes through what is not a command for a skill the user may invoke", async () => {
        const { skills } = setup();
        for (const input of [
          "/etc/hosts is broken",
          "/unknown 1 2",
          "/internal now",
          "/review-pr/x",
          "please /review-pr 1",
          "/",
        ]) {
          const history = [user(input)];
          expect(await skills.prepareMessages(history as never)).toEqual(history);
        }
        // Only the user's latest messages: a command earlier in the conversation is history.
        const earlier = [user("/deploy staging"), { role: "assistant", content: "Deployed." }, user("ok")];
        expect(await skills.prepareMessages(earlier as never)).toEqual(earlier);
      });

      it("invokes a skill only the user may invoke, which the model's catalog does not show", async () => {
        const { skills } = setup();
        const { calls, conversation } = await turn(skills, [user("/deploy staging")], ["Deploying."]);
        expect(lastText(calls[0]!)).toContain("Deploy staging now.");
        expect(calls[0]!.system).not.toContain("- deploy:");
        expect(await skills.loadedSkills(conversation as never)).toEqual(["deploy"]);
      });

      it("frees the least recently loaded slot when every slot is taken, and tells the model", async () => {
        const { skills } = setup({ maxLoadedSkills: 2 });
        const first = await turn(skills, [user("a and b")], [[load("a")], [load("b")], "ok"]);
        const second = await turn(skills, [...first.conversation, user("/review-pr 1 low")], ["ok"]);
        expect(lastText(second.calls[0]!)).toMatch(
          /\nThe user invoked this skill: \/review-pr 1 low\nFollow its instructions now\.\n\(Skill 'a' was unloaded to make room: at most 2 skills can be loaded at once\.\)$/,
        );
        expect(await skills.loadedSkills(second.conversation as never)).toEqual(["b", "review-pr"]);
      });

      it("keeps the user's text and says why when the skill cannot be read", async () => {
        const memory = createMemorySource({ files: { "/skills/broken/SKILL.md": skillFile("broken", "Broken.") } });
        const skills = createSkills({
          sources: [{ ...memory, readSkill: async () => Promise.reject(new Error("disk on fire")) }],
        });
        const [message] = (await skills.prepareMessages([user("/broken now")] as never)) as Message[];
        expect(message!.content).toBe(
          "/broken now\n\n[skillset: /broken could not be invoked. Error: Failed to read skill file at /skills/broken/SKILL.md: disk on fire]",
        );
        expect(await skills.loadedSkills([message] as never)).toEqual([]);
      });

      it("runs dynamic context only with an executor, on invocation and on load", async () => {
        const off = setup().skills;
        const [quiet] = (await off.prepareMessages([user("/status")] as never)) as Message[];
        expect(quiet!.content).toMatch(/Status: \[[^\]]*`echo all good`[^\]]*off[^\]]*\]\nDone\./);
        const { tree, skills } = setup({ dynamicContext: { executor: createLocalExecutor({ timeoutMs: 10_000 }) } });
        const [ran] = (await skills.prepareMessages([user("/status")] as never)) as Message[];
        expect(ran!.content).toContain("Status: all good\nDone.");
        const { conversation } = await turn(skills, [user("Status?")], [[load("status", "st")], "ok"]);
        expect(toolResults(conversation).get("st")!.text).toContain("Status: all good\nDone.");
        tree.write("sneaky/SKILL.md", skillFile("sneaky", "Sneaky.", "allowed-tools: echo\n", "Here: !`touch pwned`"));
        const [refused] = (await skills.prepareMessages([user("/sneaky")] as never)) as Message[];
        expect(refused!.content).toMatch(/Here: \[[^\]]*`touch pwned`[^\]]*not allowed[^\]]*\]/);
        expect(existsSync(join(tree.root, "sneaky", "pwned"))).toBe(false);
      });

      it("lists the skills a user may invoke, for a / menu", async () => {
        const { skills } = setup();
        expect((await skills.invocableSkills()).map((skill) => skill.name)).toEqual([
          "a",
          "b",
          "c",
          "csv",
          "deploy",
          "review-pr",
          "status",
        ]);
        expect((await skills.invocableSkills()).find((skill) => skill.name === "review-pr")).toEqual({
          name: "review-pr",
          description: "Review a pull request.",
          argumentHint: "[pr-number] [priority]",
        });
      });
    });

    describe("a store instead of the messages", () => {
      it("keeps a thread's skills in the store, and re-attaches their instructions when the messages no longer hold them", async () => {
        const store = new Map<string, StoredSkillState>();
        const { skills } = setup({ store });
        const thread = skills.thread("t1");
        await turn(thread, [user("Load csv.")], [[load("csv")], "ok"]);
        expect(store.get("t1")!.loaded).toEqual(["csv"]);
        expect(store.get("t1")!.resources.csv!.map((resource) => resource.relativePath)).toEqual([
          "references/guide.md",
          "scripts/hello.sh",
        ]);
        // The application kept only the new message: the store still knows, and the model still gets the instructions.
        const { calls } = await turn(thread, [user("Go on.")], ["ok"]);
        expect(calls[0]!.system).toContain(
          "Loaded skills (1/10, 9 slots free):\n- csv (1 script, 1 reference; recommended tools: sh)",
        );
        expect(calls[0]!.system).toContain(
          'Instructions of loaded skills whose load_skill results are no longer in the conversation (they are still loaded; follow them):\n<skill name="csv"',
        );
        expect(await skills.thread("t2").loadedSkills()).toEqual([]);
      });

      it("writes parallel calls of one step one after another, so none is lost", async () => {
        const writes: string[][] = [];
        const map = new Map<string, StoredSkillState>();
        const store: SkillStateStore = {
          get: async (id) => map.get(id),
          set: async (id, state) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            writes.push(state.loaded);
            map.set(id, state);
          },
        };
        const { skills } = setup({ store, maxLoadedSkills: 2 });
        await turn(skills.thread("p"), [user("Go.")], [[load("a"), load("b"), load("c")], "ok"]);
        expect(writes).toEqual([["a"], ["a", "b"]]);
        expect(map.get("p")!.loaded).toEqual(["a", "b"]);
      });

      it("records a user's invocation in the store", async () => {
        const store = new Map<string, StoredSkillState>();
        const { skills } = setup({ store });
        await skills.thread("inv").prepareMessages([user("/review-pr 7")] as never);
        expect(store.get("inv")!.loaded).toEqual(["review-pr"]);
      });

      it("needs a thread id", async () => {
        const { skills } = setup({ store: new Map() });
        await expect(skills.loadedSkills()).rejects.toThrow(
          "createSkills: a store keeps loaded skills by thread; use skills.thread(threadId)",
        );
      });
    });

    it("agrees with itself on any step of parallel loads and unloads: the budget holds, and what the results say is what the next step shows", async () => {
      const { skills } = setup({ maxLoadedSkills: 2 });
      const names = ["a", "b", "c"];
      const call = fc.tuple(fc.constantFrom("load_skill", "unload_skill"), fc.constantFrom(...names));
      await fc.assert(
        fc.asyncProperty(
          fc.array(call, { maxLength: 3 }),
          fc.array(call, { minLength: 1, maxLength: 5 }),
          async (before, step) => {
            const steps: ScriptedStep[] = [
              ...before.map(([name, skill]) => [[name, { skill_name: skill }]] as ScriptedStep),
              step.map(([name, skill], index) => [name, { skill_name: skill }, `p${index}`]),
              "ok",
            ];
            const { calls, conversation } = await turn(skills, [user("Go.")], steps);
            const loaded = await skills.loadedSkills(conversation as never);
            expect(loaded.length).toBeLessThanOrEqual(2);
            const shown = loaded.length === 0 ? "Loaded skills: none (2 slots free)." : `- ${loaded.join("\n- ")}`;
            expect(calls.at(-1)!.system.endsWith(shown)).toBe(true);
            // Every load the results report as done is loaded, unless a later call unloaded it.
            const results = toolResults(conversation);
            const done = step
              .filter(([name], index) => name === "load_skill" && !results.get(`p${index}`)!.error)
              .map(([, skill]) => skill);
            for (const skill of done) expect(loaded).toContain(skill);
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
