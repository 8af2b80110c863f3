// The public surface is deliberate. Its record is api/<entry>.api.md (every exported name, its
// kind and signature), written by `npm run api:report` from the sources: a change to the surface
// shows there in review, and this test fails until the report is regenerated. Every name has a
// TSDoc comment, means one thing across entry points, and is listed in docs/api.md.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type PublicEntryPoint, readPublicApi, renderApiReport, reportFiles } from "../scripts/public-api.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REGENERATE = "the API report is out of date: run `npm run api:report` and review the change in api/";

let api: PublicEntryPoint[];
beforeAll(() => {
  api = readPublicApi(ROOT);
}, 300_000);

describe("entry points", () => {
  it("are the subpaths package.json declares, each with its source file", async () => {
    const { exports } = (await import("../package.json", { with: { type: "json" } })).default as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(exports).sort()).toEqual([
      ".",
      "./ai",
      "./host",
      "./langchain",
      "./mcp",
      "./node",
      "./package.json",
    ]);
    expect(api.map((entry) => [entry.subpath, existsSync(join(ROOT, entry.source))])).toEqual(
      api.map((entry) => [entry.subpath, true]),
    );
  });

  it("export at run time exactly the values the compiler sees", async () => {
    for (const entry of api) {
      const runtime = Object.keys(await import(pathToFileURL(join(ROOT, entry.source)).href)).sort();
      const values = entry.exports.filter((item) => item.value).map((item) => item.name);
      expect({ entry: entry.specifier, names: runtime }).toEqual({ entry: entry.specifier, names: values });
    }
  });
});

describe("the API report (api/*.api.md)", () => {
  it("has one file per entry point and no other", () => {
    expect(reportFiles(ROOT), REGENERATE).toEqual(api.map((entry) => entry.report).sort());
  });

  it("agrees with the code", () => {
    for (const entry of api) {
      const file = join(ROOT, entry.report);
      const recorded = existsSync(file) ? readFileSync(file, "utf8") : "";
      expect(recorded, `${entry.report}: ${REGENERATE}`).toBe(renderApiReport(entry));
    }
  });
});

describe("every exported name", () => {
  it("has a TSDoc comment", () => {
    const undocumented = api.flatMap((entry) =>
      entry.exports.filter((item) => item.documentation === "").map((item) => `${entry.specifier}: ${item.name}`),
    );
    expect(undocumented).toEqual([]);
  });

  it("means one thing: a name exported by several entry points is the same declaration in each", () => {
    const meanings = new Map<string, Set<string>>();
    for (const entry of api) {
      for (const item of entry.exports) meanings.set(item.name, (meanings.get(item.name) ?? new Set()).add(item.id));
    }
    expect([...meanings].filter(([, ids]) => ids.size > 1).map(([name]) => name)).toEqual([]);
  });

  it("is listed under its entry point in docs/api.md, and docs/api.md lists nothing else", () => {
    const listed = apiPageNames(readFileSync(join(ROOT, "docs/api.md"), "utf8"));
    const exported = Object.fromEntries(api.map((entry) => [entry.specifier, entry.exports.map((item) => item.name)]));
    expect(listed).toEqual(exported);
  });
});

/** The names docs/api.md lists (`- \`name\` — …`) under each `## \`entry\`` heading, sorted. */
function apiPageNames(page: string): Record<string, string[]> {
  const sections: Record<string, string[]> = {};
  let current: string[] | undefined;
  for (const line of page.split("\n")) {
    const heading = /^## `([^`]+)`$/.exec(line);
    if (heading) current = sections[heading[1]!] = [];
    else if (line.startsWith("## ")) current = undefined;
    const item = /^- `([^`]+)` — /.exec(line);
    if (item && current) current.push(item[1]!);
  }
  for (const names of Object.values(sections)) names.sort(codeUnitOrder);
  return sections;
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
