import { formatDiagnostic } from "../../core/diagnostic.js";
import { printable } from "../../core/text/safe-text.js";
import { discoverResources, type ResourceType } from "../../core/resources/skill-resources.js";
import { skillDirectory } from "../../core/skill-file/skill-metadata.js";
import { scanCatalog, type SourceOptions } from "../open-catalog.js";
import { requireSkill } from "../require-skill.js";
import { skillOwnSource } from "../skill-own-source.js";
import { exportLine } from "../skill-modules.js";
import { checkSkillModule } from "../../core/skill-module/check-skill-module.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset info`. */
export interface InfoOptions extends SourceOptions {
  json?: boolean;
}

const TYPE_TITLES: Record<ResourceType, string> = {
  script: "Scripts",
  reference: "References",
  asset: "Assets",
  other: "Other files",
};

/** `skillset info <name> [sources...]`: one skill's metadata, path, resources by type and diagnostics. */
export async function infoCommand(
  name: string,
  paths: string[],
  options: InfoOptions,
  terminal: Terminal,
): Promise<number> {
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  const skill = await requireSkill(snapshot, name);
  const own = await skillOwnSource(skill, sources, options);
  const discovery = await discoverResources(own, skill);
  // The skill's module (`metadata.entrypoint`), read as the engine reads it: through its source.
  const module = await checkSkillModule(skill, own.readFile && ((path, max) => own.readFile!(skill, path, max)));
  const diagnostics = snapshot.diagnostics.filter(
    (diagnostic) => diagnostic.skill === name || diagnostic.file === skill.path,
  );
  const shadowed = snapshot.shadowed.filter((entry) => entry.name === name).map((entry) => entry.path);

  if (options.json) {
    terminal.out(
      JSON.stringify(
        {
          skill,
          directory: skillDirectory(skill),
          resources: discovery.resources,
          resourcesTruncated: discovery.truncated,
          shadowed,
          diagnostics,
          ...(module ? { module } : {}),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const { color } = terminal;
  // Everything from the skill's files is shown with control characters escaped.
  const lines = [
    color.bold(skill.name),
    "",
    printable(skill.description),
    "",
    `${color.dim("Path:".padEnd(17))} ${printable(skill.path)}`,
  ];
  const field = (label: string, value: string | undefined) =>
    value !== undefined && lines.push(`${color.dim(`${printable(label)}:`.padEnd(17))} ${printable(value)}`);
  // Reached through a symbolic link: where the file really is.
  field("Link target", skill.realPath);
  field("Source", skill.source);
  // Skills shipped in npm packages: the package and version installed.
  field(
    "Package",
    skill.package &&
      (skill.package.version === undefined ? skill.package.name : `${skill.package.name}@${skill.package.version}`),
  );
  field("License", skill.license);
  field("Compatibility", skill.compatibility);
  field("Allowed tools", skill.allowedTools.length > 0 ? skill.allowedTools.join(" ") : undefined);
  field("Argument hint", skill.argumentHint);
  field("Model", skill.model);
  field("Context", skill.context);
  field(
    "Model may invoke",
    skill.disableModelInvocation === undefined ? undefined : String(!skill.disableModelInvocation),
  );
  field("User may invoke", skill.userInvocable === undefined ? undefined : String(skill.userInvocable));
  for (const [key, value] of Object.entries(skill.metadata)) field(`metadata.${key}`, value);

  lines.push("", color.bold("Resources"));
  if (discovery.error) lines.push(`  cannot list: ${discovery.error}`);
  else if (discovery.resources.length === 0) lines.push("  (none)");
  for (const type of Object.keys(TYPE_TITLES) as ResourceType[]) {
    const ofType = discovery.resources.filter((resource) => resource.type === type);
    if (ofType.length === 0) continue;
    lines.push(`  ${TYPE_TITLES[type]} (${ofType.length})`);
    for (const resource of ofType)
      lines.push(
        `    ${printable(resource.relativePath)}${resource.size === undefined ? "" : color.dim(` ${resource.size} B`)}`,
      );
  }
  if (discovery.truncated) lines.push(color.yellow("  (listing stopped at a depth or count limit)"));
  if (module) {
    lines.push("", color.bold(`Module ${printable(module.path ?? module.entrypoint)}`));
    if (module.problem) lines.push(color.yellow(`  cannot be imported: ${printable(module.problem.message)}`));
    else if (module.exports!.length === 0) lines.push("  (no exports)");
    for (const entry of module.exports ?? []) lines.push(`  ${printable(exportLine(entry))}`);
  }
  if (shadowed.length > 0) lines.push("", color.bold("Shadows"), ...shadowed.map((path) => `  ${printable(path)}`));
  if (diagnostics.length > 0)
    lines.push("", color.bold("Diagnostics"), ...diagnostics.map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`));
  terminal.out(lines.join("\n"));
  return 0;
}
