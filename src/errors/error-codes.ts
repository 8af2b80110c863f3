/**
 * Every code a `SkillsetError` carries, each with what it means. One spelling per failure: the
 * CLI reports the same failures with these same strings (see `src/cli/cli-error.ts`).
 */
export const SKILLSET_ERROR_CODES = {
  // Options and inputs given in code.
  "invalid-options": "a host, source or runner was given options it cannot use",
  "unknown-option": "an options object with a key the factory does not know (misspelt, or from another factory)",
  "invalid-input": "`SkillRunner.run` was given a question or conversation it cannot use",
  "invalid-reply": "a runner's `complete()` resolved to something other than a string",

  // A SKILL.md that cannot be used at all (SkillParseError), and whole skills.
  "frontmatter-missing": "a SKILL.md that does not start with a `---` frontmatter block",
  "frontmatter-unclosed": "frontmatter with no closing `---` line",
  "frontmatter-not-mapping": "frontmatter that is YAML but not a mapping of fields",
  "invalid-yaml": "frontmatter that is not valid YAML",
  "yaml-too-large": "frontmatter YAML nested or aliased beyond the parser's bounds",
  "not-utf8": "a SKILL.md that is not valid UTF-8",
  "invalid-skill": "a skill folder that does not validate, so it is not packaged",

  // Reading skills and their files.
  "not-found": "a skill, file or index entry that is not there",
  "cannot-read": "a file, folder or source that could not be read (the message says why)",
  "not-a-file": "a path that is not a regular file",
  "too-large": "a file or download over its size limit",
  "invalid-path": "a path a memory source refuses (one with `..`)",
  "unsupported-path": "a `~user` path: only `~` and `~/` are expanded",
  "backend-unsupported": "a deepagents backend with neither `ls` nor `lsInfo`",
  "skill-tool-refused": "a skill tool of the AI SDK adapter refused a call (the message is what the model is told)",
  "file-refused": "a file tool of `skillset chat` refused a path (missing, outside its folder, not a file, too large)",

  // Links, and what stays inside a skill's folder.
  symlink: "a symbolic link where links are not followed",
  "symlink-dangling": "a symbolic link whose target does not exist",
  "symlink-loop": "a symbolic link that leads back to itself",
  "symlink-escape": "a symbolic link to somewhere outside the allowed folders",
  "symlinked-folder": "a symbolic link to a folder, which a package does not follow",
  "outside-skill": "a path or link that resolves outside the skill's folder",
  "special-file": "a device, FIFO or socket in a skill folder to package",
  "nested-archive": "a zip inside a skill folder to package",

  // Skills fetched from a site or an MCP server.
  "invalid-url": "a site URL that is malformed, not https, or carries credentials",
  "insecure-url": "an http:// site URL other than localhost",
  "fetch-failed": "a download that failed before any answer (network, DNS, TLS)",
  "http-error": "a download answered with an HTTP error status",
  timeout: "a download that took longer than its time limit",
  "redirect-refused": "a download redirected to another origin, or too many times",
  "verification-failed": "downloaded or served content that does not match its listed digest",
  "archive-refused": "a skill archive that is not a usable, safe zip or tar.gz (the message says why)",
  "mcp-unavailable": "an MCP server that cannot be reached or whose connection is closed",
  "mcp-error": "an MCP server that answered a request with an error",
  "cannot-listen":
    "the MCP server cannot listen over HTTP: the port is in use, or the host is not this machine's or does not resolve",

  // Code mode.
  "sandbox-closed": "a code sandbox pool asked to run code after `close()`",

  // The skills CLI's lockfile.
  "invalid-lockfile": "a `skills-lock.json` that is missing or malformed (the message names the problem)",
} as const satisfies Record<string, string>;

/**
 * The stable code of a `SkillsetError`: what failed, for a caller to branch on (the message says
 * the details). Each code's meaning is in `SKILLSET_ERROR_CODES`, next to this type.
 */
export type SkillsetErrorCode = keyof typeof SKILLSET_ERROR_CODES;
