// Integration test (issue 10, "under load"), at a scale CI runs quickly: worker processes
// (fixtures/agent-worker.mjs over the BUILT package: `npm run build` first) share one PostgreSQL
// checkpointer and one PostgresStore skill library served through deepagents' StoreBackend, and
// serve many threads whose turns move from worker to worker, each turn up to two model messages of
// parallel loads and unloads. What each thread should hold is computed from its script alone
// (fixtures/load-scenario.mjs); bench/load.mjs runs the same scenario at full scale.
//
// The checkpoints go to a schema of their own, dropped afterwards; the library is written once to
// the schema `skillset_load_library_1000` and kept for the next run. Without a PostgreSQL server
// this skips, except under CI=true where it fails.
import { describe, expect, it } from "vitest";
import { TEST_PG_URL, usePostgres } from "../helpers/test-environment.js";
import { ensureStoreLibrary, runLoadScenario, summarizeRun, type TurnRecord } from "./fixtures/load-scenario.mjs";

const SCENARIO = { workers: 2, librarySize: 1_000, threads: 40, turns: 4, maxLoaded: 3, concurrency: 4, seed: 10 };
const LIBRARY_SCHEMA = `skillset_load_library_${SCENARIO.librarySize}`;
// The bound for skills state written by a turn that loads and unloads nothing.
const UNCHANGED_TURN_MAX_BYTES = 1024;

describe.skipIf(!(await usePostgres()))(
  "Under load: PostgreSQL checkpointer and PostgresStore library shared by worker processes",
  () => {
    it("2 workers, 1,000 skills, 40 threads of 4 turns: every call ends as the script implies, nothing lost, duplicated or over budget", async () => {
      await ensureStoreLibrary({ url: TEST_PG_URL, schema: LIBRARY_SCHEMA, count: SCENARIO.librarySize });
      const { records, workers } = await runLoadScenario({
        url: TEST_PG_URL,
        librarySchema: LIBRARY_SCHEMA,
        timeoutMs: 60_000,
        ...SCENARIO,
      });
      expect(records).toHaveLength(SCENARIO.threads * SCENARIO.turns);

      // Every thread, turn by turn: the skills loaded before it, at each model call (as the system
      // prompt lists them) and after it, their resources, and every call's outcome.
      const view = (record: TurnRecord, side: "expected" | "actual") => ({
        thread: record.thread,
        turn: record.turn,
        ...record[side],
      });
      expect(records.map((record) => view(record, "actual"))).toEqual(
        records.map((record) => view(record, "expected")),
      );

      const summary = summarizeRun(records, SCENARIO.maxLoaded);
      expect(summary.problems).toEqual({
        mismatchedOutcomes: 0,
        lostLoads: 0,
        extraLoads: 0,
        duplicatedLoads: 0,
        overBudgetStates: 0,
        wrongLoadResults: 0,
        wrongResources: 0,
        catalogInState: 0,
      });
      // The script exercised every rule, budget refusals included.
      for (const outcome of [
        "loaded",
        "unloaded",
        "already-loaded",
        "already-loading",
        "busy",
        "budget",
        "not-loaded",
        "not-found",
        "search",
      ]) {
        expect(summary.outcomes[outcome], outcome).toBeGreaterThan(0);
      }
      // Both processes saw the same catalog version: it is the library's content, not the process's.
      expect(summary.catalogVersions).toBe(1);

      // Turn k of thread t ran on worker (t + k) % 2, so every turn changed process.
      expect(
        records.filter((record) => record.pid !== workers[(record.thread + record.turn) % SCENARIO.workers]),
      ).toEqual([]);

      const unchanged = records.filter((record) => !record.changesSkills);
      expect(unchanged.length).toBeGreaterThan(0);
      expect(unchanged.filter((record) => record.bytes.skills > UNCHANGED_TURN_MAX_BYTES)).toEqual([]);
    }, 240_000);
  },
);
