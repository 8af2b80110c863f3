import { catalogPlaces } from "../../core/doctor/catalog-cost.js";
import { createSkillEngine } from "../../core/engine/skill-engine.js";
import { budgetSummary } from "../budget-summary.js";
import { parseBudget, scanCatalog, type SourceOptions } from "../open-catalog.js";
import { plural } from "../plural.js";
import {
  displayDiagnostic,
  displayLocation,
  rowName,
  shorten,
  shortenStart,
  skillRows,
  sourceDiagnostics,
  type SkillStatus,
} from "../skill-rows.js";
import type { Terminal } from "../terminal.js";
import { verifySiteSkills } from "../verify-site-skills.js";
import { moduleDiagnostic, skillModules } from "../skill-modules.js";

/** Options of `skillset list`. */
export interface ListOptions extends SourceOptions {
  json?: boolean;
  /** `--budget <tokens>` (or `none`): the catalog budget to place the skills under. */
  budget?: string;
}

/** `skillset list [sources...]`: every skill with its status, then the diagnostics. Exit code 0. */
export async function listCommand(paths: string[], options: ListOptions, terminal: Terminal): Promise<number> {
  const budget = parseBudget(options.budget);
  const scan = await scanCatalog(paths, options, terminal, true);
  const { sources } = scan;
  const snapshot = await verifySiteSkills(scan.snapshot, sources);
  const catalog = await createSkillEngine({ catalogBudget: budget }).catalog({
    state: { skills: snapshot.skills, loaded: [], resources: {} },
    sources: async () => sources,
  });
  const places = catalogPlaces(catalog, snapshot.skills);
  const modules = await skillModules(snapshot.skills, sources);
  const rows = skillRows(snapshot).map((row) => {
    if (row.status !== "ok" && row.status !== "warning") return { ...row, catalog: null };
    const module = modules.get(row.path);
    if (!module) return { ...row, catalog: places.get(row.name!) ?? null };
    // A module that cannot be imported is a warning: the skill itself loads.
    const problem = moduleDiagnostic(snapshot.get(row.name!)!, module);
    return {
      ...row,
      ...(problem ? { status: "warning" as const, diagnostics: [...row.diagnostics, problem] } : {}),
      catalog: places.get(row.name!) ?? null,
      entrypoint: module.entrypoint,
    };
  });
  const general = sourceDiagnostics(snapshot, rows);
  const over = catalog.short.length + catalog.named.length + catalog.hidden.length > 0;
  if (options.json) {
    terminal.out(
      JSON.stringify(
        {
          skills: rows,
          diagnostics: general,
          ...(over
            ? {
                catalog: {
                  budget,
                  tokens: catalog.tokens,
                  whole: catalog.full.length,
                  shortened: catalog.short.length,
                  nameOnly: catalog.named.length,
                  searchOnly: catalog.hidden.length,
                },
              }
            : {}),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const { color } = terminal;
  const paint: Record<SkillStatus, (text: string) => string> = {
    ok: color.green,
    warning: color.yellow,
    shadowed: color.dim,
    skipped: color.red,
  };
  // The path column tells apart rows of the same name (a shadowed skill and its winner).
  const table = rows.map((row) => ({ row, name: rowName(row), folder: displayLocation(row) }));
  const nameWidth = Math.min(40, Math.max(4, ...table.map((entry) => entry.name.length)));
  const pathWidth = Math.min(50, Math.max(4, ...table.map((entry) => entry.folder.length)));
  // Over the budget, a column says where the model's catalog shows each skill.
  const place = (row: (typeof rows)[number]) => (over ? `${(row.catalog ?? "").padEnd(11)}  ` : "");
  // Skills with a module: a column names each one's entrypoint.
  const entrypoints = rows.map((row) => ("entrypoint" in row ? (row.entrypoint ?? "") : ""));
  const moduleWidth = entrypoints.some(Boolean)
    ? Math.min(30, Math.max(6, ...entrypoints.map((entry) => entry.length)))
    : 0;
  const moduleCell = (index: number) =>
    moduleWidth ? `${shortenStart(entrypoints[index]!, moduleWidth).padEnd(moduleWidth)}  ` : "";
  terminal.out(
    color.bold(
      `${"NAME".padEnd(nameWidth)}  ${"STATUS".padEnd(8)}  ${over ? "CATALOG      " : ""}${moduleWidth ? `${"MODULE".padEnd(moduleWidth)}  ` : ""}${"PATH".padEnd(pathWidth)}  DESCRIPTION`,
    ),
  );
  for (const [index, { row, name, folder }] of table.entries()) {
    const status = paint[row.status](row.status.padEnd(8));
    terminal.out(
      `${shorten(name, nameWidth).padEnd(nameWidth)}  ${status}  ${place(row)}${moduleCell(index)}${shortenStart(folder, pathWidth).padEnd(pathWidth)}  ${shorten(row.description ?? "", 60)}`,
    );
  }
  const counts = (status: SkillStatus) => rows.filter((row) => row.status === status).length;
  terminal.out(
    `\n${plural(snapshot.skills.length, "skill")} available (${counts("warning")} with warnings); ${counts("shadowed")} shadowed, ${counts("skipped")} skipped`,
  );
  if (over) terminal.out(budgetSummary(catalog, budget as number));
  // Other paths to a listed skill (an installer's links and copies) are one skill: --json names them.
  const diagnostics = [...rows.flatMap((row) => row.diagnostics), ...general].filter(
    (diagnostic) => diagnostic.code !== "same-skill",
  );
  if (diagnostics.length > 0) {
    terminal.out(color.bold("\nDiagnostics:"));
    for (const diagnostic of diagnostics) terminal.out(`  ${displayDiagnostic(diagnostic)}`);
  }
  return 0;
}
