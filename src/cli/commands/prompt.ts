import type { CatalogSnapshot } from "../../core/catalog/catalog.js";
import { countTokens } from "../../core/text/count-tokens.js";
import { renderCatalogXml } from "../../core/catalog/prompt-xml.js";
import { renderCatalog } from "../../core/catalog/render-catalog.js";
import { createSkillEngine } from "../../core/engine/skill-engine.js";
import { renderTextProtocolPrompt, textProtocolInstructions } from "../../core/text-protocol/text-protocol-prompt.js";
import { CliError } from "../cli-error.js";
import { budgetSummary } from "../budget-summary.js";
import { parseBudget, scanCatalog, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import { shellCommand } from "../shell-command.js";
import type { Terminal } from "../terminal.js";

/** Options of `skillset prompt`. */
export interface PromptOptions extends SourceOptions {
  format?: string;
  /** `tools` (the middleware's prompt) or `text` (the `<use_skill>` protocol of `createSkillRunner`). */
  protocol?: string;
  /** With `--protocol text`: `false` for a runner without an executor (`--no-scripts`). */
  scripts?: boolean;
  tokens?: boolean;
  /** `--budget <tokens>` (or `none`): the catalog's token budget, as the middleware's `catalogBudget`. */
  budget?: string;
}

/**
 * `skillset prompt [sources...]`: prints the catalog section exactly as the model sees it on
 * stdout; with `--tokens`, the o200k_base token counts go to stderr so stdout stays exact.
 * With `--protocol text`, it prints the whole system prompt of the text protocol instead.
 */
export async function promptCommand(paths: string[], options: PromptOptions, terminal: Terminal): Promise<number> {
  const protocol = options.protocol ?? "tools";
  if (protocol !== "tools" && protocol !== "text")
    throw new CliError("usage", `Unknown protocol '${protocol}': use tools or text`);
  if (protocol === "text") {
    if (options.format !== undefined && options.format !== "xml")
      throw new CliError(
        "usage",
        "--protocol text always shows the XML catalog (<available_skills>): leave out --format, or use --format xml",
      );
    return textPrompt(paths, options, terminal);
  }
  if (options.scripts === false) throw new CliError("usage", "--no-scripts is for --protocol text");
  const format = options.format ?? "markdown";
  if (format !== "markdown" && format !== "xml")
    throw new CliError("usage", `Unknown format '${format}': use markdown or xml`);
  const budget = parseBudget(options.budget);
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  // Markdown: what the middleware adds to the system prompt on a first model call, with its
  // defaults. XML: the reference's to-prompt, fitted to a budget only when one is given.
  const request = { state: { skills: snapshot.skills, loaded: [], resources: {} }, sources: async () => sources };
  const engine = createSkillEngine({ catalogBudget: budget });
  const fitted =
    format === "xml"
      ? await renderCatalog(snapshot.skills, {
          format,
          searchTool: "search_skills",
          sourceOrder: sources.map((source) => source.id),
          ...(options.budget !== undefined && budget !== false ? { budget } : {}),
        })
      : await engine.catalog(request);
  const text = format === "xml" ? fitted.text : await engine.systemPrompt(request);
  terminal.out(text);
  reportSkipped(snapshot, paths, options, terminal);
  if (options.tokens) {
    const empty =
      format === "xml"
        ? renderCatalogXml([])
        : text
            .split("\n")
            .filter((line) => !line.startsWith("- "))
            .join("\n");
    const count =
      format === "xml"
        ? snapshot.skills.length
        : snapshot.skills.filter((skill) => !skill.disableModelInvocation).length;
    await reportTokens(text, empty, count, terminal);
    if (fitted.full.length < count) terminal.err(budgetSummary(fitted, budget as number));
  }
  return 0;
}

// The system prompt `createSkillRunner` sends, with its defaults (the catalog fitted to
// --budget); with an executor unless --no-scripts.
async function textPrompt(paths: string[], options: PromptOptions, terminal: Terminal): Promise<number> {
  const budget = parseBudget(options.budget);
  const { snapshot, sources } = await scanCatalog(paths, options, terminal);
  const scripts = options.scripts !== false;
  const { text, offersSearch, catalog } = await renderTextProtocolPrompt(snapshot.skills, {
    scripts,
    catalogBudget: budget,
    sourceOrder: sources.map((source) => source.id),
  });
  terminal.out(text);
  reportSkipped(snapshot, paths, options, terminal);
  if (options.tokens) {
    const visible = snapshot.skills.filter((skill) => !skill.disableModelInvocation);
    const frame =
      visible.length === 0
        ? text
        : `${renderCatalogXml([])}\n\n${textProtocolInstructions({ scripts, arguments: visible.some((skill) => skill.argumentHint !== undefined), search: offersSearch })}`;
    await reportTokens(text, frame, visible.length, terminal);
    if (catalog.full.length < visible.length) terminal.err(budgetSummary(catalog, budget as number));
  }
  return 0;
}

function reportSkipped(snapshot: CatalogSnapshot, paths: string[], options: PromptOptions, terminal: Terminal): void {
  const skipped = new Set(
    snapshot.diagnostics.filter((diagnostic) => diagnostic.severity === "error").map((diagnostic) => diagnostic.file),
  ).size;
  if (skipped === 0) return;
  // The hint reads the same sources the same way, so it works as printed.
  const list = shellCommand(["list", ...(options.recursive ? ["--recursive"] : [])], paths);
  terminal.err(`${plural(skipped, "skill")} ${skipped === 1 ? "was" : "were"} skipped; run \`${list}\` to see why.`);
}

// `preamble` is the text without the skills' entries.
async function reportTokens(text: string, preamble: string, count: number, terminal: Terminal): Promise<void> {
  const total = await countTokens(text);
  const frame = await countTokens(preamble);
  const perSkill = count > 0 ? ((total - frame) / count).toFixed(1) : "0";
  terminal.err(
    `${total} tokens (o200k_base): ${frame} preamble, ${perSkill} per skill on average over ${plural(count, "skill")}`,
  );
}
