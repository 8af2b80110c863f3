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
 * between slices so that a cold scan never holds the event loop for long.
 */
export function createTimeSlice(sliceMs: number): TimeSlice {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= sliceMs,
    async pause() {
      await new Promise<void>((done) => setImmediate(done));
      start = performance.now();
    },
  };
}
