// A scripted model that picks skills the way the trigger and tune tests need: it loads every
// skill of the catalog whose description shares a word (3 letters or more) with the request,
// so which descriptions trigger for which queries is known exactly. Requests listed in `flaky`
// load the first skill only on the 1st, 3rd, 5th… time they are asked.
import type { FakeReply, FakeRequest, FakeScript } from "../helpers/fake-provider-server.js";

/** The words of a text that count for matching. */
export function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 3),
  );
}

/** The catalog lines of the system prompt: `- name: description`. */
export function catalogOf(system: string): Array<{ name: string; description: string }> {
  return [...system.matchAll(/^- ([a-z0-9-]+): (.*)$/gm)].map((match) => ({ name: match[1]!, description: match[2]! }));
}

export const LOAD_USAGE = { input: 100, output: 10 };
export const TEXT_USAGE = { input: 50, output: 3 };
export const DONE_USAGE = { input: 150, output: 5 };

/** The script; `other` answers any request that is not an agent's (a proposal, say). */
export function wordMatchingModel(flaky: readonly string[] = [], other?: FakeScript): FakeScript {
  const asked = new Map<string, number>();
  return (request: FakeRequest, index) => {
    if (other && !request.system.includes("## Skills")) return other(request, index);
    if (request.messages.at(-1)!.role === "tool") return { text: "Done.", usage: DONE_USAGE };
    const query = request.lastUserText;
    const catalog = catalogOf(request.system);
    let chosen = catalog
      .filter((skill) => [...words(query)].some((word) => words(skill.description).has(word)))
      .map((skill) => skill.name);
    if (flaky.includes(query)) {
      const count = (asked.get(query) ?? 0) + 1;
      asked.set(query, count);
      chosen = count % 2 === 1 ? [catalog[0]!.name] : [];
    }
    const reply: FakeReply =
      chosen.length === 0
        ? { text: "Sure.", usage: TEXT_USAGE }
        : {
            toolCalls: chosen.map((skill) => ({ name: "load_skill", args: { skill_name: skill } })),
            usage: LOAD_USAGE,
          };
    return reply;
  };
}
