// What several workers sharing one snapshot do to each other, each interleaving forced by stopping
// one of them at a chosen store call (test/helpers/snapshot-library.ts): writers killed or slow
// between their snapshot and their head, readers between the head and the snapshot, and two
// workers correcting different skills at the same moment. PostgreSQL versions of the races are in
// test/langchain/fleet-snapshot.int.test.ts.
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  HEAD,
  SNAPSHOTS,
  barrier,
  gatedStore,
  headGeneration,
  isBodyKey,
  isHeadCall,
  isSnapshotCall,
  keysIn,
  nextMillisecond,
  pausePoint,
  skillText,
  snapshotWorker,
  storedGenerations,
  writeFile,
  type StoreCall,
} from "../../../test/helpers/snapshot-library.js";

const CORRECTIONS = [...SNAPSHOTS, "corrections"];
const names = (scan: { skills: readonly { name: string }[] }) => scan.skills.map((skill) => skill.name);
const descriptions = (scan: { skills: readonly { description: string }[] }) =>
  scan.skills.map((skill) => skill.description);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function twoSkills() {
  const store = new InMemoryStore();
  await writeFile(store, "/skills/alpha/SKILL.md", skillText("alpha"));
  await writeFile(store, "/skills/beta/SKILL.md", skillText("beta"));
  return store;
}

// Stops the first call after the writer stored a snapshot (before it reads or writes the head).
function afterSnapshotPut() {
  const pause = pausePoint();
  let stored = false;
  let paused = false;
  const gate = (call: StoreCall) => {
    if (stored && !paused) return ((paused = true), pause.wait());
    if (call.method === "put" && isBodyKey(call.key)) stored = true;
  };
  return { pause, gate };
}

afterEach(() => vi.useRealTimers());

describe("createSnapshotSource: snapshots no head names are deleted, and only those", () => {
  it("a writer killed between its snapshot and its head leaves it behind; a later writer deletes it once it is older than abandonedAfterMs", async () => {
    const store = await twoSkills();
    const first = await snapshotWorker(store).source.refresh();
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    // The head is never written: the writer stops there for good, as a killed process does.
    const killedAt = pausePoint();
    const killed = snapshotWorker(store, {
      store: gatedStore(store, (call) => (isHeadCall(call, "put") ? killedAt.wait() : undefined)),
    });
    void killed.source.refresh();
    await killedAt.reached;
    const [orphan] = (await storedGenerations(store)).filter((generation) => generation !== first.generation);
    expect(orphan).toMatch(/^[0-9a-f]{64}$/);
    expect(await headGeneration(store)).toBe(first.generation);

    // A writer soon after cannot tell a killed writer from a slow one: it keeps the orphan.
    await writeFile(store, "/skills/delta/SKILL.md", skillText("delta"));
    const soon = await snapshotWorker(store).source.refresh();
    expect(await storedGenerations(store)).toEqual([first.generation, orphan!, soon.generation].sort());

    // Eleven minutes later (the default is ten), the next writer deletes it, and the snapshot
    // two heads back; it keeps its own and the one it replaced.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60_000);
    await writeFile(store, "/skills/epsilon/SKILL.md", skillText("epsilon"));
    const later = await snapshotWorker(store).source.refresh();
    expect(await storedGenerations(store)).toEqual([soon.generation, later.generation].sort());
    expect(await keysIn(store, [...SNAPSHOTS, "writers"])).toHaveLength(2);
    expect(names(await snapshotWorker(store).source.scan())).toEqual(["alpha", "beta", "delta", "epsilon", "gamma"]);
  });

  it("abandonedAfterMs that is no number of milliseconds is refused when the source is made", async () => {
    const store = await twoSkills();
    for (const abandonedAfterMs of [-1, Number.NaN, "600000"])
      expect(() => snapshotWorker(store, { abandonedAfterMs: abandonedAfterMs as number })).toThrow(
        `createSnapshotSource: abandonedAfterMs must be a number of milliseconds, 0 or more (got ${typeof abandonedAfterMs === "string" ? `"${abandonedAfterMs}"` : String(abandonedAfterMs)})`,
      );
  });

  it("refreshes of a changing library keep two snapshots: the current one and the one it replaced", async () => {
    const store = await twoSkills();
    const generations: string[] = [];
    for (const name of ["gamma", "delta", "epsilon", "zeta"]) {
      await writeFile(store, `/skills/${name}/SKILL.md`, skillText(name));
      generations.push((await snapshotWorker(store).source.refresh()).generation);
      expect(await storedGenerations(store)).toEqual(generations.slice(-2).sort());
    }
  });

  it("a snapshot an older skillset wrote (no writer's item names it) is deleted like any other once two heads replaced it", async () => {
    const store = await twoSkills();
    const old = await snapshotWorker(store).source.refresh();
    // As an older skillset leaves the store: the head without its scan's time, and no writers' items.
    const { since: _since, ...head } = (await store.get(SNAPSHOTS, HEAD))!.value;
    await store.put(SNAPSHOTS, HEAD, head);
    for (const key of await keysIn(store, [...SNAPSHOTS, "writers"]))
      await store.delete([...SNAPSHOTS, "writers"], key);
    const generations = [old.generation];
    for (const name of ["gamma", "delta"]) {
      await writeFile(store, `/skills/${name}/SKILL.md`, skillText(name));
      generations.push((await snapshotWorker(store).source.refresh()).generation);
    }
    expect(await storedGenerations(store)).toEqual(generations.slice(1).sort());
  });

  it("two writers at once: the one between its snapshot and its head keeps its snapshot through the other's clean-up, and its older scan does not replace the newer head", async () => {
    const store = await twoSkills();
    const first = await snapshotWorker(store).source.refresh();
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    const { pause, gate } = afterSnapshotPut();
    const slow = snapshotWorker(store, { store: gatedStore(store, gate) });
    const slowRefresh = slow.source.refresh();
    await pause.reached;
    const [slowGeneration] = (await storedGenerations(store)).filter((generation) => generation !== first.generation);

    // Meanwhile another writer scans the library, changed again, and writes its snapshot.
    await writeFile(store, "/skills/delta/SKILL.md", skillText("delta"));
    await nextMillisecond();
    const fast = await snapshotWorker(store).source.refresh();
    expect(await storedGenerations(store)).toEqual([first.generation, slowGeneration!, fast.generation].sort());

    pause.release();
    expect(await slowRefresh).toEqual({ generation: fast.generation, skills: 4, written: false });
    expect(await headGeneration(store)).toBe(fast.generation);
    expect(await storedGenerations(store)).toEqual([first.generation, fast.generation].sort());
    expect(names(await slow.source.scan())).toEqual(["alpha", "beta", "delta", "gamma"]);
  });

  // A worker that stops at its first read of a snapshot, after its first read of the head.
  function readerStoppedAtSnapshot(store: InMemoryStore) {
    const counts = { headReads: 0 };
    const atBody = pausePoint();
    const worker = snapshotWorker(store, {
      store: gatedStore(store, (call) => {
        if (isHeadCall(call, "get")) counts.headReads++;
        if (call.method === "get" && isBodyKey(call.key) && counts.headReads === 1) return atBody.wait();
      }),
    });
    return { ...worker, atBody, counts };
  }

  it("a worker that read the head just before a writer replaced it still reads the snapshot it named; one that waited through two writes reads the head again", async () => {
    const store = await twoSkills();
    await snapshotWorker(store).source.refresh();
    const reader = readerStoppedAtSnapshot(store);
    const scanning = reader.source.scan();
    await reader.atBody.reached;
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    await snapshotWorker(store).source.refresh();
    reader.atBody.release();
    expect(names(await scanning)).toEqual(["alpha", "beta"]);
    expect(reader.counts.headReads).toBe(1);
    expect(names(await reader.source.scan())).toEqual(["alpha", "beta", "gamma"]);

    // Two writes while it waits: the snapshot it wanted is gone, so it reads the head again.
    const late = readerStoppedAtSnapshot(store);
    const lateScan = late.source.scan();
    await late.atBody.reached;
    for (const name of ["delta", "epsilon"]) {
      await writeFile(store, `/skills/${name}/SKILL.md`, skillText(name));
      await snapshotWorker(store).source.refresh();
    }
    late.atBody.release();
    expect(names(await lateScan)).toEqual(["alpha", "beta", "delta", "epsilon", "gamma"]);
    expect(late.counts.headReads).toBe(2);
    expect(late.calls.glob).toBe(0);
  });
});

describe("createSnapshotSource: corrections of single skills by workers at the same moment", () => {
  const changedAlpha = skillText("alpha", "Use alpha for the new alpha tasks.");
  const changedBeta = skillText("beta", "Use beta for the new beta tasks.");
  // Each worker's first write waits until the other's is about to happen too.
  const racingWorkers = (store: InMemoryStore) => {
    const together = barrier(2);
    const gate = (call: StoreCall) => (call.method === "put" && isSnapshotCall(call) ? together.wait() : undefined);
    return [
      snapshotWorker(store, { store: gatedStore(store, gate) }),
      snapshotWorker(store, { store: gatedStore(store, gate) }),
    ];
  };

  it("two workers that each find a different skill changed behind the snapshot's back both keep their correction", async () => {
    const store = await twoSkills();
    await snapshotWorker(store).source.refresh();
    const [one, two] = racingWorkers(store);
    const [scanOne, scanTwo] = await Promise.all([one!.source.scan(), two!.source.scan()]);
    await writeFile(store, "/skills/alpha/SKILL.md", changedAlpha);
    await writeFile(store, "/skills/beta/SKILL.md", changedBeta);
    const [alpha, beta] = await Promise.all([
      one!.source.readSkill(scanOne.skills[0]!),
      two!.source.readSkill(scanTwo.skills[1]!),
    ]);
    expect([text(alpha), text(beta)]).toEqual([changedAlpha, changedBeta]);
    const expected = ["Use alpha for the new alpha tasks.", "Use beta for the new beta tasks."];
    expect(descriptions(await one!.source.scan())).toEqual(expected);
    expect(descriptions(await two!.source.scan())).toEqual(expected);
    // A joining worker serves both as they are now, each read once and matching its entry.
    const joining = snapshotWorker(store);
    const joined = await joining.source.scan();
    expect(descriptions(joined)).toEqual(expected);
    expect(joined.diagnostics).toEqual([]);
    const served = await Promise.all(joined.skills.map((skill) => joining.source.readSkill(skill)));
    expect(served.map(text)).toEqual([changedAlpha, changedBeta]);
    expect(joining.calls).toEqual({ glob: 0, ls: 0, downloadFiles: 2 });
  });

  it("two publishers refreshing different paths at the same moment (one added, one changed) both reach every worker", async () => {
    const store = await twoSkills();
    const reader = snapshotWorker(store);
    await reader.source.refresh();
    const [one, two] = racingWorkers(store);
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    await writeFile(store, "/skills/beta/SKILL.md", changedBeta);
    const [added, changed] = await Promise.all([
      one!.source.refresh(["/skills/gamma/SKILL.md"]),
      two!.source.refresh(["/skills/beta/SKILL.md"]),
    ]);
    expect([added.written, changed.written]).toEqual([true, true]);
    for (const worker of [reader, one!, two!, snapshotWorker(store)]) {
      const scan = await worker.source.scan();
      expect(names(scan)).toEqual(["alpha", "beta", "gamma"]);
      expect(scan.skills[1]!.description).toBe("Use beta for the new beta tasks.");
    }
  });

  it("a correction made while a full refresh was scanning outlives that refresh's older snapshot", async () => {
    const store = await twoSkills();
    await snapshotWorker(store).source.refresh();
    const loader = snapshotWorker(store);
    const before = await loader.source.scan();
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    // The full refresh has read the library (beta as it was), and stops before its head.
    const { pause, gate } = afterSnapshotPut();
    const full = snapshotWorker(store, { store: gatedStore(store, gate) });
    const refreshing = full.source.refresh();
    await pause.reached;
    await writeFile(store, "/skills/beta/SKILL.md", changedBeta);
    expect(text(await loader.source.readSkill(before.skills[1]!))).toBe(changedBeta);
    pause.release();
    await refreshing;
    const joining = snapshotWorker(store);
    const joined = await joining.source.scan();
    expect(names(joined)).toEqual(["alpha", "beta", "gamma"]);
    expect(joined.skills[1]!.description).toBe("Use beta for the new beta tasks.");
    expect(text(await joining.source.readSkill(joined.skills[1]!))).toBe(changedBeta);
    expect(joining.calls.downloadFiles).toBe(1);
  });

  it("a full refresh that scanned after the corrections folds them in, and they are deleted once older than abandonedAfterMs", async () => {
    const store = await twoSkills();
    const worker = snapshotWorker(store, { abandonedAfterMs: 0 });
    await worker.source.refresh();
    await writeFile(store, "/skills/gamma/SKILL.md", skillText("gamma"));
    const corrected = await worker.source.refresh(["/skills/gamma/SKILL.md"]);
    expect(corrected).toMatchObject({ skills: 3, written: true });
    expect((await keysIn(store, CORRECTIONS)).filter((key) => key !== HEAD)).toEqual([
      `${HEAD}@/skills/gamma/SKILL.md`,
    ]);
    const joined = await snapshotWorker(store).source.scan();
    // The library is what the corrected catalog says: the full refresh writes it as one snapshot.
    await nextMillisecond();
    const full = await worker.source.refresh();
    expect(full).toMatchObject({ skills: 3, written: true });
    expect(await headGeneration(store)).toBe(full.generation);
    expect((await keysIn(store, CORRECTIONS)).filter((key) => key !== HEAD)).toEqual([]);
    expect(await worker.source.refresh()).toEqual({ ...full, written: false });
    const rejoined = await snapshotWorker(store).source.scan();
    expect(rejoined.skills).toEqual(joined.skills);
    expect(rejoined.version).toBe(`${HEAD}#${full.generation.slice(0, 16)}`);
  });

  it("a damaged correction is ignored with a warning naming it, and the next load of its skill writes a sound one", async () => {
    const store = await twoSkills();
    await snapshotWorker(store).source.refresh();
    await writeFile(store, "/skills/beta/SKILL.md", skillText("beta", "Use beta for the new beta tasks."));
    const loader = snapshotWorker(store);
    const before = await loader.source.scan();
    await loader.source.readSkill(before.skills[1]!);
    const key = `${HEAD}@/skills/beta/SKILL.md`;
    const stored = (await store.get(CORRECTIONS, key))!.value as { content: string };
    await store.put(CORRECTIONS, key, { ...stored, content: stored.content.replace("new beta", "evil beta") });
    const joining = snapshotWorker(store);
    const joined = await joining.source.scan();
    expect(descriptions(joined)).toEqual(["Use alpha for alpha tasks.", "Use beta for beta tasks."]);
    expect(joined.diagnostics).toEqual([
      {
        severity: "warning",
        code: "snapshot-unusable",
        file: `test-store:${HEAD}`,
        source: HEAD,
        message: `The catalog snapshot in test-store has an unusable correction (${key}: its content does not match its digest (truncated, corrupted or altered)); it is ignored until that skill is loaded or refreshed again`,
      },
    ]);
    expect(text(await joining.source.readSkill(joined.skills[1]!))).toBe(
      skillText("beta", "Use beta for the new beta tasks."),
    );
    const after = await snapshotWorker(store).source.scan();
    expect(after.diagnostics).toEqual([]);
    expect(after.skills[1]!.description).toBe("Use beta for the new beta tasks.");
  });
});
