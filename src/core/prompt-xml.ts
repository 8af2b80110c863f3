import type { SkillMetadata } from "./skill-metadata.js";

/** Python's `html.escape(text, quote=True)`, as the reference uses. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/**
 * The reference's `to-prompt` format: `<available_skills>`, one `<skill>` per skill with
 * `<name>`, `<description>` and `<location>`, each tag and value on its own line.
 */
export function renderCatalogXml(skills: readonly Pick<SkillMetadata, "name" | "description" | "path">[]): string {
  const lines = ["<available_skills>"];
  for (const skill of skills) {
    lines.push(
      "<skill>",
      "<name>",
      escapeXml(skill.name),
      "</name>",
      "<description>",
      escapeXml(skill.description),
      "</description>",
      "<location>",
      escapeXml(skill.path),
      "</location>",
      "</skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}
