import type { CatalogLayout } from "./catalog-budget.js";
import { type SkillGroups, summarizeHidden } from "./catalog-groups.js";
import { SHORT_DESCRIPTION_LENGTH, shortenText } from "./prompt-markdown.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

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

/** What the XML catalog shows of a skill. */
export type XmlCatalogSkill = Pick<SkillMetadata, "name" | "description" | "path">;

/**
 * The reference's `to-prompt` format: `<available_skills>`, one `<skill>` per skill with
 * `<name>`, `<description>` and `<location>`, each tag and value on its own line. To fit a
 * token budget, use `renderCatalog`.
 */
export function renderCatalogXml(skills: readonly XmlCatalogSkill[]): string {
  return xmlLayout({}).render({ full: skills, short: [], named: [], hidden: new Int32Array(0) });
}

/**
 * The XML catalog's entries and frame. Over a budget, a shortened entry cuts the description,
 * a named one has no description, and skills left out are counted in `<more_skills>`.
 */
export function xmlLayout(options: { searchTool?: string; groups?: SkillGroups }): CatalogLayout<XmlCatalogSkill> {
  const entry = (skill: XmlCatalogSkill, tier: "full" | "short" | "name") => {
    const lines = ["<skill>", "<name>", escapeXml(skill.name), "</name>"];
    if (tier !== "name")
      lines.push(
        "<description>",
        escapeXml(
          tier === "full"
            ? skill.description
            : shortenText(skill.description.replace(/\s+/g, " ").trim(), SHORT_DESCRIPTION_LENGTH),
        ),
        "</description>",
      );
    lines.push("<location>", escapeXml(skill.path), "</location>", "</skill>");
    return lines.join("\n");
  };
  return {
    entry,
    render({ full, short, named, hidden }) {
      const lines = [
        "<available_skills>",
        ...full.map((skill) => entry(skill, "full")),
        ...short.map((skill) => entry(skill, "short")),
        ...named.map((skill) => entry(skill, "name")),
      ];
      if (hidden.length > 0) {
        const find = options.searchTool ? ` Find them with ${escapeXml(options.searchTool)}.` : "";
        const { groups, rest } = summarizeHidden(hidden, options.groups);
        const summary = groups.map(
          (group) =>
            `\n<group name="${escapeXml(group.label)}" count="${group.count}">${escapeXml(group.examples.join(", "))}</group>`,
        );
        if (rest.count > 0) summary.push(`\n<group name="${rest.groups} more groups" count="${rest.count}"></group>`);
        lines.push(
          `<more_skills count="${hidden.length}">${hidden.length === 1 ? "One more skill is" : `${hidden.length} more skills are`} not listed here.${find}${summary.join("")}${summary.length > 0 ? "\n" : ""}</more_skills>`,
        );
      }
      lines.push("</available_skills>");
      return lines.join("\n");
    },
  };
}
