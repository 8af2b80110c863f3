// A skill's module (`metadata.entrypoint`) is read only from inside its skill's folder: each test
// tries another way out (a path, a linked file, a linked folder, a link in a chain) or a file that
// would hang or exhaust the reader, through validateSkillDirectory and a local source.
import { afterEach, describe, expect, it } from "vitest";
import { checkSkillModule } from "../../src/core/skill-module/check-skill-module.js";
import { createLocalSource, validateSkillDirectory } from "../../src/node.js";
import { Sandbox, fifoRescuer, link, mkfifo, put, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
const stoppers: Array<() => void> = [];
afterEach(() => {
  for (const stop of stoppers.splice(0)) stop();
  sandbox.cleanupAll();
});

/** A skills root with skill `calc` naming `entrypoint`, and a folder outside it holding `secret.js`. */
function setUp(entrypoint: string): { root: string; skill: string; outside: string } {
  const root = sandbox.folder();
  const outside = sandbox.folder();
  put(outside, "secret.js", "export const secret = 'do not read';\n");
  const skill = `${root}/calc`;
  put(root, "calc/SKILL.md", skillMd("calc", undefined, `metadata:\n  entrypoint: ${JSON.stringify(entrypoint)}\n`));
  return { root, skill, outside };
}

// The module problem validate reports (a warning) and what a local source's read reports (the engine's way in).
async function problems(root: string, skill: string): Promise<{ validate: string[]; source: unknown }> {
  const source = createLocalSource({ path: root, watch: false });
  const [found] = (await source.scan()).skills;
  const report = await checkSkillModule(found!, (path, max) => source.readFile!(found!, path, max));
  return { validate: validateSkillDirectory(skill).warnings, source: report?.problem?.code };
}

describe("a skill's module stays inside its folder", () => {
  it("a file linked to one outside", async () => {
    const { root, skill, outside } = setUp("index.js");
    link(skill, "index.js", `${outside}/secret.js`);
    expect(await problems(root, skill)).toEqual({
      validate: ["metadata.entrypoint: index.js resolves outside the skill's folder; refused"],
      source: "entrypoint-outside",
    });
  });

  it("a folder linked to one outside", async () => {
    const { root, skill, outside } = setUp("lib/secret.js");
    link(skill, "lib", outside);
    expect(await problems(root, skill)).toEqual({
      validate: ["metadata.entrypoint: lib/secret.js resolves outside the skill's folder; refused"],
      source: "entrypoint-outside",
    });
  });

  it("a chain of links that ends outside, through a sibling skill", async () => {
    const { root, skill, outside } = setUp("index.js");
    link(root, "other/index.js", `${outside}/secret.js`);
    link(skill, "index.js", `${root}/other/index.js`);
    expect(await problems(root, skill)).toEqual({
      validate: ["metadata.entrypoint: index.js resolves outside the skill's folder; refused"],
      source: "entrypoint-outside",
    });
  });

  it.each([
    ["../outside/secret.js", "'..' is not allowed; the module must be inside the skill's folder"],
    ["%2e%2e/secret.js", "percent-encoded paths are not allowed; write the file's name as it is"],
    ["file:///etc/hostname.js", "it must be a path inside the skill's folder, not a URL"],
    ["/etc/secret.js", "absolute paths are not allowed; give a path relative to the skill's folder"],
  ])("a path that names a place outside: %s", async (entrypoint, reason) => {
    const { root, skill } = setUp(entrypoint);
    const message = `metadata.entrypoint '${entrypoint}' cannot be used: ${reason}`;
    expect(await problems(root, skill)).toEqual({
      validate: [`${message}. Runtimes ignore it.`],
      source: "entrypoint-invalid",
    });
  });

  it("a FIFO named as the module is refused without blocking", async () => {
    const { root, skill } = setUp("index.js");
    mkfifo(`${skill}/index.js`);
    stoppers.push(fifoRescuer(`${skill}/index.js`));
    const started = Date.now();
    expect(await problems(root, skill)).toEqual({
      validate: ["metadata.entrypoint: index.js is not a regular file"],
      source: "entrypoint-unreadable",
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a module over 1 MiB is refused by size, before it is read whole", async () => {
    const { root, skill } = setUp("index.js");
    put(skill, "index.js", `//${"x".repeat(1024 * 1024)}\n`);
    expect(await problems(root, skill)).toEqual({
      validate: ["metadata.entrypoint: index.js is larger than 1048576 bytes"],
      source: "module-too-large",
    });
  });
});
