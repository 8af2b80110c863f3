// Integration tests of a fleet's catalog snapshot (docs/fleet.md) on a real PostgreSQL: a worker
// killed in the middle of a refresh (a real child process, test/langchain/fixtures/snapshot-refresher.mjs
// over the BUILT package: `npm run build` first) and what it left deleted by the next writer, two
// workers correcting different skills at the same moment, and a store that is down when a worker
// starts, with the real agent loop. Without a PostgreSQL server this skips, except under CI=true.
import { spawn } from "node:child_process";
import { createServer, connect, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { StoreBackend } from "deepagents";
import { createAgent } from "langchain";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSnapshotSource, type SnapshotSourceOptions } from "../../src/index.js";
import { createSkillsMiddleware } from "../../src/langchain.js";
import {
  SNAPSHOTS,
  barrier,
  gatedStore,
  isSnapshotCall,
  keysIn,
  storedGenerations,
  type StoreCall,
} from "../helpers/snapshot-library.js";
import { TEST_PG_URL, usePostgres } from "../helpers/test-environment.js";

const REFRESHER = fileURLToPath(new URL("./fixtures/snapshot-refresher.mjs", import.meta.url));
const SCHEMA = `skillset_fleet_${process.pid}_${Date.now().toString(36)}`;
const HEAD = "backend:/skills/";
const skillText = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

describe.skipIf(!(await usePostgres()))("A fleet's catalog snapshot on PostgreSQL", () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = PostgresStore.fromConnString(TEST_PG_URL, { schema: SCHEMA });
    await store.setup();
    for (let index = 0; index < 200; index++) await writeSkill(store, `skill-${index}`, `Handles task ${index}.`);
  });
  afterAll(async () => {
    await store?.stop();
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    await client.end();
  });

  const source = (on: PostgresStore, options: Partial<SnapshotSourceOptions> = {}) =>
    createSnapshotSource({
      backend: new StoreBackend({ store: on, namespace: ["library"] }),
      path: "/skills/",
      recursive: true,
      store: on,
      retry: { attempts: 2, delayMs: 10 },
      ...options,
    });

  it("a refresher killed between writing the snapshot and the head, or while scanning, leaves the previous snapshot current and sound", async () => {
    const first = await source(store).refresh();
    await writeSkill(store, "skill-7", "Handles task 7, now in two steps.");

    // Killed after the new snapshot is written, before the head names it.
    const held = await runRefresher({ holdAfterSnapshot: true }, (line) => line.startsWith(`wrote ${HEAD}@`));
    expect(held.lines).toEqual(["scanning", expect.stringMatching(/^wrote backend:\/skills\/@[0-9a-f]{64}$/)]);
    expect(held.signal).toBe("SIGKILL");
    expect((await store.get(["skillset", "snapshots"], HEAD))?.value).toMatchObject({ generation: first.generation });
    // What it left: a snapshot no head names.
    const orphan = held.lines[1]!.slice(`wrote ${HEAD}@`.length);
    expect(await storedGenerations(store)).toEqual([first.generation, orphan].sort());
    const joining = source(store);
    const joined = await joining.scan();
    expect(joined.diagnostics).toEqual([]);
    expect(joined.skills).toHaveLength(200);
    // The old entry of skill-7 is served only as far as its digest allows: the load reads the
    // new text, rewrites that entry, and serves what matches it.
    const seven = joined.skills.find((skill) => skill.name === "skill-7")!;
    expect(seven.description).toBe("Handles task 7.");
    expect(new TextDecoder().decode(await joining.readSkill(seven))).toBe(
      skillText("skill-7", "Handles task 7, now in two steps."),
    );

    // Killed while it scans, before it writes anything.
    await writeSkill(store, "skill-8", "Handles task 8, now in three steps.");
    const scanning = await runRefresher({}, (line) => line === "scanning");
    expect(scanning.lines).toEqual(["scanning"]);
    const afterKill = await source(store).scan();
    expect(afterKill.diagnostics).toEqual([]);
    expect(afterKill.skills.find((skill) => skill.name === "skill-7")?.description).toBe(
      "Handles task 7, now in two steps.",
    );

    // A refresher that is left alone finishes, and the next worker joins from its snapshot. As
    // if ten minutes had passed (abandonedAfterMs: 0), it takes the killed writers for dead and
    // deletes what they left: the orphan snapshot, their items, and the correction of skill-7,
    // which its own scan supersedes. It keeps its snapshot and the one it replaced.
    const finished = await runRefresher({ abandonedAfterMs: 0 }, () => false);
    expect(finished.lines.at(-1)).toMatch(/^done [0-9a-f]{64}$/);
    const done = finished.lines.at(-1)!.slice("done ".length);
    expect(await storedGenerations(store)).toEqual([first.generation, done].sort());
    const writers = await Promise.all(
      (await keysIn(store, [...SNAPSHOTS, "writers"])).map(
        async (key) => (await store.get([...SNAPSHOTS, "writers"], key))?.value,
      ),
    );
    expect(writers.map((writer) => writer?.generation).sort()).toEqual([first.generation, done].sort());
    expect(writers.every((writer) => writer?.done === true)).toBe(true);
    expect(await keysIn(store, [...SNAPSHOTS, "corrections"])).toEqual([HEAD]);
    const rejoined = await source(store).scan();
    expect(rejoined.diagnostics).toEqual([]);
    expect(rejoined.skills.find((skill) => skill.name === "skill-7")?.description).toBe(
      "Handles task 7, now in two steps.",
    );
    expect(rejoined.skills.find((skill) => skill.name === "skill-8")?.description).toBe(
      "Handles task 8, now in three steps.",
    );
  }, 60_000);

  it("two processes refreshing at once leave one snapshot that verifies, and a joining worker reads it without scanning", async () => {
    await writeSkill(store, "skill-9", "Handles task 9, now with a checklist.");
    const [one, two] = await Promise.all([runRefresher({}, () => false), runRefresher({}, () => false)]);
    const generations = [one.lines.at(-1), two.lines.at(-1)];
    expect(generations[0]).toMatch(/^done [0-9a-f]{64}$/);
    expect(generations[1]).toBe(generations[0]);
    const head = (await store.get(["skillset", "snapshots"], HEAD))?.value;
    expect(`done ${String(head?.generation)}`).toBe(generations[0]);
    // Whichever wrote its head, the other's clean-up deleted nothing the head needs.
    const kept = [head?.generation, head?.previous].filter((generation) => typeof generation === "string");
    expect(kept).toContain(head?.generation);
    expect((await storedGenerations(store)).every((generation) => kept.includes(generation))).toBe(true);
    const joined = await source(store).scan();
    expect(joined.diagnostics).toEqual([]);
    expect(joined.skills.find((skill) => skill.name === "skill-9")?.description).toBe(
      "Handles task 9, now with a checklist.",
    );
  }, 60_000);

  it("two workers that each find a different skill changed behind the snapshot at the same moment (each on its own connection pool) both keep their correction", async () => {
    await source(store).refresh();
    const [storeOne, storeTwo] = [0, 1].map(() => PostgresStore.fromConnString(TEST_PG_URL, { schema: SCHEMA }));
    try {
      // Each worker's first write of the snapshot's items waits until the other's is about to happen too.
      const together = barrier(2);
      const gate = (call: StoreCall) => (call.method === "put" && isSnapshotCall(call) ? together.wait() : undefined);
      const one = source(storeOne!, { store: gatedStore(storeOne!, gate) });
      const two = source(storeTwo!, { store: gatedStore(storeTwo!, gate) });
      const [scanOne, scanTwo] = await Promise.all([one.scan(), two.scan()]);
      await writeSkill(store, "skill-20", "Handles task 20, now with a diagram.");
      await writeSkill(store, "skill-21", "Handles task 21, now in Welsh.");
      const [twenty, twentyOne] = await Promise.all([
        one.readSkill(scanOne.skills.find((skill) => skill.name === "skill-20")!),
        two.readSkill(scanTwo.skills.find((skill) => skill.name === "skill-21")!),
      ]);
      expect(new TextDecoder().decode(twenty)).toBe(skillText("skill-20", "Handles task 20, now with a diagram."));
      expect(new TextDecoder().decode(twentyOne)).toBe(skillText("skill-21", "Handles task 21, now in Welsh."));
      for (const worker of [one, two, source(store)]) {
        const scan = await worker.scan();
        expect(scan.diagnostics).toEqual([]);
        const described = (name: string) => scan.skills.find((skill) => skill.name === name)?.description;
        expect([described("skill-20"), described("skill-21")]).toEqual([
          "Handles task 20, now with a diagram.",
          "Handles task 21, now in Welsh.",
        ]);
      }
    } finally {
      await Promise.all([storeOne!.stop(), storeTwo!.stop()]);
    }
  }, 60_000);

  it("a store that is down when a worker starts: its agent answers with an empty catalog and an error naming the store, and the catalog appears once the store answers", async () => {
    await source(store).refresh();
    const proxy = await closedPort();
    const url = new URL(TEST_PG_URL);
    url.port = String(proxy.port);
    const unreachable = PostgresStore.fromConnString(url.toString(), { schema: SCHEMA, ensureTables: false });
    const fleetSource = source(unreachable, { storeName: url.toString() });
    const model = fakeModel().respond(new AIMessage("ok"));
    const agent = createAgent({ model, middleware: [createSkillsMiddleware({ sources: [fleetSource] })] });
    try {
      const down = await fleetSource.scan();
      expect(down.skills).toEqual([]);
      expect(down.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
        [
          "store-unavailable",
          expect.stringMatching(
            new RegExp(
              `^The skill store ${escape(url.toString())} did not answer \\(reading ${escape(HEAD)} in \\["skillset","snapshots"\\], 2 tries\\): .*ECONNREFUSED.*; the next scan tries again$`,
            ),
          ),
        ],
      ]);
      const answer = await agent.invoke({ messages: [{ role: "user", content: "hello" }] });
      expect(answer.messages.at(-1)?.content).toBe("ok");

      // The store comes back (a proxy to the real server opens on that port).
      await proxy.open(new URL(TEST_PG_URL));
      const up = await fleetSource.scan();
      expect(up.diagnostics).toEqual([]);
      expect(up.skills).toHaveLength(200);
    } finally {
      await unreachable.stop();
      await proxy.close();
    }
  }, 60_000);

  // Runs the refresher and kills it when `killWhen` matches a line it printed.
  async function runRefresher(
    options: { holdAfterSnapshot?: boolean; abandonedAfterMs?: number },
    killWhen: (line: string) => boolean,
  ) {
    const child = spawn(
      process.execPath,
      [REFRESHER, JSON.stringify({ url: TEST_PG_URL, schema: SCHEMA, ...options })],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const lines: string[] = [];
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        if (killWhen(line)) child.kill("SIGKILL");
      }
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    if (signal !== "SIGKILL" && code !== 0) throw new Error(`the refresher failed (${code}):\n${stderr}`);
    return { lines, code, signal };
  }
});

async function writeSkill(store: PostgresStore, name: string, description: string) {
  const now = new Date().toISOString();
  await store.put(["library"], `/skills/${name}/SKILL.md`, {
    content: skillText(name, description),
    created_at: now,
    modified_at: now,
  });
}

// A port nothing listens on, which `open` later turns into a proxy to the real server.
async function closedPort() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  let server: Server | undefined;
  return {
    port,
    open(target: URL) {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        client.pipe(upstream).pipe(client);
        const end = () => (client.destroy(), upstream.destroy());
        client.on("error", end);
        upstream.on("error", end);
      });
      return new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    close: () => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined))),
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
