// Memory per skill after cold discovery, and with the search index, measured in a new process so
// nothing else the bench has built is counted. Heap is V8's heap plus array buffers (the index
// keeps its postings in typed arrays, whose bytes live outside V8's heap).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(import.meta.url);

/** `{ heap, rss, heapWithIndex, rssWithIndex }` in bytes per skill for the library at `root`. */
export function memoryPerSkill(root) {
  return JSON.parse(execFileSync(process.execPath, ["--expose-gc", SCRIPT, root], { encoding: "utf8" }));
}

if (process.argv[1] === SCRIPT) {
  const { createCatalog, createLexicalRanker } = await import("../dist/index.js");
  const { createLocalSource } = await import("../dist/node.js");
  const root = process.argv[2];
  const settle = () => {
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
    return { heap: heapUsed + arrayBuffers, rss };
  };
  const before = settle();
  const catalog = createCatalog([createLocalSource({ path: root, watch: false })]);
  const { skills } = await catalog.refresh();
  const discovered = settle();
  const ranker = createLexicalRanker();
  await ranker("csv exports", skills, 5);
  const indexed = settle();
  const per = (bytes) => bytes / skills.length;
  process.stdout.write(
    JSON.stringify({
      heap: per(discovered.heap - before.heap),
      rss: per(discovered.rss - before.rss),
      heapWithIndex: per(indexed.heap - before.heap),
      rssWithIndex: per(indexed.rss - before.rss),
    }),
  );
  // Kept alive until measured.
  catalog.close();
}
