import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { SkillsetError } from "../../errors/skillset-error.js";
import type { McpServerConnection } from "./mcp-server-connection.js";
import { listSkillEntries, nameListedSkills, type SkillNaming } from "./mcp-skill-listing.js";
import type { SkillFolderCopies } from "./skill-folder-copy.js";

const DIGEST = `sha256:${"0".repeat(64)}`;
const entry = (uri: string, frontmatter: Record<string, unknown> = {}) => {
  const name = uri.split("/").at(-2)!;
  return {
    uri,
    frontmatter: { name, description: `Use ${name}.`, ...frontmatter },
    resources: [{ uri, digest: DIGEST, size: 10 }],
  };
};
const naming: SkillNaming = {
  id: "mcp:docs",
  label: "docs",
  allowDynamic: false,
  trustAllowedTools: false,
  copies: undefined,
};
const warning = (code: string, message: string, file = "mcp:docs") => ({
  severity: "warning",
  code,
  file,
  message,
  source: "mcp:docs",
});

describe("nameListedSkills", () => {
  it("names each skill <label>:<name>, drops hooks and, untrusted, allowed-tools", () => {
    const named = nameListedSkills(
      [entry("skill://pdf/SKILL.md", { "allowed-tools": "Bash(git:*) Read", hooks: { Stop: [] } })],
      naming,
    );
    expect(named.skills).toEqual([
      {
        name: "docs:pdf",
        description: "Use pdf.",
        path: "skill://pdf/SKILL.md",
        metadata: {},
        allowedTools: [],
        source: "mcp:docs",
      },
    ]);
    expect([...named.held.keys()]).toEqual(["skill://pdf/SKILL.md"]);
    expect(named.held.get("skill://pdf/SKILL.md")!.name).toBe("pdf");
    expect(named.diagnostics).toEqual([]);
  });

  it("keeps allowed-tools when they are trusted", () => {
    const named = nameListedSkills([entry("skill://pdf/SKILL.md", { "allowed-tools": "Bash(git:*) Read" })], {
      ...naming,
      trustAllowedTools: true,
    });
    expect(named.skills.map((skill) => skill.allowedTools)).toEqual([["Bash(git:*)", "Read"]]);
  });

  it("names same-named skills by their paths and warns once, naming each", () => {
    const named = nameListedSkills(
      [
        entry("skill://acme/billing/refunds/SKILL.md"),
        entry("skill://acme/support/refunds/SKILL.md"),
        entry("skill://other/SKILL.md"),
      ],
      naming,
    );
    expect(named.skills.map((skill) => skill.name)).toEqual([
      "docs:acme.billing.refunds",
      "docs:acme.support.refunds",
      "docs:other",
    ]);
    expect(named.diagnostics).toEqual([
      warning(
        "name-collision",
        "Skills of MCP server 'docs' share the name 'refunds'; each is listed by its path: skill://acme/billing/refunds/SKILL.md as 'docs:acme.billing.refunds', skill://acme/support/refunds/SKILL.md as 'docs:acme.support.refunds'",
      ),
    ]);
  });

  it("does not use a second skill listed under a name already taken", () => {
    const named = nameListedSkills(
      [entry("skill://team/a/SKILL.md"), entry("skill://team/a/SKILL.md", { description: "The other a." })],
      naming,
    );
    expect(named.skills.map((skill) => [skill.name, skill.description])).toEqual([["docs:team.a", "Use a."]]);
    expect(named.diagnostics).toEqual([
      warning(
        "name-collision",
        "Skills of MCP server 'docs' share the name 'a'; each is listed by its path: skill://team/a/SKILL.md as 'docs:team.a', skill://team/a/SKILL.md as 'docs:team.a'",
      ),
      warning(
        "name-collision",
        "Skill skill://team/a/SKILL.md of MCP server 'docs' is not used: another of its skills is already listed as 'docs:team.a'",
        "skill://team/a/SKILL.md",
      ),
    ]);
  });

  it("does not use invalid entries, nor dynamic ones unless allowed, and says why", () => {
    const dynamic = { ...entry("skill://live/SKILL.md"), resources: "dynamic" };
    const entries = [null, { uri: "skill://bad/README.md", frontmatter: {}, resources: [] }, dynamic];
    const named = nameListedSkills(entries, naming);
    expect(named.skills).toEqual([]);
    expect(named.diagnostics).toEqual([
      warning(
        "invalid-entry",
        "Skill (an entry without a URI) of MCP server 'docs' is not used: the entry is not a valid Skill entry (✖ Invalid input: expected object, received null)",
        "(an entry without a URI)",
      ),
      warning(
        "invalid-entry",
        "Skill skill://bad/README.md of MCP server 'docs' is not used: its URI skill://bad/README.md does not name a SKILL.md",
        "skill://bad/README.md",
      ),
      warning(
        "dynamic-skill",
        "Skill skill://live/SKILL.md of MCP server 'docs' is not used: its content is dynamic and cannot be verified (allowDynamic is off)",
        "skill://live/SKILL.md",
      ),
    ]);
    expect(nameListedSkills([dynamic], { ...naming, allowDynamic: true }).skills.map((skill) => skill.name)).toEqual([
      "docs:live",
    ]);
  });

  it("gives a skill whose scripts may run the path of its private copy", () => {
    const copies: SkillFolderCopies = {
      folderOf: (root) => `/tmp/copies/${root.slice("skill://".length)}`,
      write() {},
      remove() {},
    };
    const named = nameListedSkills([entry("skill://pdf/SKILL.md")], { ...naming, copies });
    expect(named.skills.map((skill) => skill.path)).toEqual(["/tmp/copies/pdf/SKILL.md"]);
    expect([...named.held.keys()]).toEqual(["/tmp/copies/pdf/SKILL.md"]);
  });
});

describe("listSkillEntries", () => {
  const connection = (
    answer: (params: Record<string, unknown>) => unknown,
    overrides: Partial<McpServerConnection> = {},
  ) => {
    const requests: Array<[string, Record<string, unknown>]> = [];
    const fake: McpServerConnection = {
      label: "docs",
      isOpen: () => true,
      skillsExtension: () => ({}),
      async request<T>(method: string, params: Record<string, unknown>, schema: ZodType<T>) {
        requests.push([method, params]);
        return schema.parse(answer(params));
      },
      readBytes: () => Promise.reject(new Error("not used")),
      readDirectory: () => Promise.reject(new Error("not used")),
      failure: (error) =>
        SkillsetError.isInstance(error)
          ? error
          : new SkillsetError("mcp-error", `MCP server 'docs': skills/list failed: ${(error as Error).message}`),
      close() {},
      ...overrides,
    };
    return { fake, requests };
  };

  it("reads every page and keeps the first page's ttlMs", async () => {
    const pages: Record<string, unknown> = {
      start: { skills: [1, 2], nextCursor: "p2", ttlMs: 500 },
      p2: { skills: [3], nextCursor: "p3", ttlMs: 9 },
      p3: { skills: [] },
    };
    const { fake, requests } = connection((params) => pages[(params.cursor as string | undefined) ?? "start"]);
    expect(await listSkillEntries(fake, "mcp:docs")).toEqual({ entries: [1, 2, 3], ttlMs: 500, diagnostics: [] });
    expect(requests).toEqual([
      ["skills/list", {}],
      ["skills/list", { cursor: "p2" }],
      ["skills/list", { cursor: "p3" }],
    ]);
  });

  it("stops after 1000 pages and says the rest are not used", async () => {
    const { fake, requests } = connection(() => ({ skills: [0], nextCursor: "more" }));
    const listed = await listSkillEntries(fake, "mcp:docs");
    expect([listed.entries.length, requests.length, listed.ttlMs]).toEqual([1000, 1000, undefined]);
    expect(listed.diagnostics).toEqual([
      warning("listing-cut", "MCP server 'docs' listed more than 1000 pages of skills; the rest are not used"),
    ]);
  });

  it("asks nothing of a closed connection or a server without the extension", async () => {
    const closed = connection(() => ({ skills: [] }), { isOpen: () => false });
    expect(await listSkillEntries(closed.fake, "mcp:docs")).toEqual({
      entries: [],
      ttlMs: undefined,
      diagnostics: [warning("mcp-unavailable", "MCP server 'docs' is unavailable: the connection is closed")],
    });
    const plain = connection(() => ({ skills: [] }), { skillsExtension: () => undefined });
    expect((await listSkillEntries(plain.fake, "mcp:docs")).diagnostics).toEqual([
      warning(
        "no-skills-extension",
        "MCP server 'docs' does not declare the io.modelcontextprotocol/skills extension; no skills are read from it (skill:// resources alone are not skills)",
      ),
    ]);
    expect([closed.requests, plain.requests]).toEqual([[], []]);
  });

  it("keeps the pages read before a request failed, with a warning naming the failure", async () => {
    const { fake } = connection((params) => {
      if (params.cursor === undefined) return { skills: [1], nextCursor: "p2" };
      throw new Error("the index is offline");
    });
    expect(await listSkillEntries(fake, "mcp:docs")).toEqual({
      entries: [1],
      ttlMs: undefined,
      diagnostics: [warning("mcp-error", "MCP server 'docs': skills/list failed: the index is offline")],
    });
  });
});
