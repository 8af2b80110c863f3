// How long a cold scan holds the event loop: what an agent server's other requests wait for.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createCatalog } from "../dist/index.js";
import { createLocalSource } from "../dist/node.js";
import { time } from "./measure.mjs";

/**
 * skillset cold discovery (new sources and catalog, first refresh) while an event-loop monitor
 * ticks every millisecond. `ms` is the longest delay the monitor saw: the longest stretch the
 * scan kept the loop busy. `modules` lets a script measure another build (say, an older one).
 */
export function skillsetColdBlock(sourceOptions, modules = { createCatalog, createLocalSource }) {
  return async () => {
    const monitor = monitorEventLoopDelay({ resolution: 1 });
    monitor.enable();
    // Let the monitor's timer start; `reset()` would lose the first delay, so it is not used.
    await sleep(2);
    const catalog = modules.createCatalog(sourceOptions.map((options) => modules.createLocalSource(options)));
    const snapshot = await catalog.refresh();
    catalog.close();
    // One more turn of the timers, so a block at the very end is recorded too.
    await sleep(2);
    monitor.disable();
    return { ms: monitor.max / 1e6, found: snapshot.skills.length };
  };
}

/** How long `work` took and the longest stretch it kept the event loop busy (at most the first), in ms. */
export async function timeAndBlock(work) {
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  await sleep(2);
  const { ms } = await time(work);
  await sleep(2);
  monitor.disable();
  return { ms, block: Math.min(ms, monitor.max / 1e6) };
}
