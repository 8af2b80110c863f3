// What some tests need beyond the repository, and whether they run here. A user's clone has
// no ../shared corpus, maybe no PostgreSQL server, no python3 and no Chromium: those tests skip
// there (the global setup prints one line per missing thing). Under CI=true nothing skips: a
// missing requirement makes its tests fail.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { resolve } from "node:path";

/** The shared corpus of real skills, beside the checkout. */
export const SHARED_CORPUS = resolve(import.meta.dirname, "../../../shared/corpus");

/** The PostgreSQL server the persistence tests use. */
export const TEST_PG_URL = process.env.SKILLSET_TEST_PG_URL || "postgresql://postgres@127.0.0.1:5432/test";

const PG_PROBE_MS = 1_000;

/** Whether this run is CI (`CI` set to anything but `""`, `0` or `false`), where nothing may skip. */
export function isCI(): boolean {
  const value = (process.env.CI ?? "").trim().toLowerCase();
  return value !== "" && value !== "0" && value !== "false";
}

/**
 * Whether the corpus tests run: true when ../shared/corpus exists, false when it does not and
 * this is not CI. Under CI a missing corpus throws, so the test file fails instead of skipping.
 */
export function useSharedCorpus(): boolean {
  if (existsSync(SHARED_CORPUS)) return true;
  if (isCI())
    throw new Error(
      `The shared corpus is missing at ${SHARED_CORPUS}; under CI=true the corpus tests must run, not skip.`,
    );
  return false;
}

/** The corpus's repository folders (`owner+name`), sorted, as absolute paths. */
export function corpusRepositories(): string[] {
  return readdirSync(SHARED_CORPUS)
    .filter((name) => name.includes("+"))
    .sort()
    .map((name) => resolve(SHARED_CORPUS, name));
}

/** Whether something accepts TCP connections at the host and port of `url` within `timeoutMs`. */
export function isListening(url: string, timeoutMs = PG_PROBE_MS): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
      port: Number(port || 5432),
      timeout: timeoutMs,
    });
    const finish = (listening: boolean) => {
      socket.destroy();
      done(listening);
    };
    socket.once("connect", () => finish(true));
    socket.once("timeout", () => finish(false));
    socket.once("error", () => finish(false));
  });
}

/** Whether the PostgreSQL tests run: always under CI (they fail without a server), else when one listens. */
export async function usePostgres(): Promise<boolean> {
  return isCI() || (await isListening(TEST_PG_URL));
}

/** Whether `python3` runs from the PATH given (the current one by default). */
export function hasPython3(path = process.env.PATH ?? ""): boolean {
  return spawnSync("python3", ["--version"], { env: { ...process.env, PATH: path }, stdio: "ignore" }).status === 0;
}

/** Whether the tests that need python3 run: always under CI (they fail without it), else when it is found. */
export function usePython3(): boolean {
  return isCI() || hasPython3();
}

/** The system's Chromium (Debian's package), which the HTML reports' browser tests drive. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether the browser tests run: true when Chromium is installed, false when it is not and this
 * is not CI. Under CI a missing browser throws, so the test file fails instead of skipping.
 */
export function useChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (isCI())
    throw new Error(`Chromium is missing at ${CHROMIUM}; under CI=true the browser tests must run, not skip.`);
  return false;
}

/** One line for each group of tests that will skip in this run, saying how to run it. */
export async function skipNotices(): Promise<string[]> {
  if (isCI()) return [];
  const notices: string[] = [];
  if (!existsSync(SHARED_CORPUS))
    notices.push(
      `Skipping the real-skills corpus tests: no corpus at ${SHARED_CORPUS} (the project's ../shared folder; CI=true requires it).`,
    );
  if (!(await isListening(TEST_PG_URL))) {
    notices.push(
      `Skipping the PostgreSQL tests: nothing listens at ${TEST_PG_URL}; start a server there or set SKILLSET_TEST_PG_URL (CI=true requires one).`,
    );
  }
  if (!existsSync(CHROMIUM))
    notices.push(
      `Skipping the HTML reports' browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium; CI=true requires it).`,
    );
  if (!hasPython3()) notices.push("Skipping the demo's python3 run: python3 is not on the PATH (CI=true requires it).");
  return notices;
}
