import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { checkResourcePath } from "../../core/resources/resource-path.js";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from "../skills-extension/served-files.js";
import type { SkillEntry, SkillEntryFile } from "../skills-extension/skill-entry.js";

const fileSchema = z.object({
  uri: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size: z.number().int().min(0),
});
const entrySchema = z.object({
  uri: z.string().min(1),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.union([z.array(fileSchema), z.literal("dynamic")]),
});

/** Pages of `skills/list`, as far as skillset reads them; entries are checked one by one. */
export const listSkillsResultSchema = z.object({
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  ttlMs: z.number().min(0).optional(),
});

/** A `skills/get` result. */
export const getSkillResultSchema = z.object({ skill: z.unknown() });

/** A skill entry a server published, checked and indexed: what a host holds while it acts on the skill. */
export interface HeldSkill {
  entry: SkillEntry;
  /** The skill's folder URI: its `SKILL.md` URI without `/SKILL.md`. */
  root: string;
  /** The last segment of `root`, which must be the frontmatter's `name`. */
  name: string;
  /** The path of `root` below its scheme (`acme/billing/refunds`), to tell same-named skills apart. */
  skillPath: string;
  /** Each file by its path below the folder (percent-decoded), or `"dynamic"`. */
  files: Map<string, SkillEntryFile> | "dynamic";
}

/**
 * Checks an entry of `skills/list` or `skills/get` against the Skills extension: a `SKILL.md`
 * URI whose last folder segment is the frontmatter's `name`, and a complete manifest (`SKILL.md`
 * included, every file inside the skill's folder, once) within 512 files and 16 MiB, or
 * `"dynamic"`. Anything else is a reason not to use the skill.
 */
export function readSkillEntry(value: unknown): { ok: true; held: HeldSkill } | { ok: false; reason: string } {
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      reason: `the entry is not a valid Skill entry (${z.prettifyError(parsed.error).replace(/\s+/g, " ").trim()})`,
    };
  const entry = parsed.data as SkillEntry;
  if (!entry.uri.endsWith("/SKILL.md")) return { ok: false, reason: `its URI ${entry.uri} does not name a SKILL.md` };
  const root = entry.uri.slice(0, -"/SKILL.md".length);
  const scheme = root.indexOf("://");
  const skillPath = scheme === -1 ? root : root.slice(scheme + 3);
  const name = decoded(skillPath.slice(skillPath.lastIndexOf("/") + 1));
  if (entry.frontmatter.name !== name || typeof entry.frontmatter.description !== "string") {
    return {
      ok: false,
      reason: `its frontmatter must have a description and the name '${name}' its URI ends with (it has ${JSON.stringify(entry.frontmatter.name)})`,
    };
  }
  const held = { entry, root, name, skillPath };
  if (entry.resources === "dynamic") return { ok: true, held: { ...held, files: "dynamic" } };
  const files = new Map<string, SkillEntryFile>();
  let bytes = 0;
  for (const file of entry.resources) {
    if (!file.uri.startsWith(`${root}/`))
      return { ok: false, reason: `its file ${file.uri} is outside the skill's folder ${root}` };
    const path = file.uri
      .slice(root.length + 1)
      .split("/")
      .map(decoded)
      .join("/");
    const checked = checkResourcePath(path);
    if (!checked.ok || checked.path !== path)
      return {
        ok: false,
        reason: `its file ${file.uri} has a path a skill's file cannot have (${checked.ok ? "empty or '.' segments" : checked.reason})`,
      };
    if (files.has(path)) return { ok: false, reason: `its file ${file.uri} is listed twice` };
    files.set(path, file);
    bytes += file.size;
  }
  if (!files.has("SKILL.md")) return { ok: false, reason: "its resources do not list its SKILL.md" };
  if (files.size > MAX_SKILL_FILES)
    return {
      ok: false,
      reason: `it has ${files.size} files, more than the Skills extension's limit of ${MAX_SKILL_FILES}`,
    };
  if (bytes > MAX_SKILL_BYTES)
    return {
      ok: false,
      reason: `its files hold ${bytes} bytes, more than the Skills extension's limit of ${MAX_SKILL_BYTES} (16 MiB)`,
    };
  return { ok: true, held: { ...held, files } };
}

/** Whether two entries describe the same content: the same frontmatter and the same files with the same digests. */
export function sameEntry(a: SkillEntry, b: SkillEntry): boolean {
  return isDeepStrictEqual([a.frontmatter, a.resources], [b.frontmatter, b.resources]);
}

/** A URI segment percent-decoded, or as it is when its encoding is malformed. */
export function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
