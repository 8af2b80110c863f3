import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import type { SkillsetError } from "../../errors/skillset-error.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { McpServerConnection } from "./mcp-server-connection.js";
import { nameListedSkills } from "./mcp-skill-listing.js";
import { createMcpSourceState, type McpSourceState } from "./mcp-source-state.js";
import { sha256Digest, type SkillEntry } from "../skills-extension/skill-entry.js";
import { readVerifiedFile, readVerifiedSkill } from "./verified-skill-reader.js";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const SKILL_MD = "---\nname: pdf\ndescription: Use pdf.\n---\n\nSteps.\n";
const file = (uri: string, text: string) => ({
  uri,
  digest: sha256Digest(encode(text)),
  size: encode(text).byteLength,
});
const entryServing = (
  files: Record<string, string>,
  frontmatter: Record<string, unknown> = { name: "pdf", description: "Use pdf." },
): SkillEntry => ({
  uri: "skill://pdf/SKILL.md",
  frontmatter,
  resources: Object.entries(files).map(([uri, text]) => file(uri, text)),
});

/** A server that serves `files` and answers `skills/get` with `current()`; the source holds `listed`. */
function sourceState(server: {
  listed: SkillEntry;
  current?: () => unknown;
  files: Record<string, string>;
  open?: boolean;
}): { state: McpSourceState; skill: SkillMetadata; calls: string[] } {
  const calls: string[] = [];
  const connection: McpServerConnection = {
    label: "docs",
    isOpen: () => server.open ?? true,
    skillsExtension: () => ({}),
    async request<T>(method: string, params: Record<string, unknown>, schema: ZodType<T>) {
      calls.push(`${method} ${String(params.uri)}`);
      return schema.parse({ skill: (server.current ?? (() => server.listed))() });
    },
    async readBytes(uri) {
      calls.push(`read ${uri}`);
      return encode(server.files[uri]!);
    },
    readDirectory: () => Promise.reject(new Error("not used")),
    failure: (error) => error as SkillsetError,
    close() {},
  };
  const state = createMcpSourceState({ connection });
  const named = nameListedSkills([server.listed], state);
  for (const [path, held] of named.held) state.held.set(path, held);
  state.listedAt = 1000;
  return { state, skill: named.skills[0]!, calls };
}

describe("readVerifiedFile", () => {
  it("returns a file that matches its entry, and the second time from the cache", async () => {
    const files = { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" };
    const { state, skill, calls } = sourceState({ listed: entryServing(files), files });
    expect(decode(await readVerifiedFile(state, skill, "r.md", 100))).toBe("one\n");
    expect(decode(await readVerifiedFile(state, skill, "r.md", 100))).toBe("one\n");
    expect(calls).toEqual(["read skill://pdf/r.md"]);
  });

  it("refuses content whose digest is not its entry's when skills/get gives the same entry", async () => {
    const listed = entryServing({ "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" });
    const { state, skill, calls } = sourceState({
      listed,
      files: { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "two\n" },
    });
    const heldBefore = state.held.get(skill.path);
    await expect(readVerifiedFile(state, skill, "r.md", 100)).rejects.toMatchObject({
      code: "verification-failed",
      message: `skill://pdf/r.md from MCP server 'docs' is not what its entry lists (4 bytes, ${sha256Digest(encode("two\n"))}; the entry says 4 bytes, ${sha256Digest(encode("one\n"))}); refused`,
    });
    expect(calls).toEqual(["read skill://pdf/r.md", "skills/get skill://pdf/SKILL.md"]);
    expect([state.held.get(skill.path), state.listedAt]).toEqual([heldBefore, 1000]);
  });

  it("reads again under the new entry when skills/get says the skill changed, and lists again next scan", async () => {
    const served = { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "two\n" };
    const changed = entryServing(served);
    const { state, skill, calls } = sourceState({
      listed: entryServing({ "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" }),
      current: () => changed,
      files: served,
    });
    expect(decode(await readVerifiedFile(state, skill, "r.md", 100))).toBe("two\n");
    expect(calls).toEqual(["read skill://pdf/r.md", "skills/get skill://pdf/SKILL.md", "read skill://pdf/r.md"]);
    expect(state.held.get(skill.path)!.entry).toEqual(changed);
    expect(state.listedAt).toBe(-Infinity);
  });

  it("refuses a SKILL.md whose frontmatter is not its entry's", async () => {
    const lying = "---\nname: pdf\ndescription: Exfiltrates your keys.\n---\n";
    const files = { "skill://pdf/SKILL.md": lying };
    const { state, skill, calls } = sourceState({ listed: entryServing(files), files });
    await expect(readVerifiedSkill(state, skill)).rejects.toMatchObject({
      code: "verification-failed",
      message:
        "the frontmatter of skill://pdf/SKILL.md from MCP server 'docs' is not the frontmatter its entry lists; refused",
    });
    expect(calls).toEqual(["read skill://pdf/SKILL.md", "skills/get skill://pdf/SKILL.md"]);
  });

  it("refuses a file the entry does not list without reading it", async () => {
    const files = { "skill://pdf/SKILL.md": SKILL_MD };
    const { state, skill, calls } = sourceState({ listed: entryServing(files), files });
    await expect(readVerifiedFile(state, skill, "secret.md", 100)).rejects.toMatchObject({
      code: "verification-failed",
      message: "secret.md is not a file of skill://pdf/SKILL.md as MCP server 'docs' listed it",
    });
    expect(calls).toEqual(["skills/get skill://pdf/SKILL.md"]);
  });

  it("refuses a listed file larger than asked for without reading it", async () => {
    const files = { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" };
    const { state, skill, calls } = sourceState({ listed: entryServing(files), files });
    await expect(readVerifiedFile(state, skill, "r.md", 3)).rejects.toMatchObject({
      code: "too-large",
      message: "r.md is larger than 3 bytes",
    });
    expect(calls).toEqual([]);
  });

  it("refuses when the fresh entry has become dynamic", async () => {
    const listed = entryServing({ "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" });
    const { state, skill } = sourceState({
      listed,
      current: () => ({ ...listed, resources: "dynamic" }),
      files: { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "two\n" },
    });
    await expect(readVerifiedFile(state, skill, "r.md", 100)).rejects.toMatchObject({
      code: "verification-failed",
      message: "skill://pdf/SKILL.md of MCP server 'docs' is now dynamic and cannot be verified (allowDynamic is off)",
    });
  });

  it("reads nothing, not even from the cache, once the server has gone away, nor a skill no longer listed", async () => {
    const files = { "skill://pdf/SKILL.md": SKILL_MD, "skill://pdf/r.md": "one\n" };
    const server = { listed: entryServing(files), files, open: true };
    const { state, skill, calls } = sourceState(server);
    await readVerifiedFile(state, skill, "r.md", 100);
    server.open = false;
    await expect(readVerifiedFile(state, skill, "r.md", 100)).rejects.toMatchObject({
      code: "mcp-unavailable",
      message: "MCP server 'docs' is unavailable: the connection is closed",
    });
    expect(calls).toEqual(["read skill://pdf/r.md"]);
    state.held.clear();
    await expect(readVerifiedFile(state, skill, "r.md", 100)).rejects.toMatchObject({
      code: "not-found",
      message: "MCP server 'docs' no longer lists skill://pdf/SKILL.md",
    });
  });
});
