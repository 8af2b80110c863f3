import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { FileListLimits, SkillFile, SkillFileListing } from "../../core/skill-source.js";
import { decoded } from "./remote-skill-entry.js";

const directorySchema = z.object({
  resources: z.array(
    z.object({
      uri: z.string(),
      name: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
    }),
  ),
  nextCursor: z.string().optional(),
});

/** The raw bytes of one resource: its text as UTF-8, or its base64 blob decoded. */
export async function readResourceBytes(
  client: Client,
  uri: string,
  options: { timeout: number; maxBytes: number },
): Promise<Uint8Array> {
  const { contents } = await client.readResource({ uri }, { timeout: options.timeout });
  const content = contents.find((candidate) => candidate.uri === uri) ?? contents[0];
  if (!content) throw new SkillsetError("cannot-read", `the server returned no content for ${uri}`);
  const bytes = "text" in content ? new TextEncoder().encode(content.text) : Buffer.from(content.blob, "base64");
  if (bytes.byteLength > options.maxBytes)
    throw new SkillsetError("too-large", `${uri} is larger than ${options.maxBytes} bytes`);
  return bytes;
}

/**
 * The files below a folder resource, by `resources/directory/read`, breadth-first within
 * `limits`: how a dynamic skill's files are found. Only URIs inside `root` count.
 */
export async function readDirectory(
  client: Client,
  root: string,
  limits: FileListLimits,
  timeout: number,
): Promise<SkillFileListing> {
  const files: SkillFile[] = [];
  let truncated = false;
  let level = [root];
  for (let depth = 0; level.length > 0 && !truncated; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      let cursor: string | undefined;
      do {
        const page = (await client.request(
          {
            method: "resources/directory/read",
            params: { uri: folder, ...(cursor === undefined ? {} : { cursor }) },
          } as never,
          directorySchema as never,
          { timeout },
        )) as z.infer<typeof directorySchema>;
        for (const child of page.resources) {
          if (!child.uri.startsWith(`${root}/`)) continue;
          if (child.mimeType === "inode/directory") {
            if (depth < limits.maxDepth) next.push(child.uri);
            else truncated = true;
          } else if (files.length >= limits.maxFiles) truncated = true;
          else
            files.push({
              path: child.uri,
              relativePath: child.uri
                .slice(root.length + 1)
                .split("/")
                .map(decoded)
                .join("/"),
              ...(child.size === undefined ? {} : { size: child.size }),
            });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined && !truncated);
    }
    level = next;
  }
  return { files: files.filter((file) => file.relativePath !== "SKILL.md"), truncated };
}
