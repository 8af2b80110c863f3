/**
 * Lets the event loop run (I/O, timers, other requests) before going on: `setImmediate` where
 * there is one (Node), since a timer of 0 ms waits about 1 ms there; a timer elsewhere (core
 * runs in browsers too).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resume) => (typeof setImmediate === "function" ? setImmediate(resume) : setTimeout(resume, 0)));
}
