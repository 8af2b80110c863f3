import { InMemoryStore } from "@langchain/langgraph";
import { FilesystemBackend, StateBackend, StoreBackend } from "deepagents";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { discoverResources } from "../core/resources/skill-resources.js";
import { createBackendSource, type SkillsBackend } from "./backend-source.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
afterEach(() => {
  for (const created of trees) created.cleanup();
  trees = [];
});

const skillText = (name: string, description = `Use ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

describe("createBackendSource over deepagents backends", () => {
  it("discovers skills through FilesystemBackend and re-scans cheaply", async () => {
    const t = tempTree();
    trees.push(t);
    t.write("skills/alpha/SKILL.md", skillText("alpha"));
    t.write("skills/alpha/scripts/run.sh", "echo hi");
    t.write("skills/beta/SKILL.md", skillText("beta"));
    const backend = new FilesystemBackend({ rootDir: t.root, virtualMode: true });
    const source = createBackendSource({ backend, path: "/skills/" });
    const first = await source.scan();
    expect(first.skills.map((skill) => [skill.name, skill.path])).toEqual([
      ["alpha", "/skills/alpha/SKILL.md"],
      ["beta", "/skills/beta/SKILL.md"],
    ]);
    expect(await source.scan()).toBe(first);
    expect(new TextDecoder().decode(await source.readSkill(first.skills[0]!))).toBe(skillText("alpha"));
    expect(await discoverResources(source, first.skills[0]!)).toEqual({
      resources: [{ path: "/skills/alpha/scripts/run.sh", relativePath: "scripts/run.sh", type: "script", size: 7 }],
      truncated: false,
    });
  });

  it("finds nested skills with glob when recursive", async () => {
    const t = tempTree();
    trees.push(t);
    t.write("skills/.curated/one/SKILL.md", skillText("one"));
    t.write("skills/two/SKILL.md", skillText("two"));
    const backend = new FilesystemBackend({ rootDir: t.root, virtualMode: true });
    const scan = await createBackendSource({ backend, path: "/skills", recursive: true }).scan();
    expect(scan.skills.map((skill) => skill.path).sort()).toEqual([
      "/skills/.curated/one/SKILL.md",
      "/skills/two/SKILL.md",
    ]);
  });

  it("reads skills from a LangGraph store through StoreBackend and sees changes", async () => {
    const store = new InMemoryStore();
    const backend = new StoreBackend({ store, namespace: ["skills"] });
    await backend.write("/skills/stored/SKILL.md", skillText("stored"));
    const source = createBackendSource({ backend, path: "/skills/" });
    const first = await source.scan();
    expect(first.skills.map((skill) => skill.name)).toEqual(["stored"]);
    expect(await source.scan()).toBe(first);
    await backend.write("/skills/another/SKILL.md", skillText("another"));
    await backend.write("/skills/stored/SKILL.md", skillText("stored", "Changed."));
    const second = await source.scan();
    expect(second.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["another", "Use another."],
      ["stored", "Changed."],
    ]);
  });

  it("reads skills from graph state through StateBackend", async () => {
    const now = new Date().toISOString();
    const files = {
      "/skills/in-state/SKILL.md": {
        content: skillText("in-state"),
        mimeType: "text/markdown",
        created_at: now,
        modified_at: now,
      },
    };
    const backend = new StateBackend({ state: { files } } as never);
    const scan = await createBackendSource({ backend: () => backend, path: "/skills/" }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["in-state"]);
  });

  it("works with the older protocol (lsInfo, read returning text)", async () => {
    const files: Record<string, string> = { "/s/old/SKILL.md": skillText("old") };
    const legacy: SkillsBackend = {
      lsInfo: (path) =>
        path === "/s/"
          ? [{ path: "/s/old/", is_dir: true }]
          : path === "/s/old/"
            ? [{ path: "/s/old/SKILL.md", size: files["/s/old/SKILL.md"]!.length }]
            : [],
      read: (path) => files[path] ?? `Error: File '${path}' not found`,
    };
    const scan = await createBackendSource({ backend: legacy, path: "/s" }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["old"]);
  });

  it("turns a failing backend into a diagnostic, and ignores entries outside the path", async () => {
    const failing: SkillsBackend = { ls: () => ({ error: "permission denied" }) };
    const scan = await createBackendSource({ backend: failing, path: "/skills/" }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([
      expect.objectContaining({ code: "source-unreadable", message: "Cannot list /skills/: permission denied" }),
    ]);

    const sneaky: SkillsBackend = {
      ls: (path) => ({
        files: path === "/skills/" ? [{ path: "/skills/../etc/", is_dir: true }] : [{ path: "/etc/SKILL.md" }],
      }),
      downloadFiles: (paths) =>
        paths.map((path) => ({ path, content: new TextEncoder().encode(skillText("x")), error: null })),
    };
    expect((await createBackendSource({ backend: sneaky, path: "/skills/" }).scan()).skills).toEqual([]);
  });
});

describe("createBackendSource: SKILL.md files that cannot be loaded are skipped at discovery", () => {
  const backendOf = (files: Record<string, Uint8Array | string>, listedSize?: (path: string) => number) => {
    const downloaded: string[] = [];
    const backend: SkillsBackend = {
      ls: (path) => ({
        files: Object.keys(files)
          .filter((file) => file.startsWith(path) && file !== path)
          .map((file) => {
            const rest = file.slice(path.length);
            const child = rest.includes("/") ? `${path}${rest.slice(0, rest.indexOf("/") + 1)}` : file;
            return child.endsWith("/")
              ? { path: child, is_dir: true }
              : { path: child, size: listedSize?.(child) ?? 0, modified_at: "2026-01-01T00:00:00Z" };
          }),
      }),
      downloadFiles: (paths) => {
        downloaded.push(...paths);
        return paths.map((path) => ({ path, content: files[path] as Uint8Array, error: null }));
      },
    };
    return { backend, downloaded };
  };

  it("skips a SKILL.md the listing says is over 10 MiB, naming it, without downloading it", async () => {
    const { backend, downloaded } = backendOf(
      { "/s/big/SKILL.md": new Uint8Array(0), "/s/ok/SKILL.md": new TextEncoder().encode(skillText("ok")) },
      (path) => (path === "/s/big/SKILL.md" ? 10 * 1024 * 1024 + 1 : 10),
    );
    const scan = await createBackendSource({ backend, path: "/s/" }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["ok"]);
    expect(scan.diagnostics).toEqual([
      {
        severity: "error",
        code: "too-large",
        file: "/s/big/SKILL.md",
        source: "backend:/s/",
        message: "/s/big/SKILL.md exceeds the maximum size (10485760 bytes)",
      },
    ]);
    expect(downloaded).toEqual(["/s/ok/SKILL.md"]);
  });

  it("skips downloaded text over 10 MiB counted in UTF-8 bytes, though under 10 Mi characters", async () => {
    const text = skillText("wide") + "é".repeat(6 * 1024 * 1024);
    const { backend } = backendOf({ "/s/wide/SKILL.md": text });
    const scan = await createBackendSource({ backend, path: "/s/" }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics.map((d) => [d.code, d.file])).toEqual([["too-large", "/s/wide/SKILL.md"]]);
  });

  it("skips a SKILL.md whose body is not valid UTF-8, naming it", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(skillText("latin")), 0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const { backend } = backendOf({ "/s/latin/SKILL.md": bytes });
    const scan = await createBackendSource({ backend, path: "/s/" }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics).toEqual([
      {
        severity: "error",
        code: "not-utf8",
        file: "/s/latin/SKILL.md",
        source: "backend:/s/",
        message: "/s/latin/SKILL.md is not valid UTF-8",
      },
    ]);
  });
});
