/** What the sandbox asks of the host for one run: modules to import and tools to call. */
export interface CodeRunHost {
  /**
   * ESM source (plain JavaScript) of a module, by its specifier, or an error the model reads.
   * The specifier is as the code wrote it, except that a relative import inside a module is first
   * resolved against that module's specifier (`./b.js` from `@/skills/x/lib/a.js` is `@/skills/x/lib/b.js`).
   * Asked again on every run that imports it, so a module that became unavailable is refused.
   * `specifier` in the answer is the module's full name when it differs from the one asked (a skill's
   * entrypoint: `@/skills/x` is `@/skills/x/src/index.js`): relative imports inside it resolve against
   * it, and both names then stand for the same module instance.
   */
  loadModule(specifier: string): Promise<{ source: string; specifier?: string } | { error: string }>;
  /**
   * Tools reachable as `tools.<name>(args)`. Arguments arrive as a JSON copy (`null` for none); the result
   * is copied back as JSON. A rejection or thrown Error becomes a rejected promise inside the sandbox
   * carrying its message.
   */
  tools: Readonly<Record<string, (args: unknown) => Promise<unknown>>>;
}

/** Why a run failed; each kind is worded for the model by `formatCodeRunOutcome`. */
export type CodeRunErrorKind =
  | "syntax" // the code does not parse (message has line:column)
  | "thrown" // the code threw, or returned a rejected promise, and did not catch it
  | "import" // a module could not be loaded, did not parse, or threw while being imported
  | "timeout" // the run passed its time limit (limits.timeoutMs)
  | "memory" // the run passed its memory limit (limits.memoryBytes)
  | "tool-calls" // the run called tools more than limits.maxToolCalls times
  | "result" // the returned value cannot be turned into JSON
  | "stalled" // the code awaits a promise nothing can settle
  | "crashed"; // the engine itself failed (a bug): the sandbox was rebuilt

/** What happened in one run, besides its value or error. */
export interface CodeRunReport {
  /** Lines written with console.log/info/warn/error/debug (warn/error/debug prefixed), cut at the result size. */
  logs: string[];
  /** Characters of log output left out of `logs` because the result size was reached. */
  logsCutChars: number;
  /** Tool calls the run made (counting refused ones over the limit). */
  toolCalls: number;
  /** Things the model should know about the sandbox itself, e.g. that it was rebuilt and earlier values are gone. */
  notes: string[];
}

/** The outcome of one run of the model's code. */
export type CodeRunOutcome =
  | (CodeRunReport & {
      ok: true;
      /** A JSON copy of the returned value (`undefined` when nothing was returned, or when its JSON is over the result size). */
      value: unknown;
      /** The value's JSON text, cut to the result size; `undefined` when nothing was returned. */
      json: string | undefined;
      /** Length of the value's full JSON text. */
      jsonChars: number;
    })
  | (CodeRunReport & { ok: false; error: { kind: CodeRunErrorKind; message: string } });
