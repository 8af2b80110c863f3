// Runs contenders interleaved, so machine noise (other processes, CPU boost) hits all of them alike.
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers";

/** Collects garbage left by the previous run, so it is not billed to the next one. */
export function collectGarbage() {
  globalThis.gc?.();
}

/**
 * {@link collectGarbage}, then one turn of the event loop: a collection leaves work queued for it
 * (V8's and Node's tasks after a full collection), which would otherwise run at the next run's
 * first `await` and be billed to it (about 0.1 ms, all of an unchanged re-scan's time).
 */
export async function collectGarbageAndSettle() {
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Times `work` (sync or async) in ms; returns its result too. */
export async function time(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

/**
 * Runs every contender `iterations` times (or its own smaller `iterations`), one of each per
 * round, rotating the order each round. `warmup` rounds run first and are discarded (JIT, caches).
 * `gc: false` skips the collection (and the turn of the event loop after it) before each run, for runs of microseconds.
 * A contender's `run()` returns `{ ms, cpuMs?, found, names? }`: it times only its own measured region.
 * Returns, per contender label, the samples (and `cpuSamples` of those that report CPU time),
 * every distinct `found` value seen and the last `names`.
 */
export async function measureInterleaved(contenders, { iterations, warmup = 1, gc = true }) {
  const results = new Map(
    contenders.map((contender) => [
      contender.label,
      { samples: [], cpuSamples: [], found: new Set(), names: undefined },
    ]),
  );
  for (let round = -warmup; round < iterations; round++) {
    for (const contender of rotate(contenders, round + warmup)) {
      if (round >= (contender.iterations ?? iterations)) continue;
      if (gc) await collectGarbageAndSettle();
      const { ms, cpuMs, found, names } = await contender.run();
      const result = results.get(contender.label);
      result.found.add(found);
      result.names = names ?? result.names;
      if (round >= 0) result.samples.push(ms);
      if (round >= 0 && cpuMs !== undefined) result.cpuSamples.push(cpuMs);
    }
  }
  return results;
}

function rotate(items, by) {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
