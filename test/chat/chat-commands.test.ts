// The chat's own / commands; everything else is a message (a skill's /name args included).
import { expect, it } from "vitest";
import { parseChatCommand } from "../../src/cli/chat/chat-commands.js";

it.each([
  ["/skills", { kind: "skills" }],
  ["  /loaded  ", { kind: "loaded" }],
  ["/help", { kind: "help" }],
  ["/exit", { kind: "exit" }],
  ["/quit", { kind: "exit" }],
  ["/unload csv-insights", { kind: "unload", skill: "csv-insights" }],
  ["/unload", { kind: "usage", message: "Usage: /unload <skill>" }],
  ["/unload a b", { kind: "usage", message: "Usage: /unload <skill>" }],
  ["/skills all", { kind: "usage", message: "/skills takes no arguments" }],
  ["/csv-insights data.csv", undefined],
  ["/skillset", undefined],
  ["/etc/hosts is broken", undefined],
  ["hello /skills", undefined],
])("%j", (line, command) => {
  expect(parseChatCommand(line)).toEqual(command);
});
