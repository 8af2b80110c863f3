import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * skillset's folder for data it can rebuild (embedding vectors, skills downloaded from sites): `$XDG_CACHE_HOME/skillset` when
 * that is set to an absolute path (the XDG spec ignores relative ones), else the platform's usual
 * place: `~/.cache/skillset`, `~/Library/Caches/skillset` on macOS, `%LOCALAPPDATA%\skillset\Cache`
 * on Windows.
 */
export function cacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "skillset");
  if (platform === "darwin") return join(home, "Library", "Caches", "skillset");
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "skillset", "Cache");
  return join(home, ".cache", "skillset");
}
