// C0 and C1 control characters and DEL, except tab and the line breaks.
const CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g; // eslint-disable-line no-control-regex

/**
 * Removes control characters other than tab and line breaks, so a script's output cannot move a
 * terminal's cursor or hide text from the model. In `exec/` because the command runner cleans
 * stderr with it; `core/safe-text` re-exports it.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL, "");
}
