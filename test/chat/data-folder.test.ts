// Where chat threads are kept: the user's data folder, per the XDG spec and each platform's custom.
import { expect, it } from "vitest";
import { chatDatabasePath, dataFolder } from "../../src/cli/chat/data-folder.js";

it.each([
  [{ XDG_DATA_HOME: "/data" }, "linux", "/data/skillset"],
  [{ XDG_DATA_HOME: "/data" }, "darwin", "/data/skillset"],
  [{ XDG_DATA_HOME: "relative/data" }, "linux", "/home/u/.local/share/skillset"],
  [{}, "linux", "/home/u/.local/share/skillset"],
  [{}, "darwin", "/home/u/Library/Application Support/skillset"],
  [{ LOCALAPPDATA: "/appdata" }, "win32", "/appdata/skillset"],
  [{}, "win32", "/home/u/AppData/Local/skillset"],
] as const)("%j on %s: %s", (env, platform, folder) => {
  expect(dataFolder(env, platform, "/home/u")).toBe(folder);
});

it("keeps the threads in one SQLite file there", () => {
  expect(chatDatabasePath({ XDG_DATA_HOME: "/data" })).toBe("/data/skillset/chat-threads.sqlite");
});
