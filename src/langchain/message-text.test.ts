import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { firstText, messageTexts, replaceFirstText } from "./message-text.js";

describe("firstText", () => {
  it("is the content itself when it is a string, even an empty one", () => {
    expect(firstText("/pdf report.pdf")).toBe("/pdf report.pdf");
    expect(firstText("")).toBe("");
  });

  it("is the first text block of block content, past images and blocks without text", () => {
    const content = [
      { type: "image_url", image_url: "data:," },
      { type: "text" },
      { type: "text", text: "first" },
      { type: "text", text: "second" },
    ];
    expect(firstText(content)).toBe("first");
  });

  it("is undefined without any text", () => {
    expect(firstText([{ type: "image_url", image_url: "data:," }])).toBeUndefined();
    expect(firstText([null, 7])).toBeUndefined();
    expect(firstText(undefined)).toBeUndefined();
    expect(firstText({ type: "text", text: "not in a list" })).toBeUndefined();
  });
});

describe("replaceFirstText", () => {
  it("replaces string content whole", () => {
    expect(replaceFirstText("/pdf a.pdf", "instructions")).toBe("instructions");
  });

  it("replaces only the first text block and keeps every other block as it was", () => {
    const image = { type: "image_url", image_url: "data:," };
    const content = [image, { type: "text", text: "/pdf a.pdf", id: "t1" }, { type: "text", text: "and more" }];
    expect(replaceFirstText(content as never, "instructions")).toEqual([
      image,
      { type: "text", text: "instructions", id: "t1" },
      { type: "text", text: "and more" },
    ]);
    expect(content[1]).toEqual({ type: "text", text: "/pdf a.pdf", id: "t1" });
  });

  it("leaves content without a text block as it was", () => {
    const content = [{ type: "image_url", image_url: "data:," }];
    expect(replaceFirstText(content as never, "instructions")).toEqual(content);
  });
});

describe("messageTexts", () => {
  it("reads user messages and tool results, in order, and skips the model's and the system's", () => {
    const messages = [
      new SystemMessage("system"),
      new HumanMessage("/pdf"),
      new AIMessage({
        content: "calling",
        tool_calls: [{ id: "c1", name: "load_skill", args: { skill_name: "pdf" } }],
      }),
      new ToolMessage({ content: "pdf instructions", tool_call_id: "c1", name: "load_skill" }),
      new HumanMessage({ content: [{ type: "image_url", image_url: "data:," }] }),
      new HumanMessage({ content: [{ type: "text", text: "thanks" }] }),
    ];
    expect(messageTexts(messages)).toEqual(["/pdf", "pdf instructions", "thanks"]);
  });

  it("reads plain objects by their type, as state holds them after a checkpoint", () => {
    expect(
      messageTexts([
        { type: "human", content: "hi" },
        { type: "tool", content: "result" },
        { type: "ai", content: "answer" },
        {},
      ]),
    ).toEqual(["hi", "result"]);
  });
});
