import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempTree } from "../../test/helpers/skill-tree.js";
import { createLocalWatchState, stopWatching, syncWatchers, type LocalWatchState } from "./local-watch.js";
import type { TimeSlice } from "../core/time-slice.js";

let trees: Array<ReturnType<typeof tempTree>> = [];
let states: LocalWatchState[] = [];
afterEach(() => {
  for (const state of states) stopWatching(state);
  for (const tree of trees) tree.cleanup();
  states = [];
  trees = [];
});

const neverDue: TimeSlice = { due: () => false, pause: async () => {} };

function setup() {
  const tree = tempTree();
  trees.push(tree);
  const root = realpathSync(tree.root);
  const [a, b, c] = ["a", "b", "c"].map((name) => join(root, name));
  for (const folder of [a!, b!, c!]) mkdirSync(folder);
  const state = createLocalWatchState();
  states.push(state);
  state.watching = true;
  return { root, a: a!, b: b!, c: c!, state };
}

describe("local watch state", () => {
  it("starts watching nothing, and dirty", () => {
    const state = createLocalWatchState();
    expect({
      watchers: [...state.watchers.keys()],
      watching: state.watching,
      problem: state.problem,
      dirty: state.dirty,
    }).toEqual({ watchers: [], watching: false, problem: undefined, dirty: true });
  });

  it("syncWatchers watches exactly the folders given, closing the others; a new watcher marks the state dirty", async () => {
    const { a, b, c, state } = setup();
    state.dirty = false;
    await syncWatchers(state, [a, b], neverDue);
    expect([...state.watchers.keys()]).toEqual([a, b]);
    expect(state.dirty).toBe(true);
    const closeA = vi.spyOn(state.watchers.get(a)!, "close");
    const watcherB = state.watchers.get(b);
    state.dirty = false;
    await syncWatchers(state, [b, c], neverDue);
    expect([...state.watchers.keys()]).toEqual([b, c]);
    expect(closeA).toHaveBeenCalledTimes(1);
    expect(state.watchers.get(b)).toBe(watcherB);
    expect(state.dirty).toBe(true);
    state.dirty = false;
    await syncWatchers(state, [c, b], neverDue);
    expect(state.dirty).toBe(false);
  });

  it("marks the state dirty when a watched folder changes", async () => {
    const { b, state } = setup();
    await syncWatchers(state, [b], neverDue);
    state.dirty = false;
    writeFileSync(join(b, "new.txt"), "x");
    await vi.waitFor(() => expect(state.dirty).toBe(true), { timeout: 5000 });
  });

  it("records why a folder cannot be watched and stops watching", async () => {
    const { root, a, state } = setup();
    const missing = join(root, "missing");
    await syncWatchers(state, [a], neverDue);
    state.dirty = false;
    await syncWatchers(state, [a, missing], neverDue);
    expect({
      watchers: state.watchers.size,
      watching: state.watching,
      problem: state.problem,
      dirty: state.dirty,
    }).toEqual({
      watchers: 0,
      watching: false,
      problem: `Cannot watch ${missing} (ENOENT); re-scans compare file stamps instead`,
      dirty: true,
    });
  });

  it("pauses when the slice is due, and stops when watching was given up meanwhile", async () => {
    const { a, b, state } = setup();
    let pauses = 0;
    const slice: TimeSlice = {
      due: () => true,
      pause: async () => {
        pauses++;
        state.watching = false;
      },
    };
    await syncWatchers(state, [a, b], slice);
    expect({ pauses, watchers: state.watchers.size }).toEqual({ pauses: 1, watchers: 0 });
  });

  it("pauses as it goes over folders already watched, too, and keeps their watchers", async () => {
    const { a, b, state } = setup();
    await syncWatchers(state, [a, b], neverDue);
    const before = [...state.watchers.values()];
    let pauses = 0;
    const slice: TimeSlice = { due: () => true, pause: async () => void pauses++ };
    await syncWatchers(state, [a, b], slice);
    // Twice over the folders given, once over the watchers: a pause before each of the 6 steps.
    expect(pauses).toBe(6);
    expect([...state.watchers.values()]).toEqual(before);
  });

  it("stopWatching closes every watcher and marks the state dirty", async () => {
    const { a, b, state } = setup();
    await syncWatchers(state, [a, b], neverDue);
    const closes = [...state.watchers.values()].map((watcher) => vi.spyOn(watcher, "close"));
    state.dirty = false;
    stopWatching(state);
    expect(closes.map((close) => close.mock.calls.length)).toEqual([1, 1]);
    expect({ watchers: state.watchers.size, watching: state.watching, dirty: state.dirty }).toEqual({
      watchers: 0,
      watching: false,
      dirty: true,
    });
  });
});
