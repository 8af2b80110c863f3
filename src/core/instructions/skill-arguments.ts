// A skill's argument placeholders (Claude Code's): how an argument string splits into arguments,
// and which `$…` forms in a skill's text are placeholders.

const SEPARATOR = /[ \t\n\r\f\v]/;
// Inside double quotes a backslash escapes only these, as in a POSIX shell.
const DOUBLE_QUOTE_ESCAPES = new Set(["$", "`", '"', "\\", "\n"]);

/**
 * Splits an argument string into arguments the way a POSIX shell splits words, without
 * expanding anything: whitespace separates; `'…'` keeps its content literally; `"…"` too, except
 * that a backslash escapes `$`, `` ` ``, `"`, `\` and a line break; outside quotes a backslash
 * escapes the next character (a backslash before a line break joins the lines, a final one stays).
 * Quoted and unquoted parts next to each other form one argument (`a"b c"` is `ab c`), and `""`
 * is an empty argument.
 *
 * A quote with no closing partner is an ordinary character, so natural text such as
 * `don't stop` gives `["don't", "stop"]` instead of an error. Never throws.
 */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  // Once no closing quote of a kind is left, none will be found later either.
  let singleClosable = true;
  let doubleClosable = true;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (SEPARATOR.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      index++;
    } else if (char === "\\") {
      const next = text[index + 1];
      // A backslash before a line break joins the lines and starts no argument by itself.
      if (next !== "\n") {
        current += next ?? "\\";
        inWord = true;
      }
      index += 2;
    } else if (char === "'" && singleClosable) {
      const close = text.indexOf("'", index + 1);
      if (close === -1) {
        singleClosable = false;
        continue;
      }
      current += text.slice(index + 1, close);
      inWord = true;
      index = close + 1;
    } else if (char === '"' && doubleClosable) {
      const quoted = readDoubleQuoted(text, index + 1);
      if (quoted === undefined) {
        doubleClosable = false;
        continue;
      }
      current += quoted.value;
      inWord = true;
      index = quoted.end;
    } else {
      current += char;
      inWord = true;
      index++;
    }
  }
  if (inWord) words.push(current);
  return words;
}

// The content of a double-quoted part starting at `start` (after the opening quote), and the
// index after its closing quote; undefined when it is not closed.
function readDoubleQuoted(text: string, start: number): { value: string; end: number } | undefined {
  let value = "";
  let index = start;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') return { value, end: index + 1 };
    const next = text[index + 1];
    if (char === "\\" && next !== undefined && DOUBLE_QUOTE_ESCAPES.has(next)) {
      if (next !== "\n") value += next;
      index += 2;
    } else {
      value += char;
      index++;
    }
  }
  return undefined;
}

/** A placeholder in a skill's text. */
export type Placeholder =
  /** `$ARGUMENTS`: the whole argument string as typed. */
  | { kind: "arguments" }
  /** `$ARGUMENTS[N]`, `$N` or a declared `$name`: one argument, 0-based. */
  | { kind: "argument"; index: number }
  /** `${CLAUDE_SKILL_DIR}` / `${SKILL_DIR}` (the skill's folder) or `${CLAUDE_SESSION_ID}`. */
  | { kind: "variable"; name: "skillDir" | "sessionId" };

/** A placeholder found at a position, and how many characters of the text it spans. */
export interface PlaceholderMatch {
  placeholder: Placeholder;
  length: number;
}

/** Finds the placeholder that starts at `index` of `text`, if any. */
export type PlaceholderMatcher = (text: string, index: number) => PlaceholderMatch | undefined;

const VARIABLES: Record<string, Placeholder> = {
  "${CLAUDE_SKILL_DIR}": { kind: "variable", name: "skillDir" },
  "${SKILL_DIR}": { kind: "variable", name: "skillDir" },
  "${CLAUDE_SESSION_ID}": { kind: "variable", name: "sessionId" },
};
const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*$/;
const ARGUMENTS = "$ARGUMENTS";
const INDEX_SUFFIX = /\[(\d+)\]/y;

/**
 * The placeholder grammar for a skill whose frontmatter declares `argumentNames`
 * (`arguments: [issue, mode]`: `$issue` is argument 0, `$mode` argument 1):
 * - `$ARGUMENTS[N]`: argument N; `$ARGUMENTS` (not followed by `[N]`): the whole string;
 * - `$N` (digits): argument N — so a price such as `$5` in a skill's text is a placeholder too;
 * - `$name` for a declared name: the longest declared name that is followed by a character other
 *   than a letter, digit or `_`, or by the end (`$issues` is `$issue` + `s` only if `issues` is
 *   not declared and is then left alone, since `s` continues the identifier);
 * - `${CLAUDE_SKILL_DIR}`, `${SKILL_DIR}`, `${CLAUDE_SESSION_ID}`.
 * `$ARGUMENTS` and `$N` also need a non-identifier character (or the end) after them. Declared
 * names that are not identifiers (hyphens inside are allowed) and `ARGUMENTS` are ignored, but
 * keep their position; a repeated name means its first position. Anything else stays literal.
 */
export function createPlaceholderMatcher(argumentNames: readonly string[] = []): PlaceholderMatcher {
  const positions = new Map<string, number>();
  argumentNames.forEach((name, index) => {
    if (ARGUMENT_NAME.test(name) && name !== "ARGUMENTS" && !positions.has(name)) positions.set(name, index);
  });
  const names = [...positions.keys()].sort((a, b) => b.length - a.length);
  const endsIdentifier = (text: string, end: number) => end >= text.length || !IDENTIFIER_CHAR.test(text[end]!);

  return (text, index) => {
    if (text[index] !== "$") return undefined;
    const next = text[index + 1];
    if (next === "{") {
      for (const [written, placeholder] of Object.entries(VARIABLES)) {
        if (text.startsWith(written, index)) return { placeholder, length: written.length };
      }
      return undefined;
    }
    if (text.startsWith(ARGUMENTS, index)) {
      INDEX_SUFFIX.lastIndex = index + ARGUMENTS.length;
      const indexed = INDEX_SUFFIX.exec(text);
      if (indexed)
        return {
          placeholder: { kind: "argument", index: Number(indexed[1]) },
          length: ARGUMENTS.length + indexed[0].length,
        };
      if (endsIdentifier(text, index + ARGUMENTS.length))
        return { placeholder: { kind: "arguments" }, length: ARGUMENTS.length };
    }
    if (next !== undefined && next >= "0" && next <= "9") {
      let end = index + 1;
      while (end < text.length && text[end]! >= "0" && text[end]! <= "9") end++;
      if (!endsIdentifier(text, end)) return undefined;
      return { placeholder: { kind: "argument", index: Number(text.slice(index + 1, end)) }, length: end - index };
    }
    for (const name of names) {
      if (text.startsWith(name, index + 1) && endsIdentifier(text, index + 1 + name.length)) {
        return { placeholder: { kind: "argument", index: positions.get(name)! }, length: name.length + 1 };
      }
    }
    return undefined;
  };
}
