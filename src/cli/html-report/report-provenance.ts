import { shellCommand } from "../shell-command.js";
import type { ReportProvenance } from "./html-page.js";

/**
 * What produced a report: the command line as it was run (with any `user:password@` of a URL
 * hidden, since the page may be attached to a CI run), the model, and the time, which
 * `SOURCE_DATE_EPOCH` fixes for reproducible pages.
 */
export function reportProvenance(
  model: string | undefined,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): ReportProvenance {
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const date = env.SOURCE_DATE_EPOCH && Number.isInteger(epoch) ? new Date(epoch * 1000) : new Date();
  return {
    command: shellCommand(argv.map((arg) => arg.replace(/(\/\/)[^/@\s]*@/g, "$1…@"))),
    date: date.toISOString(),
    ...(model === undefined ? {} : { model }),
  };
}
