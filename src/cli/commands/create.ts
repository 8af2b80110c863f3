import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PLACEHOLDER_BODY_LINES, placeholderDescription } from "../../core/skill-file/skill-placeholders.js";
import { validateFrontmatter } from "../../core/skill-file/validate-frontmatter.js";
import { validateSkillText } from "../../core/skill-file/validate-skill.js";
import { CliError } from "../cli-error.js";
import { createFolders, foldersToCreate } from "../create-folders.js";
import { homePath } from "../home-path.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset create`. */
export interface CreateOptions {
  dir?: string;
  description?: string;
  resources?: string;
}

const RESOURCE_FOLDERS = ["scripts", "references", "assets"] as const;
type ResourceFolder = (typeof RESOURCE_FOLDERS)[number];

const PLACEHOLDERS: Record<ResourceFolder, { file: string; content: string; executable?: boolean }> = {
  scripts: {
    file: "example.sh",
    content:
      '#!/usr/bin/env bash\n# Replace with a script the instructions tell the agent to run.\nset -euo pipefail\necho "Hello from $(basename "$0")"\n',
    executable: true,
  },
  references: {
    file: "REFERENCE.md",
    content: "# Reference\n\nDetailed material the agent reads only when SKILL.md tells it to.\n",
  },
  assets: {
    file: "template.md",
    content: "# Template\n\nFiles the skill uses in its output: templates, images, data.\n",
  },
};

/**
 * `skillset create <name>`: writes a skill folder that passes `skillset validate`. Every check
 * runs before anything is written, so an invalid name or an existing folder writes nothing.
 */
export async function createCommand(name: string, options: CreateOptions, terminal: Terminal): Promise<number> {
  const nameErrors = validateFrontmatter({ name, description: "x" });
  if (nameErrors.length > 0) throw new CliError("usage", `Invalid skill name '${name}': ${nameErrors.join("; ")}`);
  const folders = parseResources(options.resources);
  const description = options.description ?? placeholderDescription(name);
  const directory = resolve(homePath(options.dir ?? "."), name);
  if (existsSync(directory))
    throw new CliError("already-exists", `${directory} already exists; choose another name or --dir`);
  const missing = foldersToCreate(directory);

  const content = skillTemplate(name, description, folders);
  const report = validateSkillText(content, { directoryName: name });
  if (!report.valid) throw new CliError("usage", `Cannot create ${name}: ${report.errors.join("; ")}`);

  createFolders(missing, directory);
  writeFileSync(join(directory, "SKILL.md"), content);
  for (const folder of folders) {
    const placeholder = PLACEHOLDERS[folder];
    mkdirSync(join(directory, folder));
    const file = join(directory, folder, placeholder.file);
    writeFileSync(file, placeholder.content);
    if (placeholder.executable) chmodSync(file, 0o755);
  }
  terminal.out(`Created ${directory}`);
  return 0;
}

function parseResources(value: string | undefined): ResourceFolder[] {
  if (value === undefined || value.trim() === "") return [];
  const requested = value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = requested.filter((item) => !(RESOURCE_FOLDERS as readonly string[]).includes(item));
  if (unknown.length > 0)
    throw new CliError(
      "usage",
      `Unknown resource folder: ${unknown.join(", ")}. Use any of ${RESOURCE_FOLDERS.join(", ")}.`,
    );
  return RESOURCE_FOLDERS.filter((folder) => requested.includes(folder));
}

function skillTemplate(name: string, description: string, folders: ResourceFolder[]): string {
  const resourceLines = folders.map(
    (folder) => `- \`${folder}/${PLACEHOLDERS[folder].file}\`: ${folderPurpose(folder)}`,
  );
  return [
    "---",
    `name: ${name}`,
    // JSON strings are valid YAML double-quoted scalars, so any description round-trips.
    `description: ${JSON.stringify(description)}`,
    "---",
    "",
    `# ${name}`,
    "",
    "## When to use",
    "",
    PLACEHOLDER_BODY_LINES[0],
    "",
    "## Steps",
    "",
    PLACEHOLDER_BODY_LINES[1],
    PLACEHOLDER_BODY_LINES[2],
    ...(resourceLines.length > 0 ? ["", "## Resources", "", ...resourceLines] : []),
    "",
  ].join("\n");
}

function folderPurpose(folder: ResourceFolder): string {
  return { scripts: "run it when a step needs it", references: "read it for details", assets: "use it in the output" }[
    folder
  ];
}
