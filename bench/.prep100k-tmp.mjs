import { performance } from "node:perf_hooks";
import { ensureStoreLibrary, refreshSnapshot } from "../test/langchain/fixtures/load-scenario.mjs";
const url = "postgresql://postgres@127.0.0.1:5432/test";
let t = performance.now();
console.log("written", await ensureStoreLibrary({ url, schema: "skillset_load_library_100000", count: 100000 }), Math.round(performance.now() - t));
t = performance.now();
const r = await refreshSnapshot(url, "skillset_load_library_100000");
console.log("refresh", r, Math.round(performance.now() - t));
