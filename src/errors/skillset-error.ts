import type { SkillsetErrorCode } from "./error-codes.js";

const marker = Symbol.for("skillset.error");

/**
 * Base class of every error skillset throws. Use {@link SkillsetError.isInstance}
 * rather than `instanceof`: it also works when two copies of the package are installed.
 */
export class SkillsetError extends Error {
  private readonly [marker] = true;
  /** A stable, machine-readable code, e.g. `"frontmatter-missing"`: one of {@link SkillsetErrorCode}. */
  readonly code: SkillsetErrorCode;

  constructor(code: SkillsetErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SkillsetError";
    this.code = code;
  }

  /** True for any skillset error, whichever copy of the package created it. */
  static isInstance(error: unknown): error is SkillsetError {
    return typeof error === "object" && error !== null && marker in error;
  }
}

/** A `SKILL.md` whose frontmatter cannot be used at all (missing, unclosed, invalid YAML, not a mapping). */
export class SkillParseError extends SkillsetError {
  constructor(code: SkillsetErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "SkillParseError";
  }
}
