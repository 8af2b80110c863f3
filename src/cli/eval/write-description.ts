import { isMap, isScalar, parseDocument, stringify } from "yaml";
import { parseSkillDocument, splitAtBody } from "../../core/skill-file/skill-document.js";
import { CliError } from "../cli-error.js";

/**
 * `SKILL.md`'s text with the frontmatter's `description` set to `description`, and every other
 * byte as it was: only the text from the colon after the `description` key to the end of its
 * value (one line, several, a quoted or block scalar, a comment on the way) is rewritten, as
 * `yaml` writes the new value, in the old value's quotes when it had them. The result is read back: the description must come out exactly
 * and every other field unchanged, else a `cannot-create` error naming `file` (nothing is written).
 */
export function replaceDescription(text: string, description: string, file: string): string {
  const { head } = splitAtBody(text);
  const closing = /---[ \t]*\r?$/.exec(head);
  if (!head || !closing) throw cannot(file, "its frontmatter (between --- lines) was not found");
  const yamlStart = head.indexOf("\n") + 1;
  const yamlText = head.slice(yamlStart, closing.index);
  const document = parseDocument(yamlText);
  if (document.errors.length > 0 || !isMap(document.contents))
    throw cannot(file, "its frontmatter is not a YAML mapping");
  const pair = document.contents.items.find((item) => isScalar(item.key) && item.key.value === "description");
  if (!pair || !isScalar(pair.key) || !isScalar(pair.value) || !pair.key.range || !pair.value.range)
    throw cannot(file, "its frontmatter has no description written as text");

  const colon = yamlText.indexOf(":", pair.key.range[1]);
  let valueEnd = pair.value.range[1];
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  // The value as yaml writes it under the key: plain, quoted, or a block scalar (`|-`) for several
  // lines; a quoted description stays in its quotes (yaml still picks double quotes where single cannot say it).
  const indent = yamlText.slice(yamlText.lastIndexOf("\n", pair.key.range[0]) + 1, pair.key.range[0]);
  const quotes = pair.value.type === "QUOTE_DOUBLE" || pair.value.type === "QUOTE_SINGLE" ? pair.value.type : undefined;
  const written = stringify(
    { description },
    { lineWidth: 0, ...(quotes ? { defaultStringType: quotes, defaultKeyType: "PLAIN" as const } : {}) },
  )
    .slice("description:".length)
    .replace(/\n$/, "")
    .replace(/\n/g, `${newline}${indent}`);
  // A comment after a one-line value would end up inside a block scalar: it goes with the old value.
  if (written.includes("\n") && !yamlText.slice(colon + 1, valueEnd).endsWith("\n"))
    valueEnd += /^[ \t]*#[^\r\n]*/.exec(yamlText.slice(valueEnd))?.[0].length ?? 0;
  const old = yamlText.slice(colon + 1, valueEnd);
  // A block scalar's range takes in its last line break; the new value keeps it.
  const rewritten = written + (old.endsWith("\n") ? newline : "");
  const result =
    text.slice(0, yamlStart) +
    yamlText.slice(0, colon + 1) +
    rewritten +
    yamlText.slice(valueEnd) +
    text.slice(closing.index);

  const before = parseSkillDocument(text, "lenient").frontmatter;
  const after = parseSkillDocument(result, "lenient").frontmatter;
  const othersKept =
    JSON.stringify({ ...before, description: null }) === JSON.stringify({ ...after, description: null });
  if (after.description !== description || !othersKept)
    throw cannot(
      file,
      "the rewritten frontmatter did not read back as the new description with every other field unchanged",
    );
  return result;
}

function cannot(file: string, why: string): CliError {
  return new CliError("cannot-create", `Cannot write the description into ${file}: ${why}`);
}
