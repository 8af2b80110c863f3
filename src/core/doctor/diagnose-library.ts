import type { CatalogSnapshot } from "../catalog/catalog.js";
import { loadTokenCounter, type TokenCounter } from "../text/count-tokens.js";
import { DEFAULT_CATALOG_BUDGET } from "../catalog/render-catalog.js";
import { createSkillEngine } from "../engine/skill-engine.js";
import { baseName } from "../text/path-separator.js";
import { skillDirectory, type SkillMetadata } from "../skill-file/skill-metadata.js";
import { DEFAULT_RESOURCE_LIMITS } from "../resources/skill-resources.js";
import type { EmbedTexts } from "../search/skill-search.js";
import type { SkillSource } from "../skill-source.js";
import { catalogCosts, catalogFindings, type CatalogCostReport } from "./catalog-cost.js";
import { sortFindings, type DoctorFinding } from "./doctor-finding.js";
import { lintSkill } from "./lint-skill.js";
import { moduleFindings } from "./module-findings.js";
import { DEFAULT_RIVAL_OVERLAP, DEFAULT_RIVAL_SIMILARITY, findRivalSkills } from "./rival-skills.js";

/** One recorded conversation: which skills it loaded at any point. */
export interface RecordedThread {
  id: string;
  loaded: readonly string[];
}

/** Options of {@link diagnoseLibrary}. */
export interface DiagnoseLibraryOptions {
  /** The catalog budget to place the skills under, as the middleware's `catalogBudget`; `false`: none. @default 5000 */
  budget?: number | false;
  /** Lexical overlap (0–1) from which two skills are rivals. @default 0.6 */
  rivalOverlap?: number;
  /** Embeds texts, to find rivals by meaning too (e.g. `(texts) => embeddings.embedDocuments(texts)`). */
  embed?: EmbedTexts;
  /** Cosine similarity of two descriptions' vectors from which they are rivals, with `embed`. @default 0.85 */
  rivalSimilarity?: number;
  /** Called when `embed` fails; rivals are then found lexically only. Without it, the error is thrown. */
  onEmbedError?: (error: unknown) => void;
  /** Recorded threads: with at least one, each skill none of them loaded is a `never-loaded` finding. */
  threads?: readonly RecordedThread[];
}

/** What hurts a library, in one report. */
export interface DoctorReport {
  /** Skills in the catalog (winners of their names). */
  skills: number;
  /** Sorted by severity, then skill and code. */
  findings: DoctorFinding[];
  catalog: CatalogCostReport;
  /** Recorded threads examined, when some were given. */
  threads?: number;
}

/**
 * Examines a library: rival skills, same-name shadowing, the catalog's cost per skill and what
 * the budget leaves out, skills recorded threads never loaded, lint of each skill (placeholders,
 * lengths, when to use it, resources its body never names), each module that cannot be imported
 * (`metadata.entrypoint`: its path, file and syntax), and the sources' own errors and
 * warnings. Reads each `SKILL.md` and folder listing through its source; never throws for a
 * skill's problem, which is a finding.
 */
export async function diagnoseLibrary(
  library: { snapshot: CatalogSnapshot; sources: readonly SkillSource[] },
  options: DiagnoseLibraryOptions = {},
): Promise<DoctorReport> {
  const { snapshot, sources } = library;
  const budget = options.budget ?? DEFAULT_CATALOG_BUDGET;
  const count = await loadTokenCounter();
  const rendered = await createSkillEngine({ catalogBudget: budget }).catalog({
    state: { skills: snapshot.skills, loaded: [], resources: {} },
    sources: async () => sources,
  });
  const catalog = catalogCosts(snapshot.skills, rendered, budget, count);
  const findings: DoctorFinding[] = [
    ...sourceFindings(snapshot),
    ...shadowFindings(snapshot),
    ...(await findRivalSkills(snapshot.skills, {
      overlap: options.rivalOverlap ?? DEFAULT_RIVAL_OVERLAP,
      similarity: options.rivalSimilarity ?? DEFAULT_RIVAL_SIMILARITY,
      ...(options.embed ? { embed: options.embed } : {}),
      ...(options.onEmbedError ? { onEmbedError: options.onEmbedError } : {}),
    })),
    ...catalogFindings(catalog),
    ...neverLoaded(snapshot.skills, options.threads),
  ];
  const byId = new Map(sources.map((source) => [source.id, source]));
  for (const skill of snapshot.skills) {
    findings.push(...(await lintFromSource(skill, byId.get(skill.source), count)));
    findings.push(...(await moduleFindings(skill, byId.get(skill.source))));
  }
  return {
    skills: snapshot.skills.length,
    findings: sortFindings(findings),
    catalog,
    ...(options.threads?.length ? { threads: options.threads.length } : {}),
  };
}

async function lintFromSource(
  skill: SkillMetadata,
  source: SkillSource | undefined,
  count: TokenCounter,
): Promise<DoctorFinding[]> {
  try {
    if (!source) throw new Error(`no source with id ${skill.source}`);
    const text = new TextDecoder().decode(await source.readSkill(skill));
    const listing = await source.listFiles(skill, DEFAULT_RESOURCE_LIMITS);
    return lintSkill(skill, text, listing.files, count);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [
      {
        code: "unreadable-skill",
        severity: "error",
        skill: skill.name,
        file: skill.path,
        message: `'${skill.name}' could not be read for the checks: ${reason}`,
        fix: "Make the skill's SKILL.md and folder readable, then run doctor again",
      },
    ];
  }
}

// The sources' own errors and warnings (invalid frontmatter, skipped links, …); their `shadowed`
// and `same-skill` infos are told better below or are harmless.
function sourceFindings(snapshot: CatalogSnapshot): DoctorFinding[] {
  return (
    snapshot.diagnostics
      // A module's path that breaks the rules is a module finding, with the others.
      .filter((diagnostic) => diagnostic.severity !== "info" && diagnostic.code !== "entrypoint-invalid")
      .map((diagnostic) => ({
        code: diagnostic.code,
        severity: diagnostic.severity,
        // A file skipped before its name was read goes by its folder's name, as `list` shows it.
        skill: diagnostic.skill ?? baseName(skillDirectory({ path: diagnostic.file })),
        file: diagnostic.file,
        message: diagnostic.message,
        fix:
          diagnostic.severity === "error"
            ? "Fix the file as the message says (skillset validate checks a skill folder); until then the skill is not offered"
            : "Fix the file as the message says (skillset validate checks a skill folder)",
      }))
  );
}

function shadowFindings(snapshot: CatalogSnapshot): DoctorFinding[] {
  return snapshot.shadowed.map((skill) => {
    const winner = snapshot.get(skill.name);
    return {
      code: "shadowed",
      severity: "warning",
      skill: skill.name,
      related: winner?.path ?? skill.name,
      file: skill.path,
      message: `'${skill.name}' at ${skill.path} is hidden by the skill of the same name at ${winner?.path ?? "a later source"}: only that one is offered`,
      fix: "Rename one of the two skills if both are wanted, or delete the hidden copy if it is stale",
    };
  });
}

function neverLoaded(
  skills: readonly SkillMetadata[],
  threads: readonly RecordedThread[] | undefined,
): DoctorFinding[] {
  if (!threads || threads.length === 0) return [];
  const loaded = new Set(threads.flatMap((thread) => thread.loaded));
  const none =
    threads.length === 1
      ? "The one recorded thread did not load"
      : `None of the ${threads.length} recorded threads loaded`;
  return skills
    .filter((skill) => !loaded.has(skill.name))
    .map((skill) => ({
      code: "never-loaded",
      severity: "info",
      skill: skill.name,
      file: skill.path,
      message: `${none} '${skill.name}'`,
      fix: "If requests it is for came up, its description does not match them: test it with skillset eval; if they never come up, it may not be needed",
    }));
}
