import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * skillset's folder for the user's data (chat threads): `$XDG_DATA_HOME/skillset` when that is
 * set to an absolute path (the XDG spec ignores relative ones), else the platform's usual place:
 * `~/.local/share/skillset`, `~/Library/Application Support/skillset` on macOS,
 * `%LOCALAPPDATA%\skillset` on Windows.
 */
export function dataFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "skillset");
  if (platform === "darwin") return join(home, "Library", "Application Support", "skillset");
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "skillset");
  return join(home, ".local", "share", "skillset");
}

/** The SQLite database that holds `skillset chat`'s threads. */
export function chatDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataFolder(env), "chat-threads.sqlite");
}
