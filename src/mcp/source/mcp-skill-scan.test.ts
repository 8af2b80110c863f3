import { afterEach, describe, expect, it, vi } from "vitest";
import type { ZodType } from "zod";
import type { SkillsetError } from "../../errors/skillset-error.js";
import type { McpServerConnection } from "./mcp-server-connection.js";
import { scanMcpSkills } from "./mcp-skill-scan.js";
import { createMcpSourceState } from "./mcp-source-state.js";

const entry = (name: string, description = `Use ${name}.`) => ({
  uri: `skill://${name}/SKILL.md`,
  frontmatter: { name, description },
  resources: [{ uri: `skill://${name}/SKILL.md`, digest: `sha256:${"0".repeat(64)}`, size: 10 }],
});

/** A server whose `skills/list` answers with `page()`, counting the requests. */
function listingServer(page: () => { skills: unknown[]; ttlMs?: number }) {
  const server = { lists: 0, open: true };
  const connection: McpServerConnection = {
    label: "docs",
    isOpen: () => server.open,
    skillsExtension: () => ({}),
    async request<T>(_method: string, _params: Record<string, unknown>, schema: ZodType<T>) {
      server.lists++;
      return schema.parse(page());
    },
    readBytes: () => Promise.reject(new Error("not used")),
    readDirectory: () => Promise.reject(new Error("not used")),
    failure: (error) => error as SkillsetError,
    close() {},
  };
  return { server, state: createMcpSourceState({ connection }) };
}

afterEach(() => vi.useRealTimers());

describe("scanMcpSkills", () => {
  it("lists once for concurrent scans and holds the listed skills by path", async () => {
    const { server, state } = listingServer(() => ({ skills: [entry("pdf")] }));
    const [first, second] = await Promise.all([scanMcpSkills(state), scanMcpSkills(state)]);
    expect(first).toBe(second);
    expect([server.lists, first.version, first.skills.map((skill) => skill.name)]).toEqual([
      1,
      "mcp:docs#1",
      ["docs:pdf"],
    ]);
    expect([...state.held.keys()]).toEqual(["skill://pdf/SKILL.md"]);
  });

  it("keeps the version while the skills stay the same, and counts up when they change", async () => {
    let description = "Use pdf.";
    const { state } = listingServer(() => ({ skills: [entry("pdf", description)] }));
    const first = await scanMcpSkills(state);
    expect(await scanMcpSkills(state)).toBe(first);
    description = "Use pdf, now better.";
    const changed = await scanMcpSkills(state);
    expect([changed.version, changed.skills.map((skill) => skill.description)]).toEqual([
      "mcp:docs#2",
      ["Use pdf, now better."],
    ]);
  });

  it("asks the server again only after the ttlMs it gave, or once it is disconnected", async () => {
    vi.useFakeTimers({ now: 0 });
    const { server, state } = listingServer(() => ({ skills: [entry("pdf")], ttlMs: 1000 }));
    await scanMcpSkills(state);
    vi.setSystemTime(999);
    await scanMcpSkills(state);
    expect(server.lists).toBe(1);
    vi.setSystemTime(1000);
    await scanMcpSkills(state);
    expect(server.lists).toBe(2);
    server.open = false;
    const closed = await scanMcpSkills(state);
    expect([server.lists, closed.skills, closed.diagnostics.map((diagnostic) => diagnostic.message)]).toEqual([
      2,
      [],
      ["MCP server 'docs' is unavailable: the connection is closed"],
    ]);
    expect(state.held.size).toBe(0);
  });
});
