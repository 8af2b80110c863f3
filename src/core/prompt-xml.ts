import type { SkillMetadata } from "./skill-metadata.js";

// Characters XML 1.0 cannot carry at all, not even as references: controls other than tab and
// line breaks, U+FFFE/U+FFFF, and lone surrogates (the `u` flag matches only unpaired ones).
const NOT_XML = /[^\t\n\r\x20-\u{d7ff}\u{e000}-\u{fffd}\u{10000}-\u{10ffff}]/gu;

/**
 * Python's `html.escape(text, quote=True)`, as the reference uses; beyond the reference,
 * characters XML forbids become U+FFFD so the catalog stays well-formed.
 */
function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "\ufffd")
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
