import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { MAX_RESOURCE_BYTES } from "../../core/resources/read-resource.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSource } from "../../core/skill-source.js";
import { mimeTypeOf } from "./mime-type.js";
import { listServedFiles, type ServedFile } from "../skills-extension/served-files.js";
import { pageAfter, protocolError, refuseUnverified, sourceOf, type McpServerContext } from "./server-context.js";
import { parseSkillUri, skillUri } from "../skills-extension/skill-uri.js";

/** The template of every skill file's URI. */
const SKILL_FILE_TEMPLATE = "skill://{skill}/{+path}";

/** A served skill named by a `skill://` URI, with its files and the path the URI names below it (`undefined`: the skill's folder). */
export interface ResolvedSkillUri {
  skill: SkillMetadata;
  source: SkillSource;
  files: ServedFile[];
  path: string | undefined;
  /** The URI ends in `/` or a `.` segment: it names a folder, never a file. */
  namesFolder: boolean;
}

/**
 * Finds the skill a `skill://` URI names and lists the files it serves. A URI that does not
 * parse, that leaves the skill's folder (`..`, also percent-encoded), or that names no served
 * skill is an `InvalidParams` error, as the base protocol has it for unknown resources.
 */
export async function resolveSkillUri(context: McpServerContext, uri: string): Promise<ResolvedSkillUri> {
  const parsed = parseSkillUri(uri);
  if (!parsed.ok) throw protocolError(ErrorCode.InvalidParams, `Unknown resource ${uri}: ${parsed.reason}`);
  const skill = (await context.snapshot()).get(parsed.skill);
  const source = skill && sourceOf(context, skill);
  if (!skill || !source)
    throw protocolError(ErrorCode.InvalidParams, `Unknown resource ${uri}: no skill named '${parsed.skill}' is served`);
  const files = await listServedFiles(source, skill);
  if (!files.ok) throw protocolError(ErrorCode.InvalidParams, `Skill '${skill.name}' is not served: ${files.reason}`);
  return { skill, source, files: files.files, path: parsed.path, namesFolder: parsed.namesFolder };
}

/**
 * `resources/list` gives each served skill's `SKILL.md` (name and description from its
 * frontmatter); every file of a skill is `skill://<name>/<path>` (the template) and is readable
 * with `resources/read`, within the same confinement as `read_skill_resource`: only the files the
 * skill serves, never through a symlink out of its folder, never a special file, at most 10 MiB.
 */
export function handleSkillResources(server: Server, context: McpServerContext): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const paged = pageAfter(
      (await context.snapshot()).skills,
      (skill) => skill.name,
      request.params?.cursor,
      context.pageSize,
    );
    if (!paged) throw protocolError(ErrorCode.InvalidParams, `Invalid cursor: ${request.params?.cursor}`);
    const resources: Resource[] = [];
    for (const skill of paged.page) {
      const source = sourceOf(context, skill);
      if (source && (await listServedFiles(source, skill)).ok)
        resources.push({
          uri: skillUri(skill.name),
          name: skill.name,
          description: skill.description,
          mimeType: "text/markdown",
        });
    }
    return { resources, ...(paged.nextCursor ? { nextCursor: paged.nextCursor } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: SKILL_FILE_TEMPLATE,
        name: "skill-file",
        description: "A file of a skill, by its path below the skill's folder; skills/list or load_skill lists them.",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const { skill, source, files, path, namesFolder } = await resolveSkillUri(context, uri);
    // `skill://x/SKILL.md/` (or `/.`) is not the file's URI.
    if (namesFolder)
      throw protocolError(
        ErrorCode.InvalidParams,
        `Unknown resource ${uri}: a URI ending in / or /. names a directory, not a file`,
      );
    if (path === undefined || !files.some((file) => file.relativePath === path)) {
      const folder = path === undefined || files.some((file) => file.relativePath.startsWith(`${path}/`));
      throw protocolError(
        ErrorCode.InvalidParams,
        folder
          ? `${uri} is a directory resource, not a file`
          : `Unknown resource ${uri}: skill '${skill.name}' has no file ${path}`,
      );
    }
    await refuseUnverified(context, skill);
    let bytes: Uint8Array;
    try {
      bytes = path === "SKILL.md" ? await source.readSkill(skill) : await readServedFile(source, skill, path);
    } catch (error) {
      throw protocolError(
        ErrorCode.InternalError,
        `Cannot read ${uri}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { contents: [resourceContents(uri, path, bytes)] };
  });
}

async function readServedFile(source: SkillSource, skill: SkillMetadata, path: string): Promise<Uint8Array> {
  if (!source.readFile) throw new SkillsetError("cannot-read", `the source of skill '${skill.name}' cannot read files`);
  return source.readFile(skill, path, MAX_RESOURCE_BYTES);
}

// Text when the bytes are UTF-8 without NUL (the byte-order mark kept, so the text encodes back
// to the same bytes and digest); anything else is a base64 blob.
function resourceContents(uri: string, path: string, bytes: Uint8Array): ReadResourceResult["contents"][number] {
  let text: string | undefined;
  if (!bytes.includes(0)) {
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
  }
  if (text === undefined)
    return {
      uri,
      mimeType: mimeTypeOf(path) ?? "application/octet-stream",
      blob: Buffer.from(bytes).toString("base64"),
    };
  return { uri, mimeType: path === "SKILL.md" ? "text/markdown" : (mimeTypeOf(path) ?? "text/plain"), text };
}
