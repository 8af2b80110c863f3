import type { TokenCounter } from "../text/count-tokens.js";
import {
  countWithKnownFirst,
  pieceCounter,
  tokenCountTable,
  type TokenCountTable,
} from "../text/known-token-counts.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { READ_SKILL_RESOURCE, SEARCH_SKILLS } from "../tools/skill-tool-definitions.js";
import { markdownLayout, DEFAULT_MAX_DESCRIPTION_LENGTH } from "./prompt-markdown.js";
import { DEFAULT_CATALOG_BUDGET, planRenderedCatalog, type CatalogRenderOptions } from "./render-catalog.js";

// The catalog a worker with skillset's defaults renders: the budget, the description length,
// `search_skills` for what is left out, and resources read with `read_skill_resource` (the
// LangChain middleware) or `read_file` (the engine's default, deepagents' tool).
const DEFAULT_RENDERS: CatalogRenderOptions[] = [READ_SKILL_RESOURCE.name, "read_file"].map((read) => ({
  budget: DEFAULT_CATALOG_BUDGET,
  maxDescriptionLength: DEFAULT_MAX_DESCRIPTION_LENGTH,
  resourceReadTool: read,
  searchTool: SEARCH_SKILLS.name,
}));

const TIERS = ["full", "short", "name"] as const;

// Numbers the catalog writes (how many skills it leaves out, and of which group) are pieces of
// up to three digits.
const NUMBERS = Array.from({ length: 1110 }, (_, at) =>
  at < 10 ? String(at) : at < 110 ? String(at - 10).padStart(2, "0") : String(at - 110).padStart(3, "0"),
);

/**
 * The token counts (o200k_base, see `known-token-counts.ts`) of every piece a catalog of
 * `skills` from the source `source` is made of: each skill's line whole and shortened and its
 * name, as the Markdown catalog writes them (its layout's own entries), numbers, the groups it
 * names when it leaves skills out, and all that the catalog rendered with the defaults counts.
 * A worker that adopts them renders that catalog, and most others of these skills, without
 * loading the encoding.
 */
export async function catalogTokenTable(skills: readonly SkillMetadata[], source: string): Promise<TokenCountTable> {
  // A writer that adopted a snapshot already knows the counts of most pieces: then it needs no
  // encoding. The table is the same either way.
  return countWithKnownFirst((count) => countPieces(skills, source, count));
}

function countPieces(skills: readonly SkillMetadata[], source: string, counter: TokenCounter): TokenCountTable {
  const counts = new Map<string, number>();
  const count = pieceCounter(counter, counts);
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  const layout = markdownLayout({ maxDescriptionLength: DEFAULT_MAX_DESCRIPTION_LENGTH });
  for (const skill of visible) {
    let previous = "";
    for (const tier of TIERS) {
      const entry = layout.entry(skill, tier);
      // A short description is often the whole one.
      if (entry === previous) continue;
      previous = entry;
      // In the catalog a line ends with a line break, which joins a last piece of punctuation;
      // counted alone, as the budget counts entries, it ends with its last word.
      count(`${entry}\n`);
      count(entry.slice(Math.max(0, entry.lastIndexOf(" "))));
    }
  }
  // Names as the catalog lists them: alone, and one after another.
  count(visible.map((skill) => skill.name).join(", "));
  count(NUMBERS.join(" "));
  for (const options of DEFAULT_RENDERS) planRenderedCatalog(skills, { ...options, sourceOrder: [source] }, count);
  // With no room at all, every skill is left out: the catalog names every group (up to its limit).
  planRenderedCatalog(skills, { ...DEFAULT_RENDERS[0], budget: 0, sourceOrder: [source] }, count);
  return tokenCountTable(counts);
}
