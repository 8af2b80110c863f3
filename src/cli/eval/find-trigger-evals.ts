import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isInsideFolder } from "../../fs/path-inside.js";
import { skillDirectory, type SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import { CliError } from "../cli-error.js";
import { TRIGGER_EVALS_FILE } from "./trigger-evals.js";

/** A skill and the trigger-eval file it is measured with. */
export interface TriggerEvalTarget {
  skill: string;
  file: string;
}

/**
 * The skills a folder given to `eval` stands for: each skill of the sources whose folder is
 * `folder` or below it and holds {@link TRIGGER_EVALS_FILE}, in the catalog's order. A folder with
 * no such skill is a `not-found` error saying what was looked for.
 */
export function triggerEvalsInFolder(folder: string, skills: readonly SkillMetadata[]): TriggerEvalTarget[] {
  const root = resolve(folder);
  const inside = skills.filter((skill) => isInsideFolder(root, resolve(skillDirectory(skill))));
  if (inside.length === 0) {
    throw new CliError(
      "not-found",
      `No skill of the sources is in ${folder}: give the skills folder that holds it as a source (skillset eval ${folder} <skills folder> --model …)`,
    );
  }
  const targets = inside
    .map((skill) => ({ skill: skill.name, file: join(skillDirectory(skill), TRIGGER_EVALS_FILE) }))
    .filter((target) => existsSync(target.file));
  if (targets.length === 0) {
    throw new CliError(
      "not-found",
      `No skill in ${folder} has trigger evals (${TRIGGER_EVALS_FILE} in its folder); skills there: ${inside.map((skill) => skill.name).join(", ")}`,
    );
  }
  return targets;
}

/**
 * The skill a trigger-eval file measures: `--skill` when given (it must be one of the sources'
 * skills), else the skill of the sources whose folder holds the file.
 */
export function skillOfTriggerEvals(file: string, skills: readonly SkillMetadata[], named: string | undefined): string {
  const names = skills.map((skill) => skill.name);
  if (named !== undefined) {
    if (!names.includes(named))
      throw new CliError(
        "not-found",
        `--skill ${named}: none of the sources has this skill (skills: ${names.join(", ") || "none"})`,
      );
    return named;
  }
  const path = resolve(file);
  const holders = skills.filter((skill) => isInsideFolder(resolve(skillDirectory(skill)), path));
  // The innermost folder, should skills be nested.
  const holder = holders.sort((a, b) => skillDirectory(b).length - skillDirectory(a).length)[0];
  if (!holder)
    throw new CliError(
      "usage",
      `${file} is a trigger eval (query, should_trigger) outside every skill folder of the sources: name the skill it measures with --skill <name>`,
    );
  return holder.name;
}
