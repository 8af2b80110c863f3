// The chat's read-only file tools (--files), tried adversarially on real files: nothing outside
// the working folder is read or listed, whatever the path or link; special files never block.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileTools, globMatcher } from "../../src/cli/chat/file-tools.js";
import { tempTree } from "../helpers/skill-tree.js";

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

/** A working folder `work/` with files, beside a `secret.txt` outside it. */
function workspace() {
  const tree = tempTree("skillset-files-");
  trees.push(tree);
  tree.write("secret.txt", "top secret\n");
  tree.write("work/README.md", "# Project\nHello world\n");
  tree.write("work/src/app.ts", "export const answer = 42;\n// TODO: more\n");
  tree.write("work/src/lib/util.ts", "export function todo() {}\n");
  tree.write("work/docs/guide.md", "Guide\n");
  tree.write("work/node_modules/pkg/index.md", "skipped\n");
  tree.write("work/.git/HEAD.md", "skipped\n");
  writeFileSync(
    path.join(tree.root, "work", "logo.png"),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]),
  );
  const work = path.join(tree.root, "work");
  type Invocable = { name: string; invoke(call: unknown): Promise<{ content: unknown; status?: string }> };
  const tools = new Map((createFileTools(work) as unknown as Invocable[]).map((entry) => [entry.name, entry]));
  const call = async (name: string, args: Record<string, unknown>) => {
    const message = await tools.get(name)!.invoke({ id: "call-1", name, args, type: "tool_call" });
    return { text: String(message.content), error: message.status === "error" };
  };
  return { root: tree.root, work, call };
}

describe("read_file", () => {
  it("reads a file by relative or absolute path, a page of lines at a time", async () => {
    const { work, call } = workspace();
    expect(await call("read_file", { path: "src/app.ts" })).toEqual({
      text: "[src/app.ts: lines 1-2 of 2]\nexport const answer = 42;\n// TODO: more",
      error: false,
    });
    expect(await call("read_file", { path: path.join(work, "README.md"), offset: 1, limit: 1 })).toEqual({
      text: "[README.md: lines 2-2 of 2]\nHello world",
      error: false,
    });
    expect(await call("read_file", { path: "logo.png" })).toEqual({
      text: "logo.png is a binary file (9 bytes, looks like a PNG image); its content is not shown.",
      error: false,
    });
  });

  it("takes the path as file_path too, deepagents' and Claude Code's name", async () => {
    const { call } = workspace();
    expect(await call("read_file", { file_path: "src/app.ts", offset: 1 })).toEqual({
      text: "[src/app.ts: lines 2-2 of 2]\n// TODO: more",
      error: false,
    });
    expect(await call("read_file", {})).toEqual({
      text: "Error: read_file needs the file's path, as `path`.",
      error: true,
    });
  });

  it.each([
    [
      "../secret.txt",
      (root: string) =>
        `Error: ../secret.txt is outside the working folder ${root}/work; only files below it can be read.`,
    ],
    [
      "src/../../secret.txt",
      (root: string) =>
        `Error: src/../../secret.txt is outside the working folder ${root}/work; only files below it can be read.`,
    ],
    [
      "/etc/hostname",
      (root: string) =>
        `Error: /etc/hostname is outside the working folder ${root}/work; only files below it can be read.`,
    ],
    [
      "/proc/self/root/etc/hostname",
      (root: string) =>
        `Error: /proc/self/root/etc/hostname is outside the working folder ${root}/work; only files below it can be read.`,
    ],
    ["missing.txt", () => "Error: missing.txt does not exist."],
    ["a\u0000b", () => "Error: 'a\u0000b' is not a valid path."],
  ])("refuses %j", async (requested, message) => {
    const { root, call } = workspace();
    expect(await call("read_file", { path: requested })).toEqual({ text: message(root), error: true });
  });

  it("follows a symlink only when it stays inside the folder", async () => {
    const { root, work, call } = workspace();
    symlinkSync(path.join(root, "secret.txt"), path.join(work, "leak.txt"));
    symlinkSync(root, path.join(work, "parent"));
    symlinkSync(path.join(work, "README.md"), path.join(work, "readme-link.md"));
    expect(await call("read_file", { path: "leak.txt" })).toEqual({
      text: `Error: leak.txt is outside the working folder ${work}; only files below it can be read.`,
      error: true,
    });
    expect(await call("read_file", { path: "parent/secret.txt" })).toEqual({
      text: `Error: parent/secret.txt is outside the working folder ${work}; only files below it can be read.`,
      error: true,
    });
    expect((await call("read_file", { path: "readme-link.md" })).text).toBe(
      "[README.md: lines 1-2 of 2]\n# Project\nHello world",
    );
  });

  it("never opens a FIFO (it would block) and says what a folder is", async () => {
    const { work, call } = workspace();
    execFileSync("mkfifo", [path.join(work, "pipe")]);
    expect(await call("read_file", { path: "pipe" })).toEqual({
      text: "Error: pipe is not a regular file.",
      error: true,
    });
    expect(await call("read_file", { path: "src" })).toEqual({
      text: "Error: src is a folder; list it with ls.",
      error: true,
    });
  });
});

describe("ls, glob and grep", () => {
  it("ls lists folders and files, leaving out links that leave the folder and special files", async () => {
    const { root, work, call } = workspace();
    symlinkSync(path.join(root, "secret.txt"), path.join(work, "leak.txt"));
    execFileSync("mkfifo", [path.join(work, "pipe")]);
    expect(await call("ls", {})).toEqual({
      text: ".git/\nREADME.md (22 bytes)\ndocs/\nlogo.png (9 bytes)\nnode_modules/\nsrc/",
      error: false,
    });
    expect(await call("ls", { path: "src" })).toEqual({ text: "app.ts (40 bytes)\nlib/", error: false });
    expect(await call("ls", { path: ".." })).toEqual({
      text: `Error: .. is outside the working folder ${work}; only files below it can be read.`,
      error: true,
    });
  });

  it("glob matches names at any depth, or whole paths; .git, node_modules and linked folders are not searched", async () => {
    const { root, work, call } = workspace();
    mkdirSync(path.join(root, "elsewhere"));
    writeFileSync(path.join(root, "elsewhere", "outside.md"), "x");
    symlinkSync(path.join(root, "elsewhere"), path.join(work, "linked"));
    expect(await call("glob", { pattern: "*.md" })).toEqual({ text: "README.md\ndocs/guide.md", error: false });
    expect(await call("glob", { pattern: "src/**/*.ts" })).toEqual({
      text: "src/app.ts\nsrc/lib/util.ts",
      error: false,
    });
    expect(await call("glob", { pattern: "*.{png,ts}", path: "src" })).toEqual({
      text: "src/app.ts\nsrc/lib/util.ts",
      error: false,
    });
    expect(await call("glob", { pattern: "*.py" })).toEqual({ text: "No files match *.py.", error: false });
  });

  it("grep prints path:line: text for a regular expression, within a glob, optionally ignoring case", async () => {
    const { call } = workspace();
    expect(await call("grep", { pattern: "todo", ignore_case: true })).toEqual({
      text: "src/app.ts:2: // TODO: more\nsrc/lib/util.ts:1: export function todo() {}",
      error: false,
    });
    expect(await call("grep", { pattern: "TODO", glob: "*.ts" })).toEqual({
      text: "src/app.ts:2: // TODO: more",
      error: false,
    });
    expect(await call("grep", { pattern: "skipped" })).toEqual({ text: "No matches for skipped.", error: false });
    expect(await call("grep", { pattern: "(" })).toEqual({
      text: "Error: Invalid regular expression (: Invalid regular expression: /(/: Unterminated group.",
      error: true,
    });
  });
});

describe("globMatcher", () => {
  it.each([
    ["*.md", "docs/a.md", true],
    ["*.md", "a.mdx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/lib/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/lib/deep/a.ts", true],
    ["**", "any/thing", true],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file10.txt", false],
    ["*.{js,ts}", "a.ts", true],
    ["a+b.(x)", "a+b.(x)", true],
  ])("%s on %s: %s", (pattern, file, matches) => {
    expect(globMatcher(pattern)(file)).toBe(matches);
  });
});
