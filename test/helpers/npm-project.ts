// Real npm packages for the `npm:` source tests: fixture packages written to a temp folder,
// packed with `npm pack` and installed from the tarballs into a temp project with a real
// `npm install --offline` (no network needed: every dependency is a local tarball).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fixture package: its `package.json` fields and its files by path. */
export interface FixturePackage {
  manifest: Record<string, unknown> & { name: string; version: string };
  files: Record<string, string>;
}

/** A `SKILL.md` with a name and description, and a body saying where it came from. */
export function skillFile(
  name: string,
  description = `Use ${name} for tests.`,
  body = `# ${name}\n\nInstructions of ${name}.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

// npm reads its own settings from the environment: the test's npm must not inherit those of the
// `npm run`/`npx` that started vitest (a prefix, a workspace), nor ask the network.
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  return {
    ...env,
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

/** Runs npm in `cwd`; its output is returned, and a failure throws with npm's stderr. */
export function npm(cwd: string, ...args: string[]): string {
  return execFileSync("npm", args, { cwd, env: npmEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * A temp folder with the packages packed (`npm pack`) under `packs/` and a project `project/`
 * whose `package.json` is `project` (plus `name`, `private`), with the tarballs installed.
 */
export function npmProject(
  packages: FixturePackage[],
  project: Record<string, unknown>,
): { root: string; project: string; tarballs: Record<string, string>; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), "skillset-npm-"));
  const tarballs: Record<string, string> = {};
  for (const pkg of packages) {
    const folder = join(root, "src", pkg.manifest.name.replace("/", "+"));
    writeFiles(folder, { ...pkg.files, "package.json": JSON.stringify(pkg.manifest, null, 2) });
    mkdirSync(join(root, "packs"), { recursive: true });
    const packed = npm(folder, "pack", "--silent", "--pack-destination", join(root, "packs")).trim().split("\n").pop()!;
    tarballs[pkg.manifest.name] = join(root, "packs", packed);
  }
  const projectFolder = join(root, "project");
  writeFiles(projectFolder, {
    "package.json": JSON.stringify({ name: "fixture-project", version: "1.0.0", private: true, ...project }, null, 2),
  });
  if (packages.length > 0)
    npm(projectFolder, "install", ...Object.values(tarballs), "--offline", "--no-audit", "--no-fund");
  return { root, project: projectFolder, tarballs, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes files (paths with `/`) below `folder`. */
export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(folder, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The project's `package.json`, parsed. */
export function readProjectManifest(project: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as Record<string, unknown>;
}
