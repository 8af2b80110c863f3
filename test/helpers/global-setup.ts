// Runs once per `vitest run` (vitest.config.ts, globalSetup): says which groups of tests skip here
// and why, once, instead of once per file or per test.
import { skipNotices } from "./test-environment.js";

export default async function announceSkippedTests(): Promise<void> {
  for (const notice of await skipNotices()) console.warn(notice);
}
