/**
 * What `diagnoseLibrary` reports, each code stable:
 *
 * - `rival-skills`: two descriptions overlap so much that one skill can be picked for the other's requests;
 * - `shadowed`: a skill hidden by a later source's skill of the same name;
 * - `catalog-shortened`, `catalog-name-only`, `catalog-search-only`: where the catalog budget
 *   leaves a skill less than its whole line;
 * - `never-loaded`: no recorded thread ever loaded the skill;
 * - `placeholder-description`, `placeholder-body`: text `skillset create` wrote for the author to replace;
 * - `body-too-many-lines`, `body-too-many-tokens`: a body over the Agent Skills guidance (500 lines, 5,000 tokens);
 * - `description-without-when`: a description that does not say when to use the skill;
 * - `unmentioned-resource`: a file in the skill's folder its body never names;
 * - `unreadable-skill`: a `SKILL.md` or folder listing the source could not read;
 * - `entrypoint-invalid`, `entrypoint-missing`, `entrypoint-outside`, `entrypoint-unreadable`,
 *   `module-too-large`, `module-not-utf8`, `module-syntax`: the module `metadata.entrypoint` names
 *   cannot be imported (its path, its file, its syntax);
 * - any code of a source's own diagnostics (errors and warnings, e.g. `description-missing`).
 */
export type DoctorCode =
  | "rival-skills"
  | "shadowed"
  | "catalog-shortened"
  | "catalog-name-only"
  | "catalog-search-only"
  | "never-loaded"
  | "placeholder-description"
  | "placeholder-body"
  | "body-too-many-lines"
  | "body-too-many-tokens"
  | "description-without-when"
  | "unmentioned-resource"
  | "unreadable-skill"
  | (string & {});

/** `error`: the skill cannot work as meant; `warning`: it hurts selection or cost; `info`: worth knowing. */
export type DoctorSeverity = "error" | "warning" | "info";

/** One problem of a library, with what to do about it. */
export interface DoctorFinding {
  code: DoctorCode;
  severity: DoctorSeverity;
  /** The skill concerned (for `rival-skills`, the first of the pair by name). */
  skill: string;
  /** The file to change: the skill's `SKILL.md`, or the resource concerned. */
  file: string;
  /** What is wrong, naming the skill (and the other skill, the file, the numbers). */
  message: string;
  /** What to do about it. */
  fix: string;
  /** The other skill of a `rival-skills` or `shadowed` pair. */
  related?: string;
  /** The measure behind the finding: overlap, lines, tokens. */
  value?: number;
}

/** Severities from the most serious, for sorting and for "at least this serious". */
export const DOCTOR_SEVERITIES: readonly DoctorSeverity[] = ["error", "warning", "info"];

/** Findings sorted by severity, then skill, code and file: the same library gives the same order. */
export function sortFindings(findings: readonly DoctorFinding[]): DoctorFinding[] {
  const rank = (finding: DoctorFinding) => DOCTOR_SEVERITIES.indexOf(finding.severity);
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...findings].sort(
    (a, b) => rank(a) - rank(b) || compare(a.skill, b.skill) || compare(a.code, b.code) || compare(a.file, b.file),
  );
}
