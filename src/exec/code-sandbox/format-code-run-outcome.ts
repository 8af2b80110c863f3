import type { CodeLimits } from "./code-limits.js";
import type { CodeRunErrorKind, CodeRunOutcome } from "./code-run-outcome.js";

/**
 * The text the model reads for a run: its logs, then the returned value as JSON (or the error as a
 * sentence saying which limit or problem stopped it and what to do instead), then notes about the
 * sandbox. Logs and value together stay within `limits.maxResultChars`; what is cut is said, with how much.
 */
export function formatCodeRunOutcome(outcome: CodeRunOutcome, limits: CodeLimits): string {
  const max = limits.maxResultChars;
  const sections: string[] = [];
  const json = outcome.ok ? (outcome.json ?? "") : "";
  const logChars = outcome.logs.reduce((sum, line) => sum + line.length + 1, 0);
  // Neither starves the other: the value keeps at least half the room, the logs what the value leaves.
  const valueRoom = max - Math.min(logChars, Math.floor(max / 2));
  const shownJson = json.slice(0, valueRoom);
  const logs = cutLogs(outcome.logs, max - shownJson.length);
  if (logs.lines.length > 0 || outcome.logsCutChars > 0) {
    const cut = logs.cutChars + outcome.logsCutChars;
    sections.push(
      ["Logs:", ...logs.lines].join("\n") +
        (cut > 0 ? `\n[… ${cut} more characters of logs were cut: the output limit is ${max} characters.]` : ""),
    );
  }
  if (outcome.ok) {
    sections.push(resultSection(outcome.json, shownJson, outcome.jsonChars, max));
  } else {
    sections.push(`Error: ${errorSentence(outcome.error.kind, outcome.error.message, limits)}`);
  }
  for (const note of outcome.notes) sections.push(`Note: ${note}`);
  return sections.join("\n\n");
}

function resultSection(json: string | undefined, shown: string, jsonChars: number, max: number): string {
  if (json === undefined)
    return "Result: undefined (the code returned nothing; use `return value` to send a value back).";
  if (shown.length >= jsonChars) return `Result:\n${shown}`;
  return (
    `Result (JSON, cut):\n${shown}\n[… ${jsonChars - shown.length} of ${jsonChars} characters were cut: the output ` +
    `limit is ${max} characters. Return less (a summary, fewer fields or records) or page through it over several runs.]`
  );
}

function cutLogs(lines: readonly string[], room: number): { lines: string[]; cutChars: number } {
  const kept: string[] = [];
  let used = 0;
  let cutChars = 0;
  for (const line of lines) {
    const left = room - used;
    if (left <= 0) {
      cutChars += line.length;
    } else if (line.length > left) {
      kept.push(line.slice(0, left));
      cutChars += line.length - left;
      used = room;
    } else {
      kept.push(line);
      used += line.length + 1;
    }
  }
  return { lines: kept, cutChars };
}

const STACK_OVERFLOW = "RangeError: Maximum call stack size exceeded";

/** One sentence (or two) per kind: what happened, the limit when one was hit, and what to do instead. */
function errorSentence(kind: CodeRunErrorKind, message: string, limits: CodeLimits): string {
  switch (kind) {
    case "syntax":
      return `the code does not parse. ${message}. Fix it and run it again.`;
    case "thrown":
      return message.startsWith(STACK_OVERFLOW)
        ? `the code threw an error it did not catch: ${message}\nThe sandbox allows a few hundred nested calls: use a loop instead of deep recursion, and keep data less deeply nested.`
        : `the code threw an error it did not catch: ${message}`;
    case "import":
      return `an import failed. ${message}`;
    case "timeout":
      return (
        `the code ran past its ${seconds(limits.timeoutMs)} limit and was stopped. Do less in one run (fewer ` +
        `items, no busy or waiting loops) and return partial results, or split the work over several runs.`
      );
    case "memory":
      return (
        `the code used more than its ${mebibytes(limits.memoryBytes)} memory limit and was stopped. Keep less in ` +
        `memory: handle items one at a time and return a summary rather than everything.`
      );
    case "tool-calls":
      return (
        `the code called tools more than ${limits.maxToolCalls} times in one run and was stopped. Make fewer ` +
        `calls per run: handle part of the items, return what you have, and continue in another run.`
      );
    case "result":
      return `${message} Return plain data (objects, arrays, strings, numbers, booleans, null) without cycles or BigInt.`;
    case "stalled":
      return `${message} Await only promises that settle, such as tool calls and imports.`;
    case "crashed":
      return `the sandbox itself failed while running the code (${message}). Run it again; if it keeps failing, simplify the code.`;
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function mebibytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`;
}
