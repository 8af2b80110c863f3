import { parseDocument } from "yaml";
import type { Diagnostic } from "../diagnostic.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { quoteBracketedArgumentHint } from "./bracketed-argument-hint.js";
import { yamlBoundsProblem } from "./frontmatter-yaml.js";
import { parseSkillDocument, type SkillDocument } from "./skill-document.js";

/** Records one problem found while reading a `SKILL.md` leniently. */
export type ReportProblem = (severity: Diagnostic["severity"], code: string, message: string) => void;

// Parses with the repairs skills written for laxer readers need: a bracketed `argument-hint`
// read as the text written, values that are not valid YAML quoted.
export function parseLeniently(original: string, report: ReportProblem): SkillDocument | undefined {
  const quotedHint = quoteBracketedArgumentHint(original);
  if (quotedHint) report("warning", "argument-hint-text", quotedHint.message);
  const text = quotedHint?.text ?? original;
  try {
    return parseSkillDocument(text, "lenient");
  } catch (error) {
    if (!SkillsetError.isInstance(error)) throw error;
    if (error.code === "invalid-yaml") {
      // Skills written for laxer parsers often have unquoted values containing ": " (client guide).
      const repaired = quoteInvalidValues(text);
      if (repaired !== text) {
        try {
          const document = parseSkillDocument(repaired, "lenient");
          report("warning", "yaml-repaired", `${error.message}; read after quoting the values that are not valid YAML`);
          return document;
        } catch {
          // fall through to the original error
        }
      }
    }
    report("error", error.code, error.message);
    return undefined;
  }
}

const TOP_LEVEL_ENTRY = /^([A-Za-z][A-Za-z0-9_-]*):[ \t]+([^'"|>\s#].*)$/;
// The repair parses each line on its own: bounded so a hostile file cannot make it slow.
const MAX_REPAIRED_LINES = 50;

// Quotes each one-line top-level value that is not valid YAML on its own, such as
// `description: Use when: ...` or Claude Code's `argument-hint: [file] [mode]`.
function quoteInvalidValues(text: string): string {
  const lines = text.split("\n");
  let changed = 0;
  for (let i = 1; i < lines.length && lines[i]!.trimEnd() !== "---"; i++) {
    const match = TOP_LEVEL_ENTRY.exec(lines[i]!.replace(/\r$/, ""));
    if (!match || (lines[i + 1] ?? "").startsWith(" ")) continue;
    const value = match[2]!.trimEnd();
    if (
      yamlBoundsProblem(value) ||
      parseDocument(`k: ${value}`, { schema: "failsafe", logLevel: "error" }).errors.length === 0
    )
      continue;
    if (++changed > MAX_REPAIRED_LINES) return text;
    lines[i] = `${match[1]}: ${JSON.stringify(value)}`;
  }
  return changed > 0 ? lines.join("\n") : text;
}
