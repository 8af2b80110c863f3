// A real LangChain.js agent loop over the bundled skills, driven by a scripted model (no LLM
// needed): the model loads a skill, reads one of its references, runs its script, and answers.
import { fakeModel } from "@langchain/core/testing";
import { AIMessage, createAgent } from "langchain";
import { createSkillsMiddleware } from "../dist/langchain.js";
import { createLocalExecutor } from "../dist/node.js";

const skills = new URL("./skills", import.meta.url).pathname;
const model = fakeModel()
  .respondWithTools([{ name: "load_skill", args: { skill_name: "csv-insights" }, id: "call-1" }])
  .respondWithTools([{ name: "read_skill_resource", args: { skill_name: "csv-insights", path: "references/interpreting-profiles.md", limit: 6 }, id: "call-2" }])
  .respondWithTools([{ name: "run_skill_script", args: { skill_name: "csv-insights", command: "python3 scripts/profile_csv.py assets/sample.csv" }, id: "call-3" }])
  .respond(new AIMessage("sample.csv has 8 rows and 5 columns; units and price each miss one value."));

const agent = createAgent({
  model,
  tools: [],
  middleware: [createSkillsMiddleware({ sources: [skills], readResourceTool: true, runScripts: { executor: createLocalExecutor({ timeoutMs: 30_000 }) } })],
});
const result = await agent.invoke({ messages: [{ role: "user", content: "What is in sample.csv?" }] });

const clip = (text, lines) => {
  const all = String(text).split("\n");
  return all.length > lines ? [...all.slice(0, lines), `  … (${all.length - lines} more lines)`].join("\n") : all.join("\n");
};
console.log("\n=== Agent run over examples/skills (scripted model) ===");
for (const message of result.messages) {
  const calls = message.tool_calls?.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ");
  console.log(`\n[${message.type}]${calls ? ` calls ${calls}` : ""}`);
  // The scripted model echoes the conversation as the text of its tool-calling messages; skip it.
  if (message.content && !calls) console.log(clip(message.content, 12));
}
console.log(`\nskillsLoaded: ${JSON.stringify(result.skillsLoaded)}`);
console.log(`\nSystem prompt tail on the last model call:\n${clip(model.calls.at(-1).messages[0].content.split("\n").slice(-3).join("\n"), 5)}`);
