import { parseAllowedTools } from "./allowed-tools.js";
import { MAX_FRONTMATTER_CHARS } from "./frontmatter-yaml.js";
import { keyAt, scalarAt, trimmedEnd } from "./simple-yaml-mapping.js";
import type { SkillMetadata } from "./skill-metadata.js";
import { isUsualSkillName, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH } from "./validate-frontmatter.js";
import { ENTRYPOINT_KEY } from "../skill-module/skill-entrypoint.js";
import { pyStrip } from "../text/python-text.js";

// Nearly every SKILL.md has plain ASCII frontmatter of the specification's fields, a `metadata:`
// block of strings, and nothing to report. Discovery reads thousands of them, and reading one
// straight into its skill costs half of building the mapping, validating it and copying it out
// field by field (no mapping, no checks of own keys, no second pass). Anything else, and any
// skill that would get a diagnostic, is left to inspectSkill's full reading; for what this reader
// accepts, both give the same skill (a property test and the corpus check it). Keys and values
// are read by the same helpers as parseSimpleMapping, so both read a line alike.

// The frontmatter's characters when it is plain: printable ASCII but `#`, and line feeds.
const PLAIN_RUN = /[\n\x20-\x22\x24-\x7e]*/y;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const DASH = 0x2d;

// The fields this reader takes, as bits, so that a repeated one is seen without a lookup.
const NAME = 1;
const DESCRIPTION = 2;
const LICENSE = 4;
const COMPATIBILITY = 8;
const ALLOWED_TOOLS = 16;
const METADATA = 32;

/**
 * The skill of a `SKILL.md` whose frontmatter is plain (see above) and valid, as inspectSkill
 * reads it with no diagnostic; undefined for any other, which only inspectSkill reads.
 * @internal
 */
export function readPlainSkill(
  text: string,
  file: string,
  directoryName: string | undefined,
  source: string,
): SkillMetadata | undefined {
  const end = plainFrontmatterEnd(text);
  return end === -1 ? undefined : readPlainFields(text, end, file, directoryName, source);
}

// Where the frontmatter ends (just past the line break before the closing `---`) when it opens
// with a `---` line of its own, is plain up to the end of its closing line and is not too large;
// otherwise -1. The closing line is found as the lenient reading finds it: the first `---` at the
// start of a line followed by nothing but spaces (a tab or anything not plain there: -1).
function plainFrontmatterEnd(text: string): number {
  if (
    text.charCodeAt(0) !== DASH ||
    text.charCodeAt(1) !== DASH ||
    text.charCodeAt(2) !== DASH ||
    text.charCodeAt(3) !== NEWLINE
  )
    return -1;
  PLAIN_RUN.lastIndex = 4;
  PLAIN_RUN.test(text);
  const plainEnd = PLAIN_RUN.lastIndex;
  for (let at = text.indexOf("\n---", 3); at !== -1 && at < plainEnd; at = text.indexOf("\n---", at + 1)) {
    let after = at + 4;
    while (text.charCodeAt(after) === SPACE) after++;
    if (after === text.length || text.charCodeAt(after) === NEWLINE)
      return at + 1 - 4 > MAX_FRONTMATTER_CHARS ? -1 : at + 1;
    if (after >= plainEnd) return -1;
  }
  return -1;
}

// What the lines of one frontmatter gave. One object for every skill, refilled per skill and
// emptied after (reading is synchronous): an object per skill was garbage for every one.
const found = {
  seen: 0,
  name: "",
  description: "",
  license: undefined as string | undefined,
  compatibility: undefined as string | undefined,
  licenseFirst: false,
  allowedTools: undefined as string | undefined,
  metadata: undefined as Record<string, string> | undefined,
};

// Reads the lines from 4 to `to` into a skill, or undefined at the first line that is not a
// field this reader takes (or a `metadata` entry) written as parseSimpleMapping reads it.
function readPlainFields(
  text: string,
  to: number,
  file: string,
  directoryName: string | undefined,
  source: string,
): SkillMetadata | undefined {
  found.seen = 0;
  const complete = readLines(text, to) && (found.seen & (NAME | DESCRIPTION)) === (NAME | DESCRIPTION);
  const skill = complete ? skillOf(file, directoryName, source) : undefined;
  found.name = found.description = "";
  found.license = found.compatibility = found.allowedTools = found.metadata = undefined;
  return skill;
}

// Reads every line into `found`; false at the first that this reader does not take.
function readLines(text: string, to: number): boolean {
  let nestedIndent = 0;
  let inMetadata = false;
  for (let start = 4; start < to;) {
    // The region ends with a line break, so every line has one.
    const lineEnd = text.indexOf("\n", start);
    const lineStart = start;
    start = lineEnd + 1;
    let at = lineStart;
    while (at < lineEnd && text.charCodeAt(at) === SPACE) at++;
    if (at === lineEnd) continue;
    const indent = at - lineStart;
    if (indent > 0 && !inMetadata) return false;
    const key = keyAt(text, at, lineEnd);
    if (key === undefined) return false;
    let valueStart = at + key.length + 1;
    if (valueStart < lineEnd) {
      if (text.charCodeAt(valueStart) !== SPACE) return false;
      while (valueStart < lineEnd && text.charCodeAt(valueStart) === SPACE) valueStart++;
    }
    const valueEnd = trimmedEnd(text, valueStart, lineEnd);
    // An empty value (nothing after the colon, or a quoted empty string) is only `metadata:`'s.
    const value = valueEnd === valueStart ? "" : scalarAt(text, valueStart, valueEnd, true, true);
    if (value === undefined) return false;
    if (indent > 0) {
      // An inherited name (`constructor`) reads as taken too: the full reading handles it.
      const metadata = found.metadata!;
      if ((nestedIndent !== 0 && indent !== nestedIndent) || value === "" || key === ENTRYPOINT_KEY) return false;
      if (metadata[key] !== undefined) return false;
      nestedIndent = indent;
      metadata[key] = value;
      continue;
    }
    inMetadata = false;
    if (!takeField(key, value)) return false;
    if (value === "") {
      inMetadata = true;
      nestedIndent = 0;
    }
  }
  return true;
}

// Puts a top-level field into `found`; false for any other key, a repeated one, or an empty value but `metadata`'s.
function takeField(key: string, value: string): boolean {
  const field = fieldOf(key);
  if (field === 0 || (found.seen & field) !== 0 || (value === "") !== (field === METADATA)) return false;
  found.seen |= field;
  if (field === NAME) found.name = value;
  else if (field === DESCRIPTION) found.description = value;
  else if (field === LICENSE) {
    found.license = value;
    // Optional fields go into the skill in the order written, as inspectSkill puts them.
    found.licenseFirst = found.compatibility === undefined;
  } else if (field === COMPATIBILITY) found.compatibility = value;
  else if (field === ALLOWED_TOOLS) found.allowedTools = value;
  else found.metadata = {};
  return true;
}

function fieldOf(key: string): number {
  switch (key) {
    case "name":
      return NAME;
    case "description":
      return DESCRIPTION;
    case "license":
      return LICENSE;
    case "compatibility":
      return COMPATIBILITY;
    case "allowed-tools":
      return ALLOWED_TOOLS;
    case "metadata":
      return METADATA;
    default:
      return 0;
  }
}

// The skill of `found`, when inspectSkill would report nothing about it: a usual name that is
// the folder's, a description and compatibility within their limits.
function skillOf(file: string, directoryName: string | undefined, source: string): SkillMetadata | undefined {
  const { name, description, license, compatibility } = found;
  if (!isUsualSkillName(name) || (directoryName !== undefined && directoryName !== name)) return undefined;
  if (description.length > MAX_DESCRIPTION_LENGTH) return undefined;
  if (compatibility !== undefined && compatibility.length > MAX_COMPATIBILITY_LENGTH) return undefined;
  const stripped = pyStrip(description);
  if (stripped === "") return undefined;
  // The folder's name when it is the skill's: the scan keeps that string anyway (in the folder's
  // path), so the name read from the frontmatter need not be kept too.
  const kept = directoryName ?? name;
  const metadata = found.metadata ?? {};
  const allowedTools = parseAllowedTools(found.allowedTools);
  // A license alone, the usual optional field, written into the literal: added afterwards, it
  // took the skill a second object for its properties.
  if (license !== undefined && compatibility === undefined)
    return { name: kept, description: stripped, path: file, metadata, allowedTools, source, license };
  const skill: SkillMetadata = { name: kept, description: stripped, path: file, metadata, allowedTools, source };
  if (license !== undefined && found.licenseFirst) skill.license = license;
  if (compatibility !== undefined) skill.compatibility = compatibility;
  if (license !== undefined && !found.licenseFirst) skill.license = license;
  return skill;
}
