// skillset and skillset/host never load Node-only code; skillset/langchain and skillset/ai load it
// (local folders, the lockfile check) only when it is used. So all four run where `node:*`
// modules do not exist: no module they import statically, in the built package, imports one.
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

/** Each `node:` import reachable from `entry` through static imports, as "module <- file". */
function staticNodeImports(entry: string): string[] {
  return staticImports(entry, (spec) => spec.startsWith("node:"));
}

/** Each import of a module `wanted` picks, reachable from `entry` through static imports, as "module <- file". */
function staticImports(entry: string, wanted: (spec: string) => boolean): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
      if (wanted(spec!)) found.push(`${spec} <- ${relative(DIST, file)}`);
      else if (spec!.startsWith(".")) visit(resolve(dirname(file), spec!));
    }
  };
  visit(resolve(DIST, entry));
  return found;
}

describe("entry points that load Node-only code lazily", () => {
  it.each(["langchain.js", "ai.js"])("dist/%s imports no node: module statically", (entry) => {
    expect(existsSync(resolve(DIST, entry)), "build first: npm run build").toBe(true);
    expect(staticNodeImports(entry)).toEqual([]);
  });
});

describe("entry points that run where node: modules do not exist", () => {
  it.each(["index.js", "host.js"])("dist/%s imports no node: module statically", (entry) => {
    expect(existsSync(resolve(DIST, entry)), "build first: npm run build").toBe(true);
    expect(staticNodeImports(entry)).toEqual([]);
  });
});

// A worker that joins a fleet imports skillset and skillset/langchain, reads the catalog snapshot
// and answers; the module parsers and the encoding's ranks wait until a skill's module is read
// or a catalog has a piece the snapshot did not count.
describe("packages a joining worker does not need load on first use", () => {
  it.each(["index.js", "langchain.js"])(
    "dist/%s imports neither sucrase, acorn nor js-tiktoken statically",
    (entry) => {
      expect(existsSync(resolve(DIST, entry)), "build first: npm run build").toBe(true);
      expect(staticImports(entry, (spec) => /^(sucrase|acorn|js-tiktoken)(\/|$)/.test(spec))).toEqual([]);
    },
  );
});
