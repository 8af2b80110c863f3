import type { TokenCounter } from "../text/count-tokens.js";
import { splitAtBody } from "../skill-file/skill-document.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { PLACEHOLDER_BODY_LINES, placeholderDescription } from "../skill-file/skill-placeholders.js";
import type { SkillFile } from "../skill-source.js";
import type { DoctorFinding } from "./doctor-finding.js";

/**
 * The Agent Skills guidance on a `SKILL.md` body: under 500 lines (agentskills.io/specification,
 * and Anthropic's skill authoring best practices: "Keep SKILL.md body under 500 lines") and
 * under 5,000 tokens (agentskills.io/specification: "< 5000 tokens recommended").
 */
export const RECOMMENDED_BODY_LIMITS = { lines: 500, tokens: 5000 } as const;

// Words that say when to use a skill: "Use when…", "…whenever…", "Use it for…", "if the user…",
// "Triggers on…". A description without any of them usually says only what the skill is.
const WHEN_WORDS =
  /\b(when|whenever|if|before|after|during|trigger(s|ed)?|invoke)\b|\buse (it |this( skill)? )?(for|to|on|with|in)\b|\bfor (requests|tasks|questions)\b/i;

// Files in a skill folder that a body need not name: licences go with the `license` field.
const UNNAMED_OK = /^(LICEN[CS]E|NOTICE|COPYING)(\.[a-z]+)?$/i;

// The skill's own evals (`evals/eval_queries.json` of `skillset eval`) are for its author, not
// the model: `load_skill` lists no resources there and `skillset package` leaves the folder out.
const AUTHOR_ONLY_FOLDER = "evals/";

/**
 * The lint findings of one skill from its `SKILL.md` text and the files of its folder:
 * placeholders left by `skillset create`, a body over the recommended lengths, a description
 * that does not say when to use the skill, and files the body never names (the model finds a
 * resource only through the body) but those of the author's `evals/` folder.
 */
export function lintSkill(
  skill: SkillMetadata,
  text: string,
  files: readonly SkillFile[],
  count: TokenCounter,
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  const at = (
    code: string,
    severity: DoctorFinding["severity"],
    message: string,
    fix: string,
    extra: Partial<DoctorFinding> = {},
  ) => findings.push({ code, severity, skill: skill.name, file: skill.path, message, fix, ...extra });
  const body = splitAtBody(text.replace(/\r\n?/g, "\n")).body.replace(/^\n+/, "").replace(/\s+$/, "");

  if (skill.description.trim() === placeholderDescription(skill.name)) {
    at(
      "placeholder-description",
      "error",
      `'${skill.name}' still has the placeholder description skillset create wrote`,
      "Write what the skill does and when to use it, in the words of the requests it is for",
    );
  } else if (!WHEN_WORDS.test(skill.description)) {
    at(
      "description-without-when",
      "warning",
      `The description of '${skill.name}' says what it does but not when to use it`,
      'Add when to use it, e.g. "Use when the user asks to …", naming the requests it is for',
    );
  }
  const placeholders = PLACEHOLDER_BODY_LINES.filter((line) =>
    body.split("\n").some((bodyLine) => bodyLine.trim() === line),
  );
  if (placeholders.length > 0) {
    at(
      "placeholder-body",
      "warning",
      `The body of '${skill.name}' still has the placeholder lines skillset create wrote: ${placeholders.map((line) => `"${line}"`).join(", ")}`,
      "Replace them with the skill's own instructions",
    );
  }
  const lines = body === "" ? 0 : body.split("\n").length;
  if (lines > RECOMMENDED_BODY_LIMITS.lines) {
    at(
      "body-too-many-lines",
      "warning",
      `The body of '${skill.name}' has ${lines} lines, over the ${RECOMMENDED_BODY_LIMITS.lines} the Agent Skills guidance recommends`,
      "Move details into files under references/ that the body names, read only when needed",
      { value: lines },
    );
  }
  const tokens = count(body);
  if (tokens > RECOMMENDED_BODY_LIMITS.tokens) {
    at(
      "body-too-many-tokens",
      "warning",
      `The body of '${skill.name}' is ${tokens.toLocaleString("en-US")} tokens, over the ${RECOMMENDED_BODY_LIMITS.tokens.toLocaleString("en-US")} the Agent Skills guidance recommends`,
      "Move details into files under references/ that the body names, read only when needed",
      { value: tokens },
    );
  }
  for (const file of files) {
    if (file.relativePath.startsWith(AUTHOR_ONLY_FOLDER) || isNamed(body, file.relativePath)) continue;
    at(
      "unmentioned-resource",
      "warning",
      `'${skill.name}' ships ${file.relativePath}, which its SKILL.md never mentions: the model will not know to use it`,
      `Say in SKILL.md when to read or run ${file.relativePath}, or remove it`,
      { file: file.path },
    );
  }
  return findings;
}

// Whether the body names a file: by its path, by its file name, or by a folder it is in
// ("see references/"), which tells the model where to look.
function isNamed(body: string, relativePath: string): boolean {
  const parts = relativePath.split("/");
  const fileName = parts.at(-1)!;
  if (UNNAMED_OK.test(relativePath) || body.includes(relativePath) || body.includes(fileName)) return true;
  for (let depth = 1; depth < parts.length; depth++) {
    if (body.includes(`${parts.slice(0, depth).join("/")}/`)) return true;
  }
  return false;
}
