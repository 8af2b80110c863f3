import { countTokens } from "../../core/count-tokens.js";
import { renderCatalogXml } from "../../core/prompt-xml.js";
import { createSkillEngine } from "../../core/skill-engine.js";
import { CliError } from "../cli-error.js";
import { scanSources, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { shellCommand } from "../shell-command.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset prompt`. */
export interface PromptOptions extends SourceOptions {
  format?: string;
  tokens?: boolean;
}

/**
 * `skillset prompt [sources...]`: prints the catalog section exactly as the model sees it on
 * stdout; with `--tokens`, the o200k_base token counts go to stderr so stdout stays exact.
 */
export async function promptCommand(paths: string[], options: PromptOptions, terminal: Terminal): Promise<number> {
  const format = options.format ?? "markdown";
  if (format !== "markdown" && format !== "xml") throw new CliError("usage", `Unknown format '${format}': use markdown or xml`);
  const snapshot = await scanSources(paths, options, terminal);
  // Markdown: what the middleware adds to the system prompt on a first model call, with its defaults.
  const text =
    format === "xml"
      ? renderCatalogXml(snapshot.skills)
      : await createSkillEngine().systemPrompt({ state: { skills: snapshot.skills, loaded: [], resources: {} }, sources: async () => [] });
  terminal.out(text);
  const skipped = new Set(snapshot.diagnostics.filter((diagnostic) => diagnostic.severity === "error").map((diagnostic) => diagnostic.file)).size;
  if (skipped > 0) {
    // The hint reads the same sources the same way, so it works as printed.
    const list = shellCommand(["list", ...(options.recursive ? ["--recursive"] : [])], paths);
    terminal.err(`${plural(skipped, "skill")} ${skipped === 1 ? "was" : "were"} skipped; run \`${list}\` to see why.`);
  }
  if (options.tokens) {
    const total = await countTokens(text);
    const empty = format === "xml" ? renderCatalogXml([]) : text.split("\n").filter((line) => !line.startsWith("- ")).join("\n");
    const preamble = await countTokens(empty);
    const count = format === "xml" ? snapshot.skills.length : snapshot.skills.filter((skill) => !skill.disableModelInvocation).length;
    const perSkill = count > 0 ? ((total - preamble) / count).toFixed(1) : "0";
    terminal.err(`${total} tokens (o200k_base): ${preamble} preamble, ${perSkill} per skill on average over ${plural(count, "skill")}`);
  }
  return 0;
}
