import { parseDocument } from "yaml";
import { CliError } from "../cli-error.js";
import { invalidCases, parseCasesDocument } from "./cases-document.js";

/** One query of a trigger eval (agentskills.io's format): a user request, and whether the skill should load for it. */
export interface TriggerQuery {
  query: string;
  shouldTrigger: boolean;
}

/**
 * Where a skill keeps its trigger evals, below its folder: the `evals/` folder agentskills.io
 * uses for a skill's evals, and the file name of its guide to optimizing descriptions.
 */
export const TRIGGER_EVALS_FILE = "evals/eval_queries.json";

const QUERY_KEYS = new Set(["query", "should_trigger"]);

/**
 * Whether the text of an eval file is in agentskills.io's trigger-eval format rather than
 * skillset's cases format: a list whose first entry is a mapping with `query` or
 * `should_trigger`. Text that parses as neither is left to the cases parser, which names the problem.
 */
export function isTriggerEvals(text: string): boolean {
  const document = parseDocument(text);
  if (document.errors.length > 0) return false;
  let root: unknown;
  try {
    root = document.toJS({ maxAliasCount: 100 });
  } catch {
    return false;
  }
  const first: unknown = Array.isArray(root) ? root[0] : undefined;
  return isRecord(first) && ("query" in first || "should_trigger" in first);
}

/**
 * Parses a trigger-eval file: a JSON (or YAML) list of `{ "query": text, "should_trigger": true | false }`.
 * Every problem is reported at once in one `invalid-cases` error naming the file and each query
 * by its place; an unknown key is a problem too (nothing in the file is silently ignored).
 */
export function parseTriggerEvals(text: string, file: string): TriggerQuery[] {
  const root = parseCasesDocument(text, file);
  if (!Array.isArray(root))
    throw invalidCases(file, ['expected a list of queries, [{ "query": "…", "should_trigger": true }, …]']);
  if (root.length === 0) throw invalidCases(file, ["there are no queries"]);

  const problems: string[] = [];
  const queries: TriggerQuery[] = [];
  const seen = new Map<string, number>();
  root.forEach((entry: unknown, index) => {
    const label = `query ${index + 1}`;
    if (!isRecord(entry)) {
      problems.push(`${label}: expected a mapping with 'query' and 'should_trigger'`);
      return;
    }
    const before = problems.length;
    const unknown = Object.keys(entry).filter((key) => !QUERY_KEYS.has(key));
    if (unknown.length > 0)
      problems.push(
        `${label}: unknown ${unknown.length === 1 ? "key" : "keys"} ${unknown.map((key) => `'${key}'`).join(", ")}; a query has query and should_trigger`,
      );
    const query = entry.query;
    if (typeof query !== "string" || !query.trim()) problems.push(`${label}: 'query' must be non-empty text`);
    else if (seen.has(query)) problems.push(`${label}: the same query as query ${seen.get(query)}`);
    else seen.set(query, index + 1);
    if (typeof entry.should_trigger !== "boolean") problems.push(`${label}: 'should_trigger' must be true or false`);
    if (problems.length === before)
      queries.push({ query: query as string, shouldTrigger: entry.should_trigger as boolean });
  });
  if (problems.length > 0) throw invalidCases(file, problems);
  return queries;
}

/**
 * Throws why `--skill` cannot be used with `casesText` (undefined for a folder), a file that is
 * not in the trigger-eval format: the file's parse error when it does not parse at all (a
 * trigger-eval file with a typo), else a usage error saying what `--skill` is for.
 */
export function refuseSkillOption(casesText: string | undefined, file: string): never {
  if (casesText !== undefined) parseCasesDocument(casesText, file);
  throw new CliError(
    "usage",
    "--skill names the skill a trigger-eval file (query, should_trigger) measures; it applies to such a file only",
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
