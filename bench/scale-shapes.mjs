// The Scale table's libraries laid out as large ones are: names grouped by their first word
// (`azure-*`), and a mirror of many repositories' collections, read with `recursive`. The flat
// `skill-NNNNN` library lists its folders in name order and forms one group, so the paths that
// depend on order and groups (merging out of name order, grouping by folder, the summary of the
// skills a catalog leaves out) only show on these; and a polling re-scan (watch off), on all.
import { performance } from "node:perf_hooks";
import { createCatalog, DEFAULT_CATALOG_BUDGET, renderCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { skillsetColdBlock, timeAndBlock } from "./event-loop-block.mjs";
import { ensureLibrary } from "./generate-library.mjs";
import { collectGarbage } from "./measure.mjs";
import { median } from "./stats.mjs";

/** The shapes measured besides the flat library. */
export const SHAPES = ["grouped", "collections"];

const RUNS = 3;

/** The source options that read the library of `size` skills laid out as `shape`. */
export function shapeSource(size, shape) {
  const root = ensureLibrary(size, shape);
  return shape === "collections"
    ? { path: root, watch: false, recursive: true, maxDepth: 2, maxDirectories: 2 * size }
    : { path: root, watch: false };
}

/**
 * Cold discovery (median and longest block of 3), the catalog's render over its budget (first of
 * the snapshot, median of 3 more, longest block) and a polling re-scan of the unchanged library
 * (median and longest block of 3) of one layout.
 */
export async function measureShape(size, shape) {
  const options = shapeSource(size, shape);
  const colds = [];
  const coldBlocks = [];
  for (let run = 0; run < RUNS; run++) {
    collectGarbage();
    const start = performance.now();
    coldBlocks.push((await skillsetColdBlock([options])()).ms);
    colds.push(performance.now() - start);
  }
  const catalog = createCatalog([createLocalSource(options)]);
  const { skills } = await catalog.refresh();
  const render = () => renderCatalog(skills, { budget: DEFAULT_CATALOG_BUDGET, searchTool: "search_skills" });
  // The token counter is loaded once per process, before the timed renders.
  await renderCatalog(skills.slice(0, 10), { budget: DEFAULT_CATALOG_BUDGET });
  const first = await timeAndBlock(render);
  const renders = [];
  for (let run = 0; run < RUNS; run++) renders.push(await timeAndBlock(render));
  const rescan = await measureRescan(catalog);
  catalog.close();
  return {
    shape,
    cold: median(colds),
    coldBlock: Math.max(...coldBlocks),
    renderFirst: first.ms,
    render: median(renders.map((entry) => entry.ms)),
    renderBlock: Math.max(first.block, ...renders.map((entry) => entry.block)),
    ...rescan,
  };
}

/**
 * Re-scans of a catalog already scanned, over sources that do not watch (each re-scan checks
 * every `SKILL.md`'s stamp): the median time and the longest block of 3.
 */
export async function measureRescan(catalog) {
  const rescans = [];
  for (let run = 0; run < RUNS; run++) {
    collectGarbage();
    rescans.push(await timeAndBlock(() => catalog.refresh()));
  }
  return {
    rescan: median(rescans.map((entry) => entry.ms)),
    rescanBlock: Math.max(...rescans.map((entry) => entry.block)),
  };
}
