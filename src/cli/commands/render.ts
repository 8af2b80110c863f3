import { createCatalog } from "../../core/catalog/catalog.js";
import { DYNAMIC_CONTEXT_OFF } from "../../core/instructions/dynamic-context.js";
import { createSkillEngine } from "../../core/engine/skill-engine.js";
import { createLocalExecutor } from "../../exec/local-executor.js";
import { lockfileVerifier } from "../../node/skills-lock/lockfile-verifier.js";
import { CliError } from "../cli-error.js";
import { lockfileOption, refuseUnlocked } from "../lock-option.js";
import { scanCatalog, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { requireSkill } from "../require-skill.js";
import { shellCommand } from "../shell-command.js";
import { skillOwnSource } from "../skill-own-source.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset render`. */
export interface RenderOptions extends SourceOptions {
  args?: string;
  dynamic?: boolean;
  /** `--lock <file>`: refuse the skill unless it matches this skills-lock.json. */
  lock?: string;
}

/**
 * `skillset render <name> [sources...]`: prints exactly what the model receives when a user
 * types `/name args` (or, for a skill users may not invoke, when the model loads it with those
 * arguments). With `--dynamic`, the skill's `` !`command` `` blocks run with the local executor
 * under the script rules; without it they are shown as not run, as in an agent without
 * `dynamicContext`.
 */
export async function renderCommand(
  name: string,
  paths: string[],
  options: RenderOptions,
  terminal: Terminal,
): Promise<number> {
  const { lockfile } = lockfileOption(options.lock);
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  const found = await requireSkill(snapshot, name);
  const verifySkill = lockfile ? lockfileVerifier(lockfile) : undefined;
  // Refused here in the terminal's words; the engine's own check stays, worded for a model.
  if (verifySkill) refuseUnlocked(verifySkill(found), found.name, options.lock!);
  // The winning skill's own source as the only one, so reads go through the engine as in an agent.
  const catalog = createCatalog([await skillOwnSource(found, sources, options)]);
  try {
    const engine = createSkillEngine({
      ...(options.dynamic ? { dynamicContext: { executor: createLocalExecutor() } } : {}),
      ...(verifySkill ? { verifySkill } : {}),
    });
    const refreshed = (await engine.refresh(catalog, { loaded: [] }))!;
    const request = {
      state: { skills: refreshed.skills, catalogVersion: refreshed.version, loaded: [], resources: {} },
      sources: async () => catalog.sources,
    };
    const skill = refreshed.skills.find((entry) => entry.name === name);
    if (!skill) throw new CliError("cannot-read", `Skill '${name}' could not be read again from ${found.path}`);
    const args = options.args ?? "";
    const command = engine.parseCommand(`/${name} ${args}`, request.state);
    if (!command)
      terminal.err(
        `Skill '${name}' cannot be invoked by a user (user-invocable: false); showing what the model gets when it loads it.`,
      );
    const step = command
      ? await engine.invoke(request, command)
      : await engine.load(request, {
          skill: name,
          id: "render",
          ...(options.args !== undefined ? { arguments: args } : {}),
        });
    if (!step.ok) throw new CliError("cannot-read", step.text.replace(/^Error: /, ""));
    terminal.out(step.text);
    if (!options.dynamic) hintDynamic(step.text, name, paths, options, terminal);
    return 0;
  } finally {
    catalog.close();
  }
}

/** Commands shown as not run (stdout stays what such an agent's model gets): say which flag runs them. */
function hintDynamic(text: string, name: string, paths: string[], options: RenderOptions, terminal: Terminal): void {
  const notRun = text.split(`— ${DYNAMIC_CONTEXT_OFF}]`).length - 1;
  if (notRun === 0) return;
  const flags = [
    "render",
    ...(options.recursive ? ["--recursive"] : []),
    ...(options.args !== undefined ? ["--args", options.args] : []),
    "--dynamic",
  ];
  const them = notRun === 1 ? "it" : "them";
  terminal.err(
    `${plural(notRun, "dynamic-context command")} (!\`…\`) ${notRun === 1 ? "was" : "were"} not run, as in an agent without dynamic context; ` +
      `to run ${them} on this machine under the script rules, add --dynamic: ${shellCommand(flags, [name, ...paths])}`,
  );
}
