// The discovery implementations under test. Each `run()` times only the discovery itself.
import { Buffer } from "node:buffer";
import { closeSync, existsSync, openSync, readdirSync, readSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { performance } from "node:perf_hooks";
import { createSkillsMiddleware, FilesystemBackend } from "deepagents";
import { createCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";

const SKIPPED = new Set([".git", "node_modules"]);

/** The shared corpus of real skills, beside the checkout; a user's clone has none. */
export const CORPUS_ROOT = resolve(import.meta.dirname, "../../shared/corpus");

/** Whether the shared corpus is there to measure. */
export function hasCorpus() {
  return existsSync(CORPUS_ROOT);
}
const HEAD_BYTES = 4096;

/**
 * Folders that directly contain skill folders: what deepagents needs as `sources`, since it
 * does not recurse. Stops descending at a skill folder, as skillset does.
 */
export function findSkillParents(root) {
  const parents = new Set();
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      const child = join(directory, entry.name);
      if (readdirSync(child).includes("SKILL.md")) parents.add(directory);
      else walk(child);
    }
  };
  walk(root);
  return [...parents].sort();
}

/** skillset cold discovery: new sources and catalog, first refresh. */
export function skillsetCold(sourceOptions) {
  return async () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const catalog = createCatalog(sourceOptions.map((options) => createLocalSource(options)));
    const snapshot = await catalog.refresh();
    const ms = performance.now() - start;
    const cpuMs = cpuMsSince(cpu);
    catalog.close();
    return { ms, cpuMs, found: snapshot.skills.length, names: snapshot.skills.map((skill) => skill.name) };
  };
}

/**
 * CPU time (user + system, every thread of the process: JIT and GC helpers too) since `start`,
 * in ms. Unlike wall time it does not count the time other processes had the CPU, so its ratios
 * move less on a busy machine.
 */
function cpuMsSince(start) {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/**
 * skillset re-scan of an unchanged tree: one long-lived catalog, refreshed once (cold) plus
 * twice more (with `watch`, the second refresh installs the watchers), then timed per refresh.
 * `found` turns into "changed!" if a refresh ever returns a new snapshot, which would be a bug.
 */
export async function skillsetRescan(sourceOptions) {
  const catalog = createCatalog(sourceOptions.map((options) => createLocalSource(options)));
  let previous = await catalog.refresh();
  for (let warmup = 0; warmup < 2; warmup++) previous = await catalog.refresh();
  const run = async () => {
    const start = performance.now();
    const snapshot = await catalog.refresh();
    const ms = performance.now() - start;
    const unchanged = snapshot === previous;
    previous = snapshot;
    return { ms, found: unchanged ? snapshot.skills.length : "changed!" };
  };
  return { run, close: () => catalog.close() };
}

/**
 * deepagents cold discovery: `createSkillsMiddleware` over a `FilesystemBackend`, running its
 * loading hook directly. Real paths (virtualMode false) skip its per-call realpath checks.
 */
export function deepagentsCold(root, skillParents) {
  const sources = skillParents.map((parent) => (parent.endsWith(sep) ? parent : parent + sep));
  return async () => {
    const restore = silenceWarnings();
    try {
      const start = performance.now();
      const middleware = createSkillsMiddleware({
        backend: new FilesystemBackend({ rootDir: root, virtualMode: false }),
        sources,
      });
      const update = await discoveryHook(middleware)({ messages: [] }, MINIMAL_RUNTIME);
      const ms = performance.now() - start;
      const skills = update?.skillsMetadata ?? [];
      return { ms, found: skills.length, names: skills.map((skill) => skill.name) };
    } finally {
      restore();
    }
  };
}

// The hook ignores its runtime argument; this stands in for what an agent would pass.
const MINIMAL_RUNTIME = { context: {}, config: { configurable: {} } };

// deepagents 1.13 loaded skills in `beforeAgent`, 1.14 in `beforeModel`; hooks may be wrapped in `{ hook }`.
function discoveryHook(middleware) {
  return hookOf(middleware, middleware.beforeAgent ? "beforeAgent" : "beforeModel");
}

// Node hooks may be plain functions or `{ hook }` objects.
export function hookOf(middleware, name) {
  const hook = middleware[name];
  const fn = typeof hook === "function" ? hook : hook?.hook;
  if (typeof fn !== "function") throw new Error(`${middleware.name} has no ${name} hook`);
  return fn;
}

// deepagents console.warns about every non-conforming skill; keep stdout for the tables.
export function silenceWarnings() {
  const { warn, debug } = console;
  console.warn = () => {};
  console.debug = () => {};
  return () => {
    console.warn = warn;
    console.debug = debug;
  };
}

/**
 * The raw floor: list the skill folders and read the first 4 KB of each SKILL.md with the
 * cheapest synchronous calls, one reused buffer, no parsing. Nothing real can be faster.
 */
export function rawFloor(skillParents) {
  const buffer = Buffer.allocUnsafe(HEAD_BYTES);
  return async () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let found = 0;
    for (const parent of skillParents) {
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory() && readHead(join(parent, entry.name, "SKILL.md"), buffer)) found++;
      }
    }
    return { ms: performance.now() - start, cpuMs: cpuMsSince(cpu), found };
  };
}

function readHead(file, buffer) {
  let fd;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return true;
  } finally {
    closeSync(fd);
  }
}
