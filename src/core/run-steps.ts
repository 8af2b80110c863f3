import { nextTurn } from "./event-loop-turn.js";

/** Runs `steps` (a generator that stops between passes of long work) to its end, at once. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Runs `steps` to its end, letting the event loop run between steps when `pause` is true. */
export async function runStepsInTurns<T>(steps: Generator<void, T, void>, pause: boolean): Promise<T> {
  let step = steps.next();
  while (!step.done) {
    if (pause) await nextTurn();
    step = steps.next();
  }
  return step.value;
}
