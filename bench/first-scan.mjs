// Cold discovery as a server's first scan: in a new process, so no code is compiled or optimised yet.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(import.meta.url);

/**
 * A contender whose every run starts a new Node process that imports the bench's contenders
 * (outside the timed region) and times one discovery: `"skillset"` (a cold catalog over
 * `{ path: root }`) or `"floor"` (the raw floor over `root`). The repeated in-process runs of
 * the other rows measure code the JIT has already optimised; this one measures it unoptimised.
 */
export function firstScanInNewProcess(kind, root) {
  return async () => JSON.parse(execFileSync(process.execPath, [SCRIPT, kind, root], { encoding: "utf8" }));
}

if (process.argv[1] === SCRIPT) {
  const [kind, root] = process.argv.slice(2);
  const { rawFloor, skillsetCold } = await import("./contenders.mjs");
  const run = kind === "floor" ? rawFloor([root]) : skillsetCold([{ path: root, watch: false }]);
  const { ms, cpuMs, found } = await run();
  process.stdout.write(JSON.stringify({ ms, cpuMs, found }));
}
