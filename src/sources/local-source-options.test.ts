import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { resolveLocalSourceOptions } from "./local-source-options.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
const originalHome = process.env.HOME;
afterEach(() => {
  if (originalHome === undefined) delete process.env.HOME;
  else process.env.HOME = originalHome;
  for (const tree of trees) tree.cleanup();
  trees = [];
});

function folder() {
  const tree = tempTree();
  trees.push(tree);
  return realpathSync(tree.root);
}

/** Points HOME at a new temp folder; returns it. */
function homeFolder(): string {
  const home = folder();
  process.env.HOME = home;
  return home;
}

const userFolders = (home: string) => [join(home, ".claude", "skills"), join(home, ".agents", "skills")];

describe("resolveLocalSourceOptions", () => {
  it("applies the defaults to a path given as a string, resolved against the working folder", () => {
    const home = homeFolder();
    const root = resolve("no-such-skills-folder");
    // The repository is the project of a folder inside it.
    expect(resolveLocalSourceOptions("no-such-skills-folder")).toEqual({
      root,
      readable: true,
      id: `local:${root}`,
      recursive: false,
      maxDepth: 6,
      maxDirectories: 10_000,
      watch: true,
      allowedRoots: [root, realpathSync(resolve(".")), ...userFolders(home)],
      pathProblems: [],
    });
  });

  it("keeps what is given, and resolves the allowed roots to real paths, after the default ones", () => {
    const home = homeFolder();
    const base = folder();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(
      resolveLocalSourceOptions({
        path: join(base, "link"),
        recursive: true,
        maxDepth: 2,
        maxDirectories: 5,
        watch: false,
        id: "mine",
      }),
    ).toEqual({
      root: join(base, "link"),
      readable: true,
      id: "mine",
      recursive: true,
      maxDepth: 2,
      maxDirectories: 5,
      watch: false,
      allowedRoots: [join(base, "real"), ...userFolders(home)],
      pathProblems: [],
    });
    expect(
      resolveLocalSourceOptions({ path: base, allowedRoots: [join(base, "link"), join(base, "gone")] }).allowedRoots,
    ).toEqual([base, ...userFolders(home), join(base, "real"), join(base, "gone")]);
  });

  it("expands ~ and ~/ from HOME, in the path and the allowed roots", () => {
    const home = homeFolder();
    const settings = resolveLocalSourceOptions({ path: "~/skills", allowedRoots: ["~", "~/other"] });
    expect([settings.root, settings.id, settings.allowedRoots]).toEqual([
      join(home, "skills"),
      `local:${join(home, "skills")}`,
      [join(home, "skills"), ...userFolders(home), home, join(home, "other")],
    ]);
  });

  it("keeps a path it cannot expand as given, unreadable, with no default root, and lists every such path in order", () => {
    const message = (path: string) =>
      `Cannot use ${path}: only ~ and ~/ (your home folder) are expanded; write the folder's full path`;
    expect(resolveLocalSourceOptions("~nobody/skills")).toEqual({
      root: "~nobody/skills",
      readable: false,
      id: "local:~nobody/skills",
      recursive: false,
      maxDepth: 6,
      maxDirectories: 10_000,
      watch: true,
      allowedRoots: [],
      pathProblems: [{ path: "~nobody/skills", message: message("~nobody/skills") }],
    });
    const base = folder();
    const settings = resolveLocalSourceOptions({ path: "~a/x", allowedRoots: ["~b", base] });
    expect([settings.allowedRoots, settings.pathProblems]).toEqual([
      [base],
      [
        { path: "~a/x", message: message("~a/x") },
        { path: "~b", message: message("~b") },
      ],
    ]);
  });
});
