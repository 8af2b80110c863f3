import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SkillsetError } from "../../errors/skillset-error.js";
import { printable } from "../../core/text/safe-text.js";
import { isInsideFolder } from "../../fs/path-inside.js";
import { packageSkill } from "../../node/package-skill.js";
import { CliError } from "../cli-error.js";
import { homePath } from "../home-path.js";
import { plural } from "../plural.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset package`. */
export interface PackageOptions {
  /** `--out <file>`: where to write the package (default: `<name>.skill` in the working folder). */
  out?: string;
  allowClaudeCodeFields?: boolean;
}

/**
 * `skillset package <skill>`: writes the skill folder as a `.skill` zip for upload. Exit code 0
 * when written; an invalid skill or a file that cannot go in is an error (exit 1) and writes nothing.
 */
export async function packageCommand(path: string, options: PackageOptions, terminal: Terminal): Promise<number> {
  const directory = homePath(path);
  let packed;
  try {
    packed = packageSkill(directory, { allowClaudeCodeFields: options.allowClaudeCodeFields ?? false });
  } catch (error) {
    if (!SkillsetError.isInstance(error)) throw error;
    throw new CliError(error.code === "invalid-skill" ? "invalid-skill" : "refused", error.message);
  }
  const out = resolve(options.out === undefined ? `${packed.name}.skill` : homePath(options.out));
  // A package inside its own folder would be packed into the next one.
  if (isInsideFolder(packed.directory, out)) {
    throw new CliError("usage", `--out ${out} is inside the skill folder; write the package elsewhere`);
  }
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, packed.bytes);
  } catch (error) {
    throw new CliError("cannot-create", `Cannot write ${out}: ${(error as Error).message}`);
  }
  for (const entry of packed.entries) terminal.out(`  ${printable(entry)}`);
  terminal.out(
    `Packaged ${printable(packed.name)} (${plural(packed.entries.length, "file")}, ${packed.bytes.length.toLocaleString("en-US")} bytes) to ${printable(out)}`,
  );
  return 0;
}
