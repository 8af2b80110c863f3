/** A `SKILL.md` whose unquoted bracketed `argument-hint` was quoted, see {@link quoteBracketedArgumentHint}. */
export interface QuotedArgumentHint {
  /** The `SKILL.md` text with the hint's value quoted, so YAML reads it as the text written. */
  text: string;
  /** The hint as its author wrote it, e.g. `[pr-number] [priority]`. */
  hint: string;
  /** A warning that says what was read and how to write it for every YAML reader. */
  message: string;
}

// `argument-hint:` with an unquoted value in brackets, a trailing `# comment` allowed.
const BRACKETED_HINT = /^argument-hint:[ \t]+(\[.*\])(?:[ \t]+#.*)?[ \t]*$/;
const QUICK_CHECK = /^argument-hint:[ \t]+\[/m;

/**
 * Claude Code's documentation writes `argument-hint: [file]` and
 * `argument-hint: [pr-number] [priority]`. To YAML the first is a list and the second is not
 * valid at all, but to their authors both are the text shown after the command. Returns the
 * text with that value quoted and the hint as written, or `undefined` when the frontmatter
 * has no such line.
 */
export function quoteBracketedArgumentHint(text: string): QuotedArgumentHint | undefined {
  // A substring search first: the multiline pattern alone costs more, and nearly no skill has the field.
  if (!text.includes("argument-hint:") || !QUICK_CHECK.test(text)) return undefined;
  const lines = text.split("\n");
  if (lines[0]!.replace(/\r$/, "").trimEnd() !== "---") return undefined;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!.replace(/\r$/, "");
    if (line.trimEnd() === "---") return undefined;
    const match = BRACKETED_HINT.exec(line);
    // A flow list continued on indented lines is YAML that means a list; leave it to the parser.
    if (!match || /^[ \t]/.test(lines[index + 1] ?? "")) continue;
    const hint = match[1]!;
    lines[index] = `argument-hint: ${JSON.stringify(hint)}${lines[index]!.endsWith("\r") ? "\r" : ""}`;
    return {
      text: lines.join("\n"),
      hint,
      message: `'argument-hint: ${hint}' was read as the text '${hint}'; YAML reads it as a list or not at all, so quote it: argument-hint: ${JSON.stringify(hint)}`,
    };
  }
  return undefined;
}
