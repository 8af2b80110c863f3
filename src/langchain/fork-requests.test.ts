import { AIMessage, HumanMessage, ToolMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { answerUserForks, createForkParents, type PendingFork } from "./fork-requests.js";
import type { ForkParent } from "./skill-fork.js";

const pending = (skill: string): PendingFork => ({ skill, allowedTools: [], operations: [], task: `${skill} task` });
const asking = (text: string, fork: PendingFork, id?: string) =>
  new HumanMessage({ ...(id ? { id } : {}), content: text, additional_kwargs: { skillset_fork: fork } });

describe("answerUserForks", () => {
  const run = async (fork: PendingFork) => ({ text: `answer of ${fork.skill}` });

  it("is undefined when this turn's user messages ask for no fork", async () => {
    const earlier = asking("/review", pending("review"));
    expect(await answerUserForks([earlier, new AIMessage("done"), new HumanMessage("thanks")], run)).toBeUndefined();
    expect(await answerUserForks([asking("/review", { ...pending("review"), answered: true })], run)).toBeUndefined();
    expect(await answerUserForks([], run)).toBeUndefined();
  });

  it("gives the forks' answers as the answer when the turn asked only for forks", async () => {
    const forks = await answerUserForks(
      [new AIMessage("before"), asking("/review", pending("review")), asking("/audit", pending("audit"))],
      run,
    );
    expect(forks?.messages).toEqual([]);
    expect(forks?.answered).toEqual([]);
    expect(forks?.answer?.content).toBe("answer of review\n\nanswer of audit");
    expect(forks?.answer?.additional_kwargs).toEqual({ skillset_forks: ["review", "audit"] });
  });

  it("runs the forks in order and puts each answer into its message when the turn says more", async () => {
    const order: string[] = [];
    const question = new HumanMessage("and what do you think?");
    const messages = [new AIMessage("before"), asking("/review src", pending("review"), "m1"), question];
    const forks = await answerUserForks(messages, async (fork) => {
      order.push(fork.skill);
      return { text: "looks fine" };
    });
    expect(order).toEqual(["review"]);
    expect(forks?.answer).toBeUndefined();
    expect(forks?.answered).toHaveLength(1);
    const answered = forks!.answered[0]!;
    expect(answered.id).toBe("m1");
    expect(answered.content).toBe("/review src\n\n[skillset: /review ran in a forked agent. Its answer:]\nlooks fine");
    expect(answered.additional_kwargs).toEqual({ skillset_fork: { ...pending("review"), answered: true } });
    expect(forks?.messages).toEqual([messages[0], answered, question]);
  });
});

describe("createForkParents", () => {
  const parent = { model: {}, tools: [] } as unknown as ForkParent;
  const reply = (...ids: string[]) =>
    new AIMessage({
      content: "",
      tool_calls: ids.map((id) => ({ id, name: id.startsWith("l") ? "load_skill" : "read_file", args: {} })),
    });

  it("keeps the parent for each load_skill call of a reply until the call takes it, once", () => {
    const parents = createForkParents();
    const response = reply("l1", "r1", "l2");
    expect(parents.remember(response, parent)).toBe(response);
    expect(parents.take("l1")).toBe(parent);
    expect(parents.take("l1")).toBeUndefined();
    expect(parents.take("r1")).toBeUndefined();
    expect(parents.take("l2")).toBe(parent);
  });

  it("keeps nothing without a parent, or for a response that is no AI message", () => {
    const parents = createForkParents();
    parents.remember(reply("l1"), undefined);
    parents.remember(new ToolMessage({ content: "", tool_call_id: "l2" }), parent);
    expect(parents.take("l1")).toBeUndefined();
    expect(parents.take("l2")).toBeUndefined();
  });

  it("forgets the oldest calls past its limit", () => {
    const parents = createForkParents(2);
    parents.remember(reply("l1", "l2", "l3"), parent);
    expect([parents.take("l1"), parents.take("l2"), parents.take("l3")]).toEqual([undefined, parent, parent]);
  });
});
