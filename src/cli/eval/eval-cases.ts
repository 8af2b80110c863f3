import { readFileSync } from "node:fs";
import { CliError } from "../cli-error.js";
import { invalidCases, parseCasesDocument } from "./cases-document.js";

/** One request of a skill-selection eval, and the skills it should load. */
export interface EvalCase {
  id: string;
  /** The first user message. */
  request: string;
  /** The skills the agent should load over the whole case, sorted; empty when none. */
  expected: string[];
  /** Further user messages, each sent after the agent has answered the previous one. */
  turns: string[];
  /** Drafted by `--generate` and not reviewed yet. */
  draft: boolean;
}

const CASE_KEYS = new Set(["id", "request", "expected", "turns", "draft"]);

/** The text of a cases file, or a `cannot-read` error naming it. */
export function readCasesFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      "cannot-read",
      code === "ENOENT" ? `No such cases file: ${file}` : `Cannot read ${file}: ${code ?? String(error)}`,
    );
  }
}

/**
 * Parses the text of a cases file (YAML, or JSON, which is YAML too): a list of cases, or
 * `{ cases: [...] }`. Each case has `request` (text), `expected` (a skill name, a list of them,
 * or `none` / `[]`), and optionally `id` (default `case-<n>`), `turns` (further user messages)
 * and `draft`. With `skills`, the names the sources have, a case expecting another skill
 * (most likely a typo) is a problem too. Every problem is reported at once, in one
 * `invalid-cases` error naming each case; an unknown key is a problem (a typo of `expected`
 * must not pass as "expects nothing"). `file` names the file in the error.
 */
export function parseEvalCases(text: string, file: string, skills?: readonly string[]): EvalCase[] {
  const root = parseCasesDocument(text, file);
  const list = Array.isArray(root)
    ? root
    : isRecord(root) && Array.isArray(root.cases) && Object.keys(root).length === 1
      ? root.cases
      : undefined;
  if (!list) throw invalidCases(file, ["expected a list of cases, or a mapping with only the key 'cases' holding one"]);
  if (list.length === 0) throw invalidCases(file, ["there are no cases"]);

  const problems: string[] = [];
  const cases: EvalCase[] = [];
  const ids = new Set<string>();
  list.forEach((entry: unknown, index) => {
    const label = `case ${index + 1}`;
    if (!isRecord(entry)) {
      problems.push(`${label}: expected a mapping with 'request' and 'expected'`);
      return;
    }
    const id = entry.id === undefined ? `case-${index + 1}` : entry.id;
    const named = typeof id === "string" && id.trim() ? `${label} (${id})` : label;
    const unknown = Object.keys(entry).filter((key) => !CASE_KEYS.has(key));
    if (unknown.length > 0)
      problems.push(
        `${named}: unknown ${unknown.length === 1 ? "key" : "keys"} ${unknown.map((key) => `'${key}'`).join(", ")}; a case has id, request, expected, turns and draft`,
      );
    if (typeof id !== "string" || !id.trim()) problems.push(`${label}: 'id' must be non-empty text`);
    else if (ids.has(id)) problems.push(`${named}: the id '${id}' is used by an earlier case`);
    else ids.add(id);
    if (typeof entry.request !== "string" || !entry.request.trim())
      problems.push(`${named}: 'request' must be non-empty text`);
    const expected = readExpected(entry.expected);
    if (typeof expected === "string") problems.push(`${named}: ${expected}`);
    else if (skills) problems.push(...unknownSkills(expected, skills).map((problem) => `${named}: ${problem}`));
    const turns = entry.turns ?? [];
    const turnsOk = Array.isArray(turns) && turns.every((turn) => typeof turn === "string" && turn.trim());
    if (!turnsOk) problems.push(`${named}: 'turns' must be a list of non-empty messages`);
    if (entry.draft !== undefined && typeof entry.draft !== "boolean")
      problems.push(`${named}: 'draft' must be true or false`);
    if (problems.length === 0 && typeof expected !== "string") {
      cases.push({
        id: id as string,
        request: entry.request as string,
        expected,
        turns: turns as string[],
        draft: entry.draft === true,
      });
    }
  });
  if (problems.length > 0) throw invalidCases(file, problems);
  return cases;
}

// The expected skills none of the sources has, each as a problem.
function unknownSkills(expected: readonly string[], skills: readonly string[]): string[] {
  return expected
    .filter((name) => !skills.includes(name))
    .map(
      (name) => `expects the skill '${name}', which none of the sources has (skills: ${skills.join(", ") || "none"})`,
    );
}

// A skill name, a list of names, `none` or `[]`; else the problem.
function readExpected(value: unknown): string[] | string {
  if (value === undefined)
    return "'expected' is missing: give the skill that should be loaded, a list of them, or none";
  if (value === "none") return [];
  const names = typeof value === "string" ? [value] : value;
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string" && /^\S+$/.test(name))) {
    return "'expected' must be a skill name, a list of skill names, or none";
  }
  return [...new Set(names as string[])].sort();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
