import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { compareCodePoints } from "../../core/text/python-text.js";
import type { SkillsLogger } from "../../core/skill-events.js";
import { mimeTypeOf } from "./mime-type.js";
import { resolveSkillUri } from "./mcp-resources.js";
import { pageAfter, protocolError, refuseUnverified, sourceOf, type McpServerContext } from "./server-context.js";
import { buildSkillEntry, type SkillEntry } from "../skills-extension/skill-entry.js";
import { parseSkillUri, skillUri } from "../skills-extension/skill-uri.js";

// Params are checked by the handlers, so a bad one is `InvalidParams`, not a schema failure.
const params = z.record(z.string(), z.unknown()).optional();
const ListSkillsRequestSchema = z.object({ method: z.literal("skills/list"), params });
const GetSkillRequestSchema = z.object({ method: z.literal("skills/get"), params });
const ReadDirectoryRequestSchema = z.object({ method: z.literal("resources/directory/read"), params });

/**
 * The Skills extension (`io.modelcontextprotocol/skills`): `skills/list` (paginated, an entry
 * never split), `skills/get`, and `resources/directory/read` over every folder of a served skill.
 * Entries are built from the bytes the sources hold at the time of the request, so digests follow
 * the files as they change. A skill whose entry cannot be built (over the limits, frontmatter
 * that is not YAML) is left out of the listing, and `skills/get` answers `-32602` for it.
 */
export function handleSkillsExtension(
  server: Server,
  context: McpServerContext,
  logger: SkillsLogger | undefined,
): void {
  const cache = { resultType: "complete", ttlMs: context.ttlMs, cacheScope: "public" } as const;

  server.setRequestHandler(ListSkillsRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    if (cursor !== undefined && typeof cursor !== "string")
      throw protocolError(ErrorCode.InvalidParams, "cursor must be a string");
    const paged = pageAfter((await context.snapshot()).skills, (skill) => skill.name, cursor, context.pageSize);
    if (!paged) throw protocolError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    const skills: SkillEntry[] = [];
    for (const skill of paged.page) {
      const source = sourceOf(context, skill);
      const built = source
        ? await buildSkillEntry(source, skill)
        : { ok: false as const, reason: `its source '${skill.source}' is gone` };
      if (built.ok) skills.push(built.entry);
      else
        logger?.({
          level: "warn",
          event: "skill_diagnostic",
          message: `Skill '${skill.name}' is not served over MCP: ${built.reason}`,
          skill: skill.name,
          file: skill.path,
        });
    }
    return { ...cache, skills, ...(paged.nextCursor ? { nextCursor: paged.nextCursor } : {}) };
  });

  server.setRequestHandler(GetSkillRequestSchema, async (request) => {
    const uri = request.params?.uri;
    if (typeof uri !== "string")
      throw protocolError(ErrorCode.InvalidParams, "uri must be the URI of a skill's SKILL.md");
    const parsed = parseSkillUri(uri);
    const skill =
      parsed.ok && parsed.path === "SKILL.md" && !parsed.namesFolder
        ? (await context.snapshot()).get(parsed.skill)
        : undefined;
    const source = skill && sourceOf(context, skill);
    if (!skill || !source) throw protocolError(ErrorCode.InvalidParams, `No skill is served at ${uri}`);
    await refuseUnverified(context, skill);
    const built = await buildSkillEntry(source, skill);
    if (!built.ok) throw protocolError(ErrorCode.InvalidParams, `No skill is served at ${uri}: ${built.reason}`);
    return { ...cache, skill: built.entry };
  });

  server.setRequestHandler(ReadDirectoryRequestSchema, async (request) => {
    const { uri, cursor } = request.params ?? {};
    if (typeof uri !== "string")
      throw protocolError(ErrorCode.InvalidParams, "uri must be the URI of a directory resource");
    if (cursor !== undefined && typeof cursor !== "string")
      throw protocolError(ErrorCode.InvalidParams, "cursor must be a string");
    const { skill, files, path } = await resolveSkillUri(context, uri);
    const prefix = path === undefined ? "" : `${path}/`;
    const children = new Map<string, Resource>();
    for (const file of files) {
      if (!file.relativePath.startsWith(prefix)) continue;
      const [name, ...below] = file.relativePath.slice(prefix.length).split("/");
      const childPath = prefix + name!;
      if (below.length > 0)
        children.set(name!, { uri: skillUri(skill.name, childPath), name: name!, mimeType: "inode/directory" });
      else
        children.set(name!, {
          uri: skillUri(skill.name, childPath),
          name: name!,
          ...mimeOf(childPath),
          ...(file.size !== undefined ? { size: file.size } : {}),
        });
    }
    if (children.size === 0 && path !== undefined)
      throw protocolError(ErrorCode.InvalidParams, `${uri} is not a directory resource`);
    const sorted = [...children.values()].sort((a, b) => compareCodePoints(a.name, b.name));
    const paged = pageAfter(sorted, (child) => child.name, cursor, context.pageSize);
    if (!paged) throw protocolError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    return {
      resultType: "complete",
      resources: paged.page,
      ...(paged.nextCursor ? { nextCursor: paged.nextCursor } : {}),
    };
  });
}

function mimeOf(path: string): { mimeType?: string } {
  const type = path === "SKILL.md" ? "text/markdown" : mimeTypeOf(path);
  return type ? { mimeType: type } : {};
}
