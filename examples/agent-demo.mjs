// A real LangChain.js agent loop over the bundled skills, driven by a scripted model (no LLM
// needed): the model loads a skill, reads one of its references, runs its script, and answers
// from what the script printed. The script needs python3; when it cannot run, the answer and the
// last line say so and the demo exits with code 1.
import { fakeModel } from "@langchain/core/testing";
import { AIMessage, createAgent } from "langchain";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { createLocalExecutor } from "../dist/node.js";

const skills = new URL("./skills", import.meta.url).pathname;
const model = fakeModel()
  .respondWithTools([{ name: "load_skill", args: { skill_name: "csv-insights" }, id: "call-1" }])
  .respondWithTools([
    {
      name: "read_skill_resource",
      args: { skill_name: "csv-insights", path: "references/interpreting-profiles.md", limit: 6 },
      id: "call-2",
    },
  ])
  .respondWithTools([
    {
      name: "run_skill_script",
      args: { skill_name: "csv-insights", command: "python3 scripts/profile_csv.py assets/sample.csv" },
      id: "call-3",
    },
  ])
  .respond((messages) => new AIMessage(answerFrom(scriptResult(messages))));

const agent = createAgent({
  model,
  tools: [],
  middleware: [
    createSkillsMiddleware({
      sources: [skills],
      readResourceTool: true,
      runScripts: { executor: createLocalExecutor({ timeoutMs: 30_000 }) },
    }),
  ],
});
const result = await agent.invoke({ messages: [{ role: "user", content: "What is in sample.csv?" }] });

const clip = (text, lines) => {
  const all = String(text).split("\n");
  return all.length > lines
    ? [...all.slice(0, lines), `  … (${all.length - lines} more lines)`].join("\n")
    : all.join("\n");
};
console.log("\n=== Agent run over examples/skills (scripted model) ===");
for (const message of result.messages) {
  const calls = message.tool_calls?.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ");
  console.log(`\n[${message.type}]${calls ? ` calls ${calls}` : ""}`);
  // The scripted model echoes the conversation as the text of its tool-calling messages; skip it.
  if (message.content && !calls) console.log(clip(message.content, 12));
}
console.log(`\nskillsLoaded: ${JSON.stringify(result.skillsLoaded)}`);
console.log(
  `\nSystem prompt tail on the last model call:\n${clip(model.calls.at(-1).messages[0].content.split("\n").slice(-3).join("\n"), 5)}`,
);

const script = scriptResult(result.messages);
if (!script.ok) {
  console.error(
    `\nThe demo is incomplete: the csv-insights script did not run successfully (${script.problem}). It needs python3 (Python 3.8+) on the PATH.`,
  );
  process.exitCode = 1;
}

/** The run_skill_script result in `messages`: the profile it printed, or what went wrong. */
function scriptResult(messages) {
  const message = messages.findLast((candidate) => candidate.type === "tool" && candidate.name === "run_skill_script");
  if (!message) return { ok: false, problem: "it was never called" };
  const text = String(message.content);
  const exit = /\(exited with code (\d+)/.exec(text);
  if (message.status === "error" || !exit || exit[1] !== "0") {
    const stderr = text.split("--- stderr ---\n")[1]?.trim().split("\n")[0];
    return { ok: false, problem: exit ? `exit code ${exit[1]}${stderr ? `: ${stderr}` : ""}` : text.split("\n")[0] };
  }
  return { ok: true, stdout: text.split("--- stdout ---\n")[1] ?? "" };
}

/** The scripted model's final answer, built only from the script's own output. */
function answerFrom(script) {
  if (!script.ok) return `I could not profile sample.csv: the csv-insights script failed (${script.problem}).`;
  const overview = (property) => new RegExp(`^\\| ${property} \\| (\\d+) \\|$`, "m").exec(script.stdout)?.[1];
  const rows = overview("Rows");
  const columns = overview("Columns");
  if (!rows || !columns)
    return "The csv-insights script ran, but its report has no row or column count, so I cannot summarise sample.csv.";
  // Column table rows: | # | Column | Type | Missing | Distinct | Top values |
  const missing = [...script.stdout.matchAll(/^\| \d+ \| ([^|]+) \| [^|]+ \| (\d+) \(/gm)]
    .filter((match) => match[2] !== "0")
    .map((match) => `${match[1].trim()} ${match[2]}`);
  return `sample.csv has ${rows} rows and ${columns} columns; missing values: ${missing.length > 0 ? missing.join(", ") : "none"}.`;
}
