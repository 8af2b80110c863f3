import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import type { FileListLimits, SkillSource } from "../skill-source.js";

/** The kind of a skill's file, from the folder it is in. */
export type ResourceType = "script" | "reference" | "asset" | "other";

/** A file a skill ships besides its `SKILL.md`. */
export interface SkillResource {
  /** Location as the source names it, usable with the agent's file tools. */
  path: string;
  /** Path below the skill folder, e.g. `scripts/run.py`. */
  relativePath: string;
  type: ResourceType;
  size?: number;
}

/** The result of {@link discoverResources}. */
export interface ResourceDiscovery {
  resources: SkillResource[];
  /** True when a depth or count limit cut the listing short. */
  truncated: boolean;
  /** Set when the source could not list the files; `resources` is then empty. */
  error?: string;
}

/** Default bounds of resource discovery: 4 folder levels, 200 files. */
export const DEFAULT_RESOURCE_LIMITS: FileListLimits = { maxDepth: 4, maxFiles: 200 };

const FOLDER_TYPES: Record<string, ResourceType> = { scripts: "script", references: "reference", assets: "asset" };

/**
 * Classifies a path below a skill folder: files under `scripts/`, `references/` and `assets/`
 * (at any depth) are scripts, references and assets; files at the root are `other`; files in
 * any other folder are not resources (`undefined`).
 */
export function classifyResource(relativePath: string): ResourceType | undefined {
  const slash = relativePath.indexOf("/");
  if (slash === -1) return "other";
  return FOLDER_TYPES[relativePath.slice(0, slash)];
}

/**
 * Lists a skill's resources on demand, at any depth up to the limits. A source that fails to
 * list yields no resources and an `error`, never an exception, so one broken skill cannot stop a run.
 */
export async function discoverResources(
  source: SkillSource,
  skill: SkillMetadata,
  limits: FileListLimits = DEFAULT_RESOURCE_LIMITS,
): Promise<ResourceDiscovery> {
  try {
    const listing = await source.listFiles(skill, limits);
    const resources: SkillResource[] = [];
    for (const file of listing.files) {
      const type = classifyResource(file.relativePath);
      if (type)
        resources.push({
          path: file.path,
          relativePath: file.relativePath,
          type,
          ...(file.size === undefined ? {} : { size: file.size }),
        });
    }
    return { resources, truncated: listing.truncated };
  } catch (error) {
    return { resources: [], truncated: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const TYPE_ORDER: ResourceType[] = ["script", "reference", "asset", "other"];

/** Counts by type in a fixed order, e.g. `2 scripts, 1 reference`; empty when there are none. */
export function summarizeResources(resources: readonly Pick<SkillResource, "type">[]): string {
  const counts = new Map<ResourceType, number>();
  for (const resource of resources) counts.set(resource.type, (counts.get(resource.type) ?? 0) + 1);
  return TYPE_ORDER.filter((type) => counts.has(type))
    .map((type) => `${counts.get(type)} ${type}${counts.get(type)! > 1 ? "s" : ""}`)
    .join(", ");
}
