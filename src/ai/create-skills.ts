import { createCatalog, type Catalog } from "../core/catalog/catalog.js";
import { listInvocableSkills, type InvocableSkill } from "../core/instructions/skill-command.js";
import { createSkillEngine, type CodeModeOptions } from "../core/engine/skill-engine.js";
import { lazyLockfileVerifier } from "../node/skills-lock/lazy-lockfile-verifier.js";
import type { SkillSource } from "../core/skill-source.js";
import { READ_SKILL_RESOURCE, RUN_SKILL_SCRIPT } from "../core/tools/skill-tool-definitions.js";
import { parseSkillsOptions, type SkillsOptions, type SkillsSettings } from "./skills-options.js";
import { createSkillsThread, type CatalogNow, type SkillsHost, type SkillsThread } from "./skills-thread.js";

/** Agent Skills for the Vercel AI SDK: see {@link createSkills}. */
export interface Skills extends SkillsThread {
  /**
   * The same tools, `prepareStep` and `prepareMessages` for the thread `id`: its loaded skills are
   * kept in the `store` under that id, and it becomes `${CLAUDE_SESSION_ID}` in instructions.
   * Required with a store; without one it only names the session.
   */
  thread(id: string): SkillsThread;
  /** The skills a user may invoke as `/name args`, with description and argument hint: for a `/` menu. */
  invocableSkills(): Promise<InvocableSkill[]>;
  /** Stops watching the skill folders (watchers never keep a process alive, so this is optional), and frees code sandboxes. */
  close(): Promise<void>;
}

/**
 * Agent Skills for the Vercel AI SDK (`ai` 6 and 7): skill tools (`load_skill`, `unload_skill`,
 * `search_skills`, `read_skill_resource`, optionally `run_skill_script`), a `prepareStep` that adds
 * the skills catalog and the loaded skills to the system prompt, and `prepareMessages` for `/name args`.
 * The loaded skills and the budget are derived from the conversation's messages, so a persisted
 * conversation resumes with its skills and no server-side store; parallel tool calls of one step
 * agree. Give a `store` to keep them apart from the messages instead.
 *
 * @example
 * ```ts
 * const skills = createSkills({ sources: ["./skills"] });
 * const result = await generateText({
 *   model,
 *   messages: await skills.prepareMessages(messages),
 *   tools: { ...tools, ...skills.tools },
 *   prepareStep: skills.prepareStep({ instructions: "You are a helpful assistant." }),
 *   stopWhen: stepCountIs(10),
 * });
 * ```
 */
export function createSkills(options: SkillsOptions): Skills {
  const settings = parseSkillsOptions(options);
  const readTool = settings.resourceReadTool ?? (settings.readResourceTool ? READ_SKILL_RESOURCE.name : "read_file");
  const runTool = settings.scriptRunTool ?? (settings.runScripts ? RUN_SKILL_SCRIPT.name : undefined);
  const code = settings.codeMode === true ? { tools: {} } : settings.codeMode || undefined;
  const engine = createSkillEngine({
    maxLoadedSkills: settings.maxLoadedSkills,
    maxDescriptionLength: settings.maxDescriptionLength,
    resourceReadTool: readTool,
    scriptRunTool: runTool,
    guidance: settings.guidance,
    scripts: settings.runScripts,
    dynamicContext: settings.dynamicContext,
    logger: settings.logger,
    catalogBudget: settings.catalogBudget,
    catalogPriority: settings.catalogPriority,
    search: { offer: settings.searchSkills, rankers: settings.searchRankers },
    ...(settings.lockfile === undefined ? {} : { verifySkill: lazyLockfileVerifier(settings.lockfile) }),
    ...(code ? { codeMode: engineCodeMode(code) } : {}),
  });

  // One catalog for every thread: sources hold only what they read from the skills.
  let catalog: Promise<Catalog> | undefined;
  const catalogOf = () => (catalog ??= buildCatalog(settings.sources, settings.recursive));
  const host: SkillsHost = {
    engine,
    // An unchanged catalog costs a re-scan that returns at once and a cache lookup; the engine keeps the map of names.
    async catalog(): Promise<CatalogNow> {
      const { skills, version, skill } = (await engine.refresh(await catalogOf(), { loaded: [] }))!;
      return { skills, version, skill };
    },
    sources: async () => (await catalogOf()).sources,
    include: {
      readResource: settings.readResourceTool,
      runScript: settings.runScripts !== undefined,
      search: settings.searchSkills,
      skillTools: settings.skillTools,
      ...(code ? { codeTools: code.tools } : {}),
    },
    ...(settings.store ? { store: settings.store } : {}),
  };

  return {
    ...createSkillsThread(host, undefined),
    thread: (id) => createSkillsThread(host, id),
    invocableSkills: async () => listInvocableSkills((await host.catalog()).skills),
    async close() {
      engine.releaseCode();
      if (catalog) (await catalog).close();
    },
  };
}

// The app's code tools are all it lets code call: the engine's list is "all" of what this host hands over.
function engineCodeMode(code: Exclude<SkillsSettings["codeMode"], boolean>): CodeModeOptions {
  return {
    tools: "all",
    ...(code.limits ? { limits: code.limits } : {}),
    ...(code.keepValues !== undefined ? { keepValues: code.keepValues } : {}),
    ...(code.pool ? { pool: code.pool } : {}),
  };
}

async function buildCatalog(entries: ReadonlyArray<string | SkillSource>, recursive: boolean): Promise<Catalog> {
  // Loaded only for folder sources, so `skillset/ai` also runs where `node:fs` does not exist.
  const strings = entries.some((entry) => typeof entry === "string")
    ? await import("../sources/source-from-string.js")
    : undefined;
  return createCatalog(strings ? strings.sourcesFromStrings(entries, { recursive }) : (entries as SkillSource[]));
}
