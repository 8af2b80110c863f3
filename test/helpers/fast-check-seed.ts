// Loaded before every test file (vitest.config.ts, setupFiles). Every fast-check property in a
// file runs from one seed: SKILLSET_FC_SEED when it is set, to replay a failure, otherwise a
// fresh one. When a property fails, one line says how to replay that very run.
import fc from "fast-check";
import { beforeEach } from "vitest";

const seed = propertySeed();
fc.configureGlobal({ seed });

let replayShown = false;
beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const propertyFailed = task.result?.errors?.some((error) => String(error.message).includes("Property failed"));
    if (!propertyFailed || replayShown) return;
    replayShown = true;
    console.error(`fast-check seed ${seed}; replay with: SKILLSET_FC_SEED=${seed} npx vitest run ${task.file.name}`);
  });
});

function propertySeed(): number {
  const given = process.env.SKILLSET_FC_SEED;
  if (given === undefined || given === "") return Math.floor(Math.random() * 2 ** 31);
  const parsed = Number(given);
  if (!Number.isSafeInteger(parsed))
    throw new Error(`SKILLSET_FC_SEED must be an integer, got ${JSON.stringify(given)}`);
  return parsed;
}
