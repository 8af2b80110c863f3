import { nextTurn } from "./event-loop-turn.js";

/** Cuts long synchronous work into slices so that other callbacks run in between. */
export interface TimeSlice {
  /** True once the current slice has run for its time. Cheap: call it after every item. */
  due(): boolean;
  /** Lets the event loop run (timers, I/O, other requests), then starts a new slice. */
  pause(): Promise<void>;
}

/**
 * A {@link TimeSlice} of `sliceMs` milliseconds. Discovery does its file I/O synchronously,
 * which is several times faster than `fs.promises` for thousands of small reads, and pauses
 * between slices so that a cold scan never holds the event loop for long; the catalog merges
 * sources the same way.
 */
export function createTimeSlice(sliceMs: number): TimeSlice {
  return new Slice(sliceMs);
}

// A class, so that `due`, asked after every item, is one function for every scan (closures made
// per scan would each start unoptimised).
class Slice implements TimeSlice {
  readonly #sliceMs: number;
  #start = performance.now();

  constructor(sliceMs: number) {
    this.#sliceMs = sliceMs;
  }

  due(): boolean {
    return performance.now() - this.#start >= this.#sliceMs;
  }

  async pause(): Promise<void> {
    await nextTurn();
    this.#start = performance.now();
  }
}

// V8 drops the optimised code that reads this class's objects once none is left (after every
// scan, at the next garbage collection), and the next scan starts unoptimised. One object kept
// for the life of the process keeps their layout, and the code.
const _layoutKeeper = new Slice(0);
