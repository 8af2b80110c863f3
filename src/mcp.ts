// Agent Skills over the Model Context Protocol (Node only): a server of skills, and skills that
// MCP servers serve as a source.
export {
  type SkillsMcpServer,
  type SkillsMcpServerOptions,
  type UnservedSkill,
  createSkillsMcpServer,
} from "./mcp/server/skills-mcp-server.js";
export type { SkillsMcpHttpListener, SkillsMcpHttpOptions } from "./mcp/server/http-listener.js";
export { SKILLS_EXTENSION, type SkillEntry, type SkillEntryFile } from "./mcp/skills-extension/skill-entry.js";
export { type McpSkillSourceOptions, mcpSkillSource } from "./mcp/source/mcp-skill-source.js";
export { type McpServerTarget, connectMcpServer } from "./mcp/source/connect-mcp-server.js";
