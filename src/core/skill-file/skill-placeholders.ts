// The text `skillset create` writes for the author to replace; `diagnoseLibrary` reports any
// left in place, so both read it from here.

/** The description `skillset create <name>` writes when none is given. */
export function placeholderDescription(name: string): string {
  return `Describe what ${name} does and when to use it.`;
}

/** The lines of the body `skillset create` writes for the author to replace. */
export const PLACEHOLDER_BODY_LINES = [
  "Say which tasks this skill is for, and which it is not for.",
  "1. First step.",
  "2. Second step.",
] as const;
