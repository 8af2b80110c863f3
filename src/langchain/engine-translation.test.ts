import { Command } from "@langchain/langgraph";
import { AIMessage, HumanMessage, ToolMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { errorMessage, siblingSkillCalls, threadId, threadState, toolResult } from "./engine-translation.js";

describe("siblingSkillCalls", () => {
  const message = new AIMessage({
    content: "",
    tool_calls: [
      { id: "u1", name: "unload_skill", args: { skill_name: "csv" } },
      { id: "r1", name: "read_file", args: { path: "a.txt" } },
      { id: "l1", name: "load_skill", args: { skill_name: "pdf", arguments: "a.pdf" } },
      { id: "l2", name: "load_skill", args: { skill_name: 7 } },
      { name: "load_skill", args: { skill_name: "docx" } },
      { id: "l3", name: "load_skill", args: { skill_name: "xlsx" } },
    ],
  });

  it("gives the skill calls of the AI message that made the call, in its order, and nothing else", () => {
    expect(siblingSkillCalls([new HumanMessage("go"), message], "l1")).toEqual([
      { id: "u1", action: "unload", skill: "csv" },
      { id: "l1", action: "load", skill: "pdf" },
      { id: "l3", action: "load", skill: "xlsx" },
    ]);
  });

  it("finds the same calls from every call of the message, also from a call that is no skill call", () => {
    expect(siblingSkillCalls([message], "u1")).toEqual(siblingSkillCalls([message], "l3"));
    expect(siblingSkillCalls([message], "r1")).toHaveLength(3);
  });

  it("reads the latest message that made the call, from plain objects too", () => {
    const older = { type: "ai", tool_calls: [{ id: "l1", name: "load_skill", args: { skill_name: "old" } }] };
    const newer = { type: "ai", tool_calls: [{ id: "l1", name: "load_skill", args: { skill_name: "new" } }] };
    expect(siblingSkillCalls([older, new ToolMessage({ content: "", tool_call_id: "l1" }), newer], "l1")).toEqual([
      { id: "l1", action: "load", skill: "new" },
    ]);
  });

  it("is empty when no message made the call", () => {
    expect(siblingSkillCalls([message], "elsewhere")).toEqual([]);
    expect(siblingSkillCalls([], "l1")).toEqual([]);
  });
});

describe("threadState", () => {
  it("maps the state fields, leaving out a catalog version the thread has not seen", () => {
    const resources = { pdf: [{ path: "/s/pdf/a.md", relativePath: "a.md", type: "reference" as const }] };
    expect(threadState({ skillsLoaded: ["pdf"], skillResources: resources, _skillsCatalogVersion: "v1" })).toEqual({
      catalogVersion: "v1",
      loaded: ["pdf"],
      resources,
    });
    expect(threadState({})).toEqual({ loaded: [], resources: {} });
    expect(threadState({ _skillsCatalogVersion: "" })).toEqual({ loaded: [], resources: {} });
  });
});

describe("toolResult", () => {
  it("writes a success's operations to both skill fields, next to the tool message", () => {
    const operations = [{ kind: "load" as const, skill: "pdf", resources: [] }];
    const result = toolResult({ ok: true, text: "pdf instructions", operations }, "c1", "load_skill");
    expect(result).toBeInstanceOf(Command);
    const update = (result as Command).update as {
      skillsLoaded: unknown;
      skillResources: unknown;
      messages: ToolMessage[];
    };
    expect(update.skillsLoaded).toBe(operations);
    expect(update.skillResources).toBe(operations);
    expect(update.messages).toHaveLength(1);
    expect(update.messages[0]).toMatchObject({
      content: "pdf instructions",
      tool_call_id: "c1",
      name: "load_skill",
      status: undefined,
    });
  });

  it("makes a refusal an error message that changes no state", () => {
    const result = toolResult({ ok: false, text: "Error: no skill 'x'" }, "c2", "unload_skill");
    expect(ToolMessage.isInstance(result)).toBe(true);
    expect(result).toMatchObject({
      content: "Error: no skill 'x'",
      tool_call_id: "c2",
      name: "unload_skill",
      status: "error",
    });
  });
});

describe("errorMessage", () => {
  it("is an error ToolMessage for the call", () => {
    expect(errorMessage("Error: refused", "c3", "search_skills")).toMatchObject({
      content: "Error: refused",
      tool_call_id: "c3",
      name: "search_skills",
      status: "error",
    });
  });
});

describe("threadId", () => {
  it("is undefined outside a running graph", () => {
    expect(threadId()).toBeUndefined();
  });
});
