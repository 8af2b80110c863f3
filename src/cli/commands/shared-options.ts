// The help texts and parser of the options several commands share.

// A variadic argument is [] when not given, so none has a default of its own: commander would
// print it as a second "(default: [])" after the one these descriptions give.
/** The help of `[sources...]`, with the default locations. */
export const SOURCES_HELP =
  'skills folders, npm:<package> (its skills), npm: (the packages the project\'s package.json names in "skills") or https://<site> (the skills it publishes at /.well-known/agent-skills/), lowest precedence first (default: ~/.claude/skills, ~/.agents/skills, then .claude/skills, .agents/skills of the project: the nearest folder up with .git or package.json)';
/** The help of `--lock <file>` on the commands that load skills. */
export const LOCK_HELP =
  "refuse skills that differ from this skills-lock.json or are not listed in it, as the lockfile option does";
/** The help of `--allow-root <dir>`. */
export const ALLOW_ROOT_HELP =
  "a further folder that symlinks may lead into (repeatable; always allowed: the skills folder, its project, ~/.claude/skills, ~/.agents/skills)";

/** The help of `--embeddings <provider:model>` on the commands that offer `search_skills`. */
export const EMBEDDINGS_HELP =
  "also rank search_skills by meaning with this embeddings model, e.g. openai:text-embedding-3-small (needs its LangChain package; vectors are cached under the user's cache folder)";

/** `--html` of doctor, eval and tune. */
export const HTML_HELP = "also write the report as one self-contained web page (charts, no scripts, works offline)";

/** Collects a repeatable option's values. */
export const repeatable = (value: string, previous: string[] = []) => [...previous, value];
