import { AIMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { createCodeCallTools } from "./code-call-tools.js";

describe("createCodeCallTools", () => {
  const answer = (...ids: string[]) =>
    new AIMessage({ content: "", tool_calls: ids.map((id) => ({ id, name: "run_code", args: { code: "" } })) });

  it("gives each run_code call the tools of the model call that made it, again on a retry", () => {
    const calls = createCodeCallTools<string>();
    calls.remember(answer("a"), ["read_file"]);
    calls.remember(answer("b"), ["read_file", "write_file"]);
    expect(calls.take("a")).toEqual(["read_file"]);
    expect(calls.take("a")).toEqual(["read_file"]);
    expect(calls.take("b")).toEqual(["read_file", "write_file"]);
  });

  it("gives a call it never saw no tools, and forgets the oldest calls past its limit", () => {
    const calls = createCodeCallTools<string>(2);
    calls.remember(answer("a", "b"), ["x"]);
    calls.remember(answer("c"), ["y"]);
    expect(calls.take("unseen")).toEqual([]);
    expect([calls.take("a"), calls.take("b"), calls.take("c")]).toEqual([[], ["x"], ["y"]]);
  });

  it("remembers only run_code calls", () => {
    const calls = createCodeCallTools<string>();
    calls.remember(new AIMessage({ content: "", tool_calls: [{ id: "l", name: "load_skill", args: {} }] }), ["x"]);
    expect(calls.take("l")).toEqual([]);
  });
});
