import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import type { SkillsLogEntry } from "../skill-events.js";
import {
  lastUserMessage,
  recordingExecutor,
  scriptedComplete,
  type ScriptedReply,
} from "../../../test/text-protocol/helpers.js";
import { createSkillRunner, type SkillRunnerOptions } from "./skill-runner.js";
import { renderTextProtocolPrompt } from "./text-protocol-prompt.js";

// The runner on its own, over a memory source: the seed's AgentSkillsServiceTest list and the
// runner's own rules. End-to-end scenarios over real folders and processes are in test/text-protocol.

const PDF_SKILL = `---
name: pdf-processing
description: Extract text and tables from PDF documents. Use when the user gives a PDF.
allowed-tools: scripts/*.sh
---
# PDF processing

Run \`scripts/extract.sh <file>\`; options are in assets/config.json.
`;

const FILES = {
  "/skills/pdf-processing/SKILL.md": PDF_SKILL,
  "/skills/pdf-processing/scripts/extract.sh": "#!/bin/sh\necho text\n",
  "/skills/pdf-processing/assets/config.json": '{ "pages": "all" }\n',
  "/skills/calculator/SKILL.md":
    "---\nname: calculator\ndescription: Evaluate arithmetic.\nallowed-tools: '*'\n---\nRun python3 -c with the expression.\n",
  "/skills/release-notes/SKILL.md":
    "---\nname: release-notes\ndescription: Draft release notes.\nargument-hint: '[from] [to]'\n---\nNotes from $0 to $1.\n",
};

function runner(
  replies: ScriptedReply[],
  options: Partial<SkillRunnerOptions> = {},
  files: Record<string, string> = FILES,
) {
  const scripted = scriptedComplete(replies);
  const entries: SkillsLogEntry[] = [];
  const skills = createSkillRunner({
    sources: [createMemorySource({ files })],
    complete: scripted.complete,
    logger: (entry) => entries.push(entry),
    ...options,
  });
  return { skills, calls: scripted.calls, entries };
}

describe("createSkillRunner: each instruction", () => {
  it("answers <use_skill> with the skill's instructions and files in <skill_content>", async () => {
    const { skills, calls } = runner(["<use_skill>pdf-processing</use_skill>", "Done."]);
    const result = await skills.run("Extract report.pdf");
    expect(result.text).toBe("Done.");
    expect(lastUserMessage(calls[1]!)).toBe(
      [
        '<skill_content name="pdf-processing">',
        '<skill name="pdf-processing" path="/skills/pdf-processing/SKILL.md">',
        PDF_SKILL,
        "</skill>",
        '<skill_resources base="/skills/pdf-processing">',
        "- [asset] assets/config.json",
        "- [script] scripts/extract.sh",
        "</skill_resources>",
        "Paths above are relative to /skills/pdf-processing; read them with `read_resource` when the instructions call for them.",
        "Recommended tools while this skill is active: scripts/*.sh",
        "</skill_content>",
      ].join("\n"),
    );
    expect(result.trace.loaded).toEqual(["pdf-processing"]);
  });

  it("answers <read_resource> with the file in <resource_content>", async () => {
    const { skills } = runner([
      '<use_skill>pdf-processing</use_skill>\n<read_resource skill="pdf-processing">assets/config.json</read_resource>',
      "Done.",
    ]);
    const { trace } = await skills.run("Which pages?");
    expect(trace.steps[0]!.outcomes[1]).toMatchObject({
      ok: true,
      result:
        '<resource_content skill="pdf-processing" path="assets/config.json">\n[assets/config.json: lines 1-1 of 1]\n{ "pages": "all" }\n</resource_content>',
    });
  });

  it("answers <execute_script> with the exit code, and stdout and stderr apart, in <script_result>", async () => {
    const executor = recordingExecutor({ stdout: "Page 1: Hello\n", stderr: "warning: no fonts\n" });
    const { skills } = runner(
      [
        '<use_skill>pdf-processing</use_skill>\n<execute_script skill="pdf-processing">scripts/extract.sh report.pdf</execute_script>',
        "Done.",
      ],
      { executor },
    );
    const { trace } = await skills.run("Extract report.pdf");
    expect(executor.runs).toEqual([["scripts/extract.sh", "report.pdf"]]);
    expect(trace.steps[0]!.outcomes[1]).toMatchObject({
      ok: true,
      result: [
        '<script_result skill="pdf-processing" exit_code="0">',
        "$ scripts/extract.sh report.pdf",
        "(exited with code 0 after 1 ms)",
        "--- stdout ---",
        "Page 1: Hello",
        "--- stderr ---",
        "warning: no fonts",
        "</script_result>",
      ].join("\n"),
    });
  });

  it("reports a non-zero exit as a result with its code, not as an error", async () => {
    const executor = recordingExecutor({ exitCode: 2, stdout: "", stderr: "no such file: missing.pdf\n" });
    const { skills } = runner(
      [
        '<use_skill>pdf-processing</use_skill><execute_script skill="pdf-processing">scripts/extract.sh missing.pdf</execute_script>',
        "It failed.",
      ],
      { executor },
    );
    const outcome = (await skills.run("Extract missing.pdf")).trace.steps[0]!.outcomes[1]!;
    expect(outcome.ok).toBe(false);
    expect(outcome.result).toBe(
      '<script_result skill="pdf-processing" exit_code="2">\n$ scripts/extract.sh missing.pdf\n(exited with code 2 after 1 ms)\n--- stderr ---\nno such file: missing.pdf\n</script_result>',
    );
  });

  it("answers <unload_skill> with <skill_unloaded>, in this protocol's words", async () => {
    const { skills } = runner([
      "<use_skill>pdf-processing</use_skill>",
      "<unload_skill>pdf-processing</unload_skill>",
      "Done.",
    ]);
    const { trace } = await skills.run("Load, then unload.");
    expect(trace.steps[1]!.results).toBe(
      "<skill_unloaded name=\"pdf-processing\">Skill 'pdf-processing' has been unloaded. Currently loaded: 0/10 (10 slot(s) available). Its instructions from the earlier <use_skill> are still in the conversation history, but no longer apply.</skill_unloaded>",
    );
    expect(trace.loaded).toEqual([]);
  });

  it("passes <use_skill arguments=…> to the skill, as a user's /name args would", async () => {
    const { skills } = runner(['<use_skill arguments="v1.2.0 v1.3.0">release-notes</use_skill>', "Done."]);
    const { trace } = await skills.run("Notes please.");
    expect(trace.steps[0]!.results).toContain("Notes from v1.2.0 to v1.3.0.");
  });
});

describe("createSkillRunner: several instructions in one reply", () => {
  it("runs them all, in order, each on the state the previous one left, and answers in one message", async () => {
    const executor = recordingExecutor();
    const { skills, calls } = runner(
      [
        '<use_skill>pdf-processing</use_skill>\n<read_resource skill="pdf-processing">assets/config.json</read_resource>\n<execute_script skill="pdf-processing">scripts/extract.sh a.pdf</execute_script>',
        "Done.",
      ],
      { executor },
    );
    const { trace } = await skills.run("Go.");
    expect(trace.steps[0]!.outcomes.map((outcome) => [outcome.instruction.kind, outcome.ok])).toEqual([
      ["use_skill", true],
      ["read_resource", true],
      ["execute_script", true],
    ]);
    const results = lastUserMessage(calls[1]!);
    expect(results.indexOf("<skill_content")).toBeLessThan(results.indexOf("<resource_content"));
    expect(results.indexOf("<resource_content")).toBeLessThan(results.indexOf("<script_result"));
  });

  it("runs at most maxInstructionsPerReply and says how many did not run", async () => {
    const { skills } = runner(
      [
        '<use_skill>pdf-processing</use_skill><use_skill>calculator</use_skill><use_skill>release-notes</use_skill><read_resource skill="x">a</read_resource>',
        "Done.",
      ],
      { maxInstructionsPerReply: 2 },
    );
    const { trace } = await skills.run("Go.");
    expect(trace.steps[0]!.outcomes).toHaveLength(2);
    expect(trace.steps[0]!.skipped).toBe(2);
    expect(
      trace.steps[0]!.results!.endsWith(
        "\n\n(2 more instructions in your reply did not run: at most 2 run per reply. Send the ones you still need again.)",
      ),
    ).toBe(true);
    expect(trace.loaded).toEqual(["pdf-processing", "calculator"]);
  });
});

describe("createSkillRunner: refusals the model can act on", () => {
  it("answers an unknown skill with <skill_error> and the skills there are", async () => {
    const { skills } = runner(["<use_skill>word-processing</use_skill>", "No such skill."]);
    const { trace } = await skills.run("Go.");
    expect(trace.steps[0]!.results).toBe(
      "<skill_error name=\"word-processing\">Skill 'word-processing' not found. Available skills: calculator, pdf-processing, release-notes</skill_error>",
    );
  });

  it("checks a command against the skill's allowed-tools before anything runs", async () => {
    const executor = recordingExecutor();
    const { skills } = runner(
      [
        '<use_skill>pdf-processing</use_skill><execute_script skill="pdf-processing">curl example.com</execute_script>',
        "Refused.",
      ],
      { executor },
    );
    const { trace } = await skills.run("Go.");
    expect(trace.steps[0]!.outcomes[1]!.result).toBe(
      "<script_error skill=\"pdf-processing\">Command refused: 'curl' is not allowed for skill 'pdf-processing' (allowed: scripts/*.sh).</script_error>",
    );
    expect(executor.runs).toEqual([]);
  });

  it("lets allowed-tools: '*' run any command", async () => {
    const executor = recordingExecutor({ stdout: "4\n" });
    const { skills } = runner(
      [
        '<use_skill>calculator</use_skill><execute_script skill="calculator">python3 -c "print(2+2)"</execute_script>',
        "4.",
      ],
      { executor },
    );
    const { trace } = await skills.run("2+2?");
    expect(executor.runs).toEqual([["python3", "-c", "print(2+2)"]]);
    expect(trace.steps[0]!.outcomes[1]!.result).toContain('<script_result skill="calculator" exit_code="0">');
  });

  it("refuses ../../../etc/passwd and absolute paths, also when written from the skill's location", async () => {
    const reads = [
      "../../../etc/passwd",
      "/etc/passwd",
      "/skills/pdf-processing/../../etc/passwd",
      "assets/../../calculator/SKILL.md",
    ].map((path) => `<read_resource skill="pdf-processing">${path}</read_resource>`);
    const { skills } = runner([
      `<use_skill>pdf-processing</use_skill>${reads.join("")}<read_resource skill="pdf-processing">/skills/pdf-processing/assets/config.json</read_resource>`,
      "Done.",
    ]);
    const outcomes = (await skills.run("Go.")).trace.steps[0]!.outcomes.slice(1);
    expect(outcomes.map((outcome) => outcome.result.split(">")[0] + ">")).toEqual([
      '<resource_error skill="pdf-processing" path="../../../etc/passwd">',
      '<resource_error skill="pdf-processing" path="/etc/passwd">',
      '<resource_error skill="pdf-processing" path="../../etc/passwd">',
      '<resource_error skill="pdf-processing" path="assets/../../calculator/SKILL.md">',
      '<resource_content skill="pdf-processing" path="assets/config.json">',
    ]);
    expect(outcomes[0]!.result).toBe(
      `<resource_error skill="pdf-processing" path="../../../etc/passwd">Cannot read '../../../etc/passwd': '..' is not allowed; resources must be inside the skill's folder.</resource_error>`,
    );
  });

  it("refuses scripts when no executor is given, and does not offer them in the prompt", async () => {
    const { skills } = runner([
      '<use_skill>pdf-processing</use_skill><execute_script skill="pdf-processing">scripts/extract.sh a.pdf</execute_script>',
      "Done.",
    ]);
    const { trace } = await skills.run("Go.");
    expect(trace.steps[0]!.outcomes[1]!.result).toBe(
      '<script_error skill="pdf-processing">Running scripts is not enabled for this agent.</script_error>',
    );
    expect(trace.systemPrompt).not.toContain("<execute_script");
    expect(trace.systemPrompt).toContain(
      "Scripts cannot be run here: when a skill's instructions say to run one, give the user the command instead.",
    );
  });

  it("tells the model to load a skill before reading its files, and how", async () => {
    const { skills } = runner(['<read_resource skill="pdf-processing">assets/config.json</read_resource>', "Done."]);
    expect((await skills.run("Go.")).trace.steps[0]!.results).toBe(
      '<resource_error skill="pdf-processing" path="assets/config.json">Skill \'pdf-processing\' is not loaded. Load it first with `<use_skill>skill-name</use_skill>`.</resource_error>',
    );
  });

  it("holds the budget and names <unload_skill> as the way out", async () => {
    const { skills } = runner(["<use_skill>pdf-processing</use_skill><use_skill>calculator</use_skill>", "Done."], {
      maxLoadedSkills: 1,
    });
    expect((await skills.run("Go.")).trace.steps[0]!.outcomes[1]!.result).toBe(
      "<skill_error name=\"calculator\">Cannot load skill 'calculator'. Maximum number of simultaneously loaded skills reached (1). Currently loaded: pdf-processing. Use `<unload_skill>skill-name</unload_skill>` to unload a skill you no longer need, then retry loading.</skill_error>",
    );
  });

  it("answers a malformed instruction with how to write it", async () => {
    const { skills } = runner([
      "<execute_script>scripts/extract.sh a.pdf</execute_script>\n<use_skill>pdf-processing",
      "Done.",
    ]);
    expect((await skills.run("Go.")).trace.steps[0]!.results).toBe(
      [
        '<script_error>Your instruction could not be read: <execute_script> has no skill="…" attribute naming the skill. Write it as <execute_script skill="skill-name">scripts/example.py --option value</execute_script>.</script_error>',
        "<skill_error>Your instruction could not be read: <use_skill> is not closed: the end of your reply came before </use_skill>. Write it as <use_skill>skill-name</use_skill>.</skill_error>",
      ].join("\n\n"),
    );
  });

  it("answers an executor that throws with <script_error>, and goes on", async () => {
    const executor = {
      specificationVersion: "v1" as const,
      run: async () => Promise.reject(new Error("sandbox unreachable")),
    };
    const { skills } = runner(
      [
        '<use_skill>pdf-processing</use_skill><execute_script skill="pdf-processing">scripts/extract.sh a.pdf</execute_script>',
        "Done.",
      ],
      { executor },
    );
    const { trace, text } = await skills.run("Go.");
    expect(trace.steps[0]!.outcomes[1]!.result).toBe(
      '<script_error skill="pdf-processing">The instruction failed: sandbox unreachable</script_error>',
    );
    expect(text).toBe("Done.");
  });
});

describe("createSkillRunner: the prompt", () => {
  it("sends the catalog and the instructions as the system message, after the caller's own", async () => {
    const { skills, calls } = runner(["Hello."], { executor: recordingExecutor() });
    await skills.run([
      { role: "system", content: "You are terse." },
      { role: "user", content: "Hi" },
    ]);
    const skillsPrompt = (await renderTextProtocolPrompt((await createMemorySourceSkills()).skills, { scripts: true }))
      .text;
    expect(calls[0]).toEqual([
      { role: "system", content: `You are terse.\n\n${skillsPrompt}` },
      { role: "user", content: "Hi" },
    ]);
    expect(skillsPrompt).toContain(
      "<name>\npdf-processing\n</name>\n<description>\nExtract text and tables from PDF documents. Use when the user gives a PDF.\n</description>",
    );
    expect(skillsPrompt).toContain("<description>\nDraft release notes. (arguments: [from] [to])\n</description>");
    expect(skillsPrompt).toContain('<use_skill arguments="…">skill-name</use_skill>');
  });

  it("says when there are no skills", async () => {
    const { skills, calls } = runner(["Hello."], {}, {});
    await skills.run("Hi");
    expect(calls[0]![0]).toEqual({
      role: "system",
      content: "<available_skills>\n</available_skills>\n\n(No skills are available.)",
    });
  });
});

describe("createSkillRunner: the loop", () => {
  it("validates maxIterations and the other counts: whole numbers of at least 1", () => {
    const complete = async () => "";
    for (const maxIterations of [0, -1, 1.5, Number.NaN]) {
      expect(() => createSkillRunner({ sources: [], complete, maxIterations })).toThrow(
        `createSkillRunner: maxIterations must be an integer of at least 1, got ${maxIterations}`,
      );
    }
    expect(() => createSkillRunner({ sources: [], complete, maxInstructionsPerReply: 0 })).toThrow(
      "maxInstructionsPerReply must be an integer of at least 1, got 0",
    );
    expect(() => createSkillRunner({ sources: ["./skills" as never], complete })).toThrow(
      "createSkillRunner: sources must be an array of SkillSource objects",
    );
    expect(() => createSkillRunner({ sources: [], complete: "model" as never })).toThrow(
      "complete must be a function (messages) => Promise<string>",
    );
  });

  it("stops after maxIterations model calls and says so; the last round is told to answer", async () => {
    const { skills, calls } = runner(
      [
        "<use_skill>pdf-processing</use_skill>",
        "<use_skill>calculator</use_skill>",
        "<use_skill>release-notes</use_skill>",
      ],
      { maxIterations: 3 },
    );
    const result = await skills.run("Go.");
    expect(calls).toHaveLength(3);
    expect(
      lastUserMessage(calls[2]!).endsWith(
        "\n\n(No more instructions can run in this turn: answer the user now with what you have.)",
      ),
    ).toBe(true);
    expect(result.trace.stopReason).toBe("max-iterations");
    expect(result.text).toBe(
      "The turn stopped after 3 model calls (maxIterations) without an answer: the last reply still asked for skill instructions, which did not run.",
    );
    expect(result.trace.loaded).toEqual(["pdf-processing", "calculator"]);
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("with maxIterations 1, makes one call and runs nothing", async () => {
    const { skills, calls } = runner(["<use_skill>pdf-processing</use_skill>"], { maxIterations: 1 });
    const result = await skills.run("Go.");
    expect(calls).toHaveLength(1);
    expect(result.trace).toMatchObject({ stopReason: "max-iterations", loaded: [] });
  });

  it("keeps the loaded skills across turns, read from the conversation's results", async () => {
    const executor = recordingExecutor();
    const first = runner(["<use_skill>pdf-processing</use_skill>", "Loaded."], { executor });
    const turn1 = await first.skills.run("Load the PDF skill.");
    const second = runner(
      ['<execute_script skill="pdf-processing">scripts/extract.sh a.pdf</execute_script>', "Done."],
      { executor },
    );
    const turn2 = await second.skills.run([...turn1.messages, { role: "user", content: "Now extract a.pdf." }]);
    expect(turn2.trace.steps[0]!.outcomes[0]!.ok).toBe(true);
    expect(executor.runs).toEqual([["scripts/extract.sh", "a.pdf"]]);
    const third = runner(["<unload_skill>pdf-processing</unload_skill>", "Unloaded."]);
    const turn3 = await third.skills.run([...turn2.messages, { role: "user", content: "Unload it." }]);
    const fourth = runner(['<read_resource skill="pdf-processing">assets/config.json</read_resource>', "Done."]);
    const turn4 = await fourth.skills.run([...turn3.messages, { role: "user", content: "Read the config." }]);
    expect(turn4.trace.steps[0]!.outcomes[0]!.result).toContain("is not loaded");
  });

  it("invokes a skill for a user's /name args and counts it as loaded", async () => {
    const { skills, calls } = runner(["Drafting."]);
    const result = await skills.run("/release-notes v1 v2");
    expect(result.trace.invoked).toEqual({ skill: "release-notes", arguments: "v1 v2", ok: true });
    expect(calls[0]![1]!.content).toMatch(
      /^<skill_content name="release-notes">\n<skill name="release-notes"[\s\S]*Notes from v1 to v2\.[\s\S]*The user invoked this skill: \/release-notes v1 v2\nFollow its instructions now\.\n<\/skill_content>$/,
    );
    expect(result.trace.loaded).toEqual(["release-notes"]);
    expect(
      (await runner(["Sure."], { userInvocation: false }).skills.run("/release-notes v1 v2")).messages[0]!.content,
    ).toBe("/release-notes v1 v2");
  });

  it("records every step in the trace, and logs the engine's events", async () => {
    const { skills, entries } = runner([
      "I'd use `<use_skill>calculator</use_skill>` for sums. <use_skill>pdf-processing</use_skill>",
      "Done.",
    ]);
    const { trace } = await skills.run("Go.");
    expect(
      trace.steps.map((step) => ({
        mentioned: step.mentioned,
        kinds: step.outcomes.map((outcome) => outcome.instruction.kind),
        results: step.results !== undefined,
      })),
    ).toEqual([
      { mentioned: 1, kinds: ["use_skill"], results: true },
      { mentioned: 0, kinds: [], results: false },
    ]);
    expect(entries.filter((entry) => entry.event === "skill_loaded").map((entry) => entry.skill)).toEqual([
      "pdf-processing",
    ]);
  });

  it("refuses input it cannot use, and a reply that is not text", async () => {
    const { skills } = runner([]);
    await expect(skills.run([])).rejects.toThrow(
      "SkillRunner.run: give a question, or a conversation of at least one message",
    );
    await expect(
      skills.run([
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
      ]),
    ).rejects.toThrow("the conversation's last message must be the user's");
    await expect(skills.run([{ role: "tool" as never, content: "x" }])).rejects.toThrow(
      'message 0 must be { role: "system" | "user" | "assistant", content: string }',
    );
    const broken = createSkillRunner({ sources: [], complete: async () => undefined as never });
    await expect(broken.run("Hi")).rejects.toThrow(
      "createSkillRunner: complete() must resolve to a string, got undefined",
    );
  });

  it("stops when its signal is aborted, and passes the signal to the model", async () => {
    const controller = new AbortController();
    let seen: unknown;
    const skills = createSkillRunner({
      sources: [createMemorySource({ files: FILES })],
      complete: async (_, { signal }) => {
        seen = signal;
        controller.abort(new Error("user left"));
        return "<use_skill>pdf-processing</use_skill>";
      },
    });
    await expect(skills.run("Go.", { signal: controller.signal })).rejects.toThrow("user left");
    expect(seen).toBe(controller.signal);
  });
});

async function createMemorySourceSkills() {
  return createMemorySource({ files: FILES }).scan();
}
