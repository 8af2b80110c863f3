// Argument substitution for `renderInstructions`: which `$…` forms count as placeholders, what
// each becomes, and the `ARGUMENTS:` line for a skill that takes arguments without saying where.
import {
  createPlaceholderMatcher,
  splitArguments,
  type Placeholder,
  type PlaceholderMatcher,
} from "./skill-arguments.js";

/** The values placeholders are filled with; the fields mean what they mean in `RenderInstructionsContext`. */
export interface ArgumentValues {
  /** The argument string as typed; absent: argument placeholders stay as written. */
  arguments?: string;
  /** The frontmatter's `arguments` names, in order. */
  argumentNames?: readonly string[];
  skillDir: string;
  sessionId?: string;
}

/** Substitution for one rendering; it remembers whether any argument placeholder was filled. */
export interface ArgumentSubstitution {
  /**
   * Finds placeholders. Without `arguments` it finds only the variables, so that `$1` in
   * `awk '{print $1}'` of a skill that takes no arguments stays as written.
   */
  readonly matcher: PlaceholderMatcher;
  /** The text a placeholder becomes: an out-of-range argument is empty, as is an unknown session. */
  valueOf(placeholder: Placeholder): string;
  /**
   * The rendered text, with `\n\nARGUMENTS: <as typed>` appended when arguments that are not
   * blank were given and no argument placeholder took them, so the model still sees them.
   */
  finish(rendered: string): string;
}

/** Creates the substitution of one rendering. */
export function createArgumentSubstitution(values: ArgumentValues): ArgumentSubstitution {
  const allPlaceholders = createPlaceholderMatcher(values.argumentNames);
  const matcher: PlaceholderMatcher =
    values.arguments === undefined
      ? (text, index) => {
          const match = allPlaceholders(text, index);
          return match?.placeholder.kind === "variable" ? match : undefined;
        }
      : allPlaceholders;
  const typed = values.arguments ?? "";
  // Split only when a placeholder asks for one argument: most skills use none or `$ARGUMENTS`.
  let split: string[] | undefined;
  let usedArgument = false;
  return {
    matcher,
    valueOf(placeholder) {
      if (placeholder.kind === "variable")
        return placeholder.name === "skillDir" ? values.skillDir : (values.sessionId ?? "");
      usedArgument = true;
      split ??= splitArguments(typed);
      return placeholder.kind === "arguments" ? typed : (split[placeholder.index] ?? "");
    },
    finish(rendered) {
      if (typed.trim() === "" || usedArgument) return rendered;
      const kept = withoutTrailingLineBreaks(rendered);
      return kept === "" ? `ARGUMENTS: ${typed}` : `${kept}\n\nARGUMENTS: ${typed}`;
    },
  };
}

function withoutTrailingLineBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === "\n" || text[end - 1] === "\r")) end--;
  return text.slice(0, end);
}
