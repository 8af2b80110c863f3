// Whether skillset runs from npm's global folder, which decides if an install hint says `-g`:
// told from the folder layout, and from `npm root -g` when the layout cannot tell.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installCommand, isGlobalInstall } from "../../src/cli/chat/install-command.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with `folders` made in it and a package.json in each of `projects`. */
function layout(folders: string[], projects: string[] = []): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "skillset-install-command-"));
  made.push(root);
  for (const folder of folders) mkdirSync(path.join(root, folder), { recursive: true });
  for (const project of projects) writeFileSync(path.join(root, project, "package.json"), "{}");
  return root;
}

const npmNotAsked = () => {
  throw new Error("npm root -g was run although the layout tells");
};

describe("isGlobalInstall", () => {
  it("a package in <prefix>/lib/node_modules (no project around it) is global, without asking npm", () => {
    const root = layout(["prefix/lib/node_modules/skillset"]);
    expect(isGlobalInstall(path.join(root, "prefix/lib/node_modules/skillset"), npmNotAsked)).toBe(true);
  });

  it("a package in a project's node_modules is not global, unless npm's global folder is that one", () => {
    const root = layout(["project/node_modules/skillset", "prefix/lib/node_modules"], ["project"]);
    const pkg = path.join(root, "project/node_modules/skillset");
    expect(isGlobalInstall(pkg, () => path.join(root, "prefix/lib/node_modules"))).toBe(false);
    expect(isGlobalInstall(pkg, () => undefined)).toBe(false);
    expect(isGlobalInstall(pkg, () => path.join(root, "project/node_modules"))).toBe(true);
  });

  it("a clone, run from its folder or linked into the global folder (npm link), is not global", () => {
    const root = layout(["clone", "prefix/lib/node_modules"], ["clone"]);
    symlinkSync(path.join(root, "clone"), path.join(root, "prefix/lib/node_modules/skillset"), "dir");
    expect(isGlobalInstall(path.join(root, "clone"), npmNotAsked)).toBe(false);
    expect(isGlobalInstall(path.join(root, "prefix/lib/node_modules/skillset"), npmNotAsked)).toBe(false);
  });
});

it("installCommand: the tests run from a clone, so the hint is a plain npm install", () => {
  expect(installCommand(["@langchain/langgraph"])).toBe("npm install @langchain/langgraph");
});
