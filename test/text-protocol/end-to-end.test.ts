// The seed's AgentSkillsEndToEndTest scenarios, over real skill folders and real processes: the
// runner from `skillset/node` with the local executor, driven by a scripted model that replays
// replies as real models write them (chatter, code fences, wrong quotes, tags split over lines,
// instructions only talked about).
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { renderTextProtocolPrompt } from "../../src/host.js";
import type { SkillRunner, TextMessage } from "../../src/index.js";
import { createLocalExecutor, createLocalSource, createLocalSkillRunner } from "../../src/node.js";
import { lastUserMessage, scriptedComplete, type ScriptedReply } from "./helpers.js";

const SKILLS = fileURLToPath(new URL("./fixtures/skills", import.meta.url));
const PDF = `${SKILLS}/pdf-processing`;

const runners: SkillRunner[] = [];
afterEach(() => runners.splice(0).forEach((runner) => runner.close()));

function setup(replies: ScriptedReply[]) {
  const scripted = scriptedComplete(replies);
  const runner = createLocalSkillRunner({
    sources: [SKILLS],
    complete: scripted.complete,
    executor: createLocalExecutor({ timeoutMs: 20_000 }),
  });
  runners.push(runner);
  return { runner, calls: scripted.calls };
}

/** The text between `<tag …>` and `</tag>` of the first such result in `text`. */
function resultBody(text: string, tag: string): string {
  const match = new RegExp(`<${tag}[^>]*>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text);
  if (!match) throw new Error(`no <${tag}> in: ${text.slice(0, 300)}`);
  return match[1]!;
}

describe("text protocol end to end (real folders, real processes)", () => {
  it("discovery: the model sees every skill in <available_skills> and answers from it", async () => {
    const { runner, calls } = setup([
      (messages) => {
        const system = messages[0]!.content;
        const names = [...system.matchAll(/<name>\n([^\n]+)\n<\/name>/g)].map((match) => match[1]);
        return `I can use these skills: ${names.join(" and ")}.`;
      },
    ]);
    const result = await runner.run("Which skills can you use?");
    expect(result.text).toBe("I can use these skills: pdf-processing and summarizer.");
    expect(calls).toHaveLength(1);
  });

  it("the system prompt: the catalog with each skill's location, then the instructions", async () => {
    const { runner, calls } = setup(["Hello!"]);
    await runner.run("Hi");
    const { skills } = await createLocalSource({ path: SKILLS, watch: false }).scan();
    expect(calls[0]![0]).toEqual({
      role: "system",
      content: (await renderTextProtocolPrompt(skills, { scripts: true })).text,
    });
    expect(calls[0]![0]!.content).toContain(`<location>\n${PDF}/SKILL.md\n</location>`);
  });

  it("loading: an instruction in a code fence, between chatter, loads the skill", async () => {
    const { runner, calls } = setup([
      "Sure — to read the PDF I first need the skill's instructions.\n\n```xml\n<use_skill>pdf-processing</use_skill>\n```\n\nOne moment!",
      "The skill says to run scripts/extract.sh on the file.",
    ]);
    const result = await runner.run("What does assets/report.pdf say?");
    const body = resultBody(lastUserMessage(calls[1]!), "skill_content");
    expect(body).toContain("Run `scripts/extract.sh <file.pdf>` to extract the text");
    expect(body).toContain("- [script] scripts/extract.sh");
    expect(result.trace.loaded).toEqual(["pdf-processing"]);
  });

  it("a script: wrong quotes and a tag split over lines still run the real script", async () => {
    const { runner, calls } = setup([
      "<use_skill>pdf-processing</use_skill>",
      "Now the extraction:\n<execute_script\n   skill=“pdf-processing”>\n  scripts/extract.sh assets/report.pdf\n</execute_script>",
      (messages) => `The report says: ${/Page 2: (.*)/.exec(lastUserMessage(messages))![1]}.`,
    ]);
    const result = await runner.run("What does assets/report.pdf say?");
    const script = lastUserMessage(calls[2]!);
    expect(script).toMatch(
      /^<script_result skill="pdf-processing" exit_code="0">\n\$ scripts\/extract\.sh assets\/report\.pdf\n\(exited with code 0 after \d+ ms\)\n--- stdout ---\nPage 1: Quarterly report, Q3\nPage 2: Revenue grew 12% over Q2\n--- stderr ---\nextract\.sh: 2 pages\n<\/script_result>$/,
    );
    expect(result.text).toBe("The report says: Revenue grew 12% over Q2.");
  });

  it("a script that fails: the exit code and stderr come back, and the model can say so", async () => {
    const { runner, calls } = setup([
      "<use_skill>pdf-processing</use_skill>\n<execute_script skill='pdf-processing'>scripts/extract.sh missing.pdf</execute_script>",
      "The file missing.pdf does not exist.",
    ]);
    await runner.run("Read missing.pdf");
    expect(resultBody(lastUserMessage(calls[1]!), "script_result")).toMatch(
      /^\$ scripts\/extract\.sh missing\.pdf\n\(exited with code 2 after \d+ ms\)\n--- stderr ---\nextract\.sh: no such file: missing\.pdf$/,
    );
    expect(lastUserMessage(calls[1]!)).toContain('<script_result skill="pdf-processing" exit_code="2">');
  });

  it("a resource: the file's real content, with the page header", async () => {
    const { runner, calls } = setup([
      "<use_skill>pdf-processing</use_skill>",
      'Let me check the options. <read_resource skill="pdf-processing">assets/config.json</read_resource>',
      "It extracts all pages in reading order.",
    ]);
    await runner.run("How is the text extracted?");
    expect(lastUserMessage(calls[2]!)).toBe(
      '<resource_content skill="pdf-processing" path="assets/config.json">\n[assets/config.json: lines 1-1 of 1]\n{ "pages": "all", "layout": "reading-order" }\n</resource_content>',
    );
  });

  it("several operations in one turn: load, read and run in one reply, answered in one message, in order", async () => {
    const { runner, calls } = setup([
      [
        "Let me do everything at once:",
        "1. <use_skill>pdf-processing</use_skill>",
        "2. <read_resource skill='pdf-processing'>assets/config.json</read_resource>",
        "3. <execute_script skill=pdf-processing>scripts/extract.sh assets/report.pdf</execute_script>",
        "I'll summarise once the results are in.",
      ].join("\n"),
      "Q3 report: revenue grew 12% over Q2 (all pages, reading order).",
    ]);
    const result = await runner.run("Summarise assets/report.pdf and say how it was extracted.");
    const openings = lastUserMessage(calls[1]!).match(/^<(skill_content|resource_content|script_result)[^>\n]*>/gm);
    expect(openings).toEqual([
      '<skill_content name="pdf-processing">',
      '<resource_content skill="pdf-processing" path="assets/config.json">',
      '<script_result skill="pdf-processing" exit_code="0">',
    ]);
    expect(result.trace.steps).toHaveLength(2);
  });

  it("a missing skill: the error names the skills there are, and the model recovers", async () => {
    const { runner, calls } = setup([
      "<use_skill>pdf-extractor</use_skill>",
      "Wrong name, sorry: <use_skill>pdf-processing</use_skill>",
      "Loaded; I will extract it next.",
    ]);
    const result = await runner.run("Extract report.pdf");
    expect(lastUserMessage(calls[1]!)).toBe(
      "<skill_error name=\"pdf-extractor\">Skill 'pdf-extractor' not found. Available skills: pdf-processing, summarizer</skill_error>",
    );
    expect(result.trace.loaded).toEqual(["pdf-processing"]);
  });

  it("an instruction the model only talks about does not run", async () => {
    const { runner } = setup([
      'I could run `<execute_script skill="pdf-processing">scripts/extract.sh assets/report.pdf</execute_script>` again, but the text is already above: revenue grew 12%.',
    ]);
    const result = await runner.run("And the revenue?");
    expect(result.trace.steps[0]).toMatchObject({ mentioned: 1, outcomes: [] });
    expect(result.text).toContain("revenue grew 12%");
  });

  it("a conversation: the next turn keeps the loaded skill and runs its script without loading it again", async () => {
    const first = setup(["<use_skill>pdf-processing</use_skill>", "Ready."]);
    const turn1 = await first.runner.run("Get ready to read PDFs.");
    const second = setup([
      '<execute_script skill="pdf-processing">scripts/extract.sh assets/report.pdf</execute_script>',
      "Done.",
    ]);
    const history: TextMessage[] = [...turn1.messages, { role: "user", content: "Read assets/report.pdf" }];
    const turn2 = await second.runner.run(history);
    expect(turn2.trace.steps[0]!.outcomes[0]!.result).toContain("Page 1: Quarterly report, Q3");
    expect(second.calls[0]!.slice(1)).toEqual(history);
  });
});
