import { join, resolve } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { SkillsetError } from "../errors/skillset-error.js";
import { baseName } from "../core/text/path-separator.js";
import { skillDirectory, type SkillMetadata } from "../core/skill-file/skill-metadata.js";
import type { SkillSource, SkillSourceScan } from "../core/skill-source.js";
import { realOrResolved } from "../fs/link-target.js";
import { expandHome } from "../fs/expand-home.js";
import { createLocalSource } from "./local-source.js";
import { packageSkillFolders } from "./npm-package-skill-folders.js";
import { resolveNpmPackages, type ResolvedNpmPackage } from "./npm-packages.js";
import { type KnownOptions, refuseUnknownOptions } from "../errors/known-options.js";

export { NPM_SOURCE_PREFIX } from "./string-source-kind.js";

/** Options of {@link createNpmSource}. */
export interface NpmSourceOptions {
  /**
   * Packages to read skills from (`pkg`, `@scope/pkg`). When left out, those that the `skills`
   * field of the project's `package.json` names (`"skills": ["npm:<package>", …]`).
   */
  packages?: readonly string[];
  /** The folder packages are resolved from, as `require` would from a file in it. @default process.cwd() */
  cwd?: string;
  /**
   * Further folders that installed packages and links inside them may lead into, besides the
   * project, the workspace root whose `node_modules` holds a package, and the package itself.
   * @default []
   */
  allowedRoots?: readonly string[];
  /** Watch the packages' skill folders, as local sources do. @default true */
  watch?: boolean;
  /** Names the source in diagnostics. @default `npm:<packages>`, or `npm:<project package.json>` */
  id?: string;
}

const NPM_SOURCE_OPTIONS = {
  packages: true,
  cwd: true,
  allowedRoots: true,
  watch: true,
  id: true,
} as const satisfies KnownOptions<NpmSourceOptions>;

/**
 * A source over skills shipped in installed npm packages (Node only): a package's root
 * `SKILL.md`, or its `skills/<name>/SKILL.md` and `dist/skills/<name>/SKILL.md`. Packages are
 * found as Node finds them, again on every scan, so an `npm install` meanwhile is seen; each
 * skill carries its package's name and version (`SkillMetadata.package`). Packages not
 * installed, without skills, or linked from outside the allowed folders are diagnostics.
 */
export function createNpmSource(options: NpmSourceOptions = {}): SkillSource {
  refuseUnknownOptions("createNpmSource", options, NPM_SOURCE_OPTIONS);
  const cwd = resolve(expandHome(options.cwd ?? process.cwd()));
  const id = options.id ?? `npm:${options.packages ? options.packages.join(",") : join(cwd, "package.json")}`;
  const allowedRoots = (options.allowedRoots ?? []).map((path) => realOrResolved(expandHome(path)));
  // One local source per skills folder, kept while its package stays installed (its watchers too).
  let folders = new Map<string, SkillSource>();
  let owners = new Map<string, SkillSource>();
  let last: { key: string; scan: SkillSourceScan } | undefined;
  let version = 0;

  const scanPackages = async (): Promise<SkillSourceScan> => {
    const resolved = resolveNpmPackages({
      ...(options.packages ? { packages: options.packages } : {}),
      cwd,
      allowedRoots,
      sourceId: id,
    });
    const diagnostics = [...resolved.diagnostics];
    const skills: SkillMetadata[] = [];
    const nextFolders = new Map<string, SkillSource>();
    const nextOwners = new Map<string, SkillSource>();
    const versions: string[] = [];
    for (const pkg of resolved.packages) {
      const layout = packageSkillFolders(pkg, allowedRoots, id);
      diagnostics.push(...layout.diagnostics);
      let count = 0;
      for (const folder of layout.folders) {
        const inner =
          folders.get(folder) ??
          createLocalSource({
            path: folder,
            id,
            watch: options.watch ?? true,
            allowedRoots: [...allowedRoots, pkg.realDirectory],
          });
        nextFolders.set(folder, inner);
        const scan = await inner.scan();
        versions.push(`${folder}@${pkg.version ?? ""}:${scan.version}`);
        diagnostics.push(...scan.diagnostics);
        for (const skill of chosenSkills(scan.skills, pkg, diagnostics, id)) {
          skills.push({
            ...skill,
            package: { name: pkg.name, ...(pkg.version === undefined ? {} : { version: pkg.version }) },
          });
          nextOwners.set(skill.path, inner);
          count++;
        }
      }
      if (count === 0 && layout.folders.length > 0) {
        const message = `Package '${pkg.name}' (${pkg.directory}) has no valid skills in ${layout.folders.join(", ")}`;
        diagnostics.push({
          severity: "warning",
          code: "package-without-skills",
          file: join(pkg.directory, "package.json"),
          message,
          source: id,
        });
      }
    }
    for (const [folder, inner] of folders) if (!nextFolders.has(folder)) inner.close?.();
    folders = nextFolders;
    owners = nextOwners;
    // Unchanged inner scans, packages and problems: the same scan, so callers reuse what they derived.
    const key = JSON.stringify([versions, diagnostics.map((diagnostic) => diagnostic.message)]);
    if (last?.key !== key) last = { key, scan: { version: `${id}#${++version}`, skills, diagnostics } };
    return last.scan;
  };
  const owner = (skill: SkillMetadata): SkillSource => {
    const inner = owners.get(skill.path);
    if (!inner) throw new SkillsetError("not-found", `${skill.path} is not a skill of ${id} (any longer); scan again`);
    return inner;
  };

  let running: Promise<SkillSourceScan> | undefined;
  return {
    specificationVersion: "v1",
    id,
    scan() {
      running ??= scanPackages().finally(() => {
        running = undefined;
      });
      return running;
    },
    readSkill: async (skill) => owner(skill).readSkill(skill),
    listFiles: async (skill, limits) => owner(skill).listFiles(skill, limits),
    readFile: async (skill, relativePath, maxBytes) => {
      const inner = owner(skill);
      if (!inner.readFile) throw new SkillsetError("not-found", `${relativePath} cannot be read from ${id}`);
      return inner.readFile(skill, relativePath, maxBytes);
    },
    close() {
      for (const inner of folders.values()) inner.close?.();
      folders = new Map();
    },
  };
}

// The skills of a package that were asked for (all, or those named by folder or skill name); a
// warning for each name asked for that the package does not have.
function chosenSkills(
  skills: readonly SkillMetadata[],
  pkg: ResolvedNpmPackage,
  diagnostics: Diagnostic[],
  sourceId: string,
): readonly SkillMetadata[] {
  if (pkg.skills.length === 0) return skills;
  const folderName = (skill: SkillMetadata) => baseName(skillDirectory(skill));
  for (const name of pkg.skills) {
    if (skills.some((skill) => skill.name === name || folderName(skill) === name)) continue;
    diagnostics.push({
      severity: "warning",
      code: "skill-not-in-package",
      file: join(pkg.directory, "package.json"),
      message: `Package '${pkg.name}' has no skill '${name}'`,
      source: sourceId,
    });
  }
  return skills.filter((skill) => pkg.skills.includes(skill.name) || pkg.skills.includes(folderName(skill)));
}
