import { describe, expect, it } from "vitest";
import { renderCatalog, type CatalogRenderOptions } from "./render-catalog.js";
import { contentHash } from "../text/content-hash.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

// Rendered catalogs of generated libraries, each pinned by the hash of all renderCatalog returns
// (text, token count, and the names of each tier, in order). The hashes were recorded from the
// renderer before it was rewritten for 100,000-skill libraries, which had to give the same bytes.

let seed = 36;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const WORDS =
  "extract tables from pdf files merge forms deploy apps to vercel review pull requests write release notes resize images crop audit terraform plans convert csv exports before a release and then check every field".split(
    " ",
  );
const PREFIXES = ["azure", "aws", "gcp", "pdf", "git", "data", "docs", "k8s", "web", "ml", "ops", "sql"];

function description(): string {
  const words = Array.from({ length: 3 + Math.floor(random() * 60) }, () => pick(WORDS));
  if (random() < 0.1) words.splice(2, 0, "\n\n  -");
  if (random() < 0.05) words.push("😀", "naïve");
  return words.join(" ") + ".";
}

function library(
  count: number,
  place: (at: number, name: string) => { path: string; source: string },
  names: (at: number) => string,
): SkillMetadata[] {
  return Array.from({ length: count }, (_, at) => {
    const name = names(at);
    const skill: SkillMetadata = {
      name,
      description: description(),
      metadata: {},
      allowedTools: [],
      ...place(at, name),
    };
    if (random() < 0.08) skill.argumentHint = random() < 0.5 ? "[file]" : "[a very long hint ".repeat(8) + "]";
    if (random() < 0.05) skill.disableModelInvocation = true;
    return skill;
  }).sort((a, b) => (a.name < b.name ? -1 : 1));
}

// Names sharing prefixes, a skewed share each, some without a hyphen or with a prefix of their own.
const prefixed = (at: number) => {
  const roll = random();
  if (roll < 0.05) return `solo${at}`;
  if (roll < 0.08) return `unique${at}-tool`;
  return `${PREFIXES[Math.floor(PREFIXES.length * random() * random())]}-${pick(WORDS)}-${at}`;
};
const LIBRARIES = {
  "one folder, name prefixes": library(
    1500,
    (_, name) => ({ path: `/lib/skills/${name}/SKILL.md`, source: "local" }),
    prefixed,
  ),
  "one Windows folder": library(
    800,
    (_, name) => ({ path: `C:\\lib\\skills\\${name}\\SKILL.md`, source: "local" }),
    prefixed,
  ),
  "one folder, no prefixes": library(
    1200,
    (_, name) => ({ path: `/lib/skills/${name}/SKILL.md`, source: "local" }),
    (at) => `skill${at}`,
  ),
  "collections in sources": library(
    1500,
    (at, name) => {
      const collection = pick([
        "anthropics/skills",
        "my-team/skills",
        "vendor/pack/skills",
        "odd\u2028folder",
        "line\nbreak",
      ]);
      const source = pick(["user", "project", "npm:pack"]);
      return { path: at % 17 === 0 ? `/home/u/${name}/SKILL.md` : `/home/u/${collection}/${name}/SKILL.md`, source };
    },
    prefixed,
  ),
};

const CASES: Array<[string, CatalogRenderOptions]> = [
  ["no budget", {}],
  ["budget 500", { budget: 500, searchTool: "search_skills" }],
  ["budget 2,000", { budget: 2000 }],
  ["budget 5,000", { budget: 5000, searchTool: "search_skills" }],
  ["budget 12,000", { budget: 12_000, searchTool: "search_skills", maxDescriptionLength: 120 }],
  [
    "pinned, source order",
    { budget: 3000, pinned: [], sourceOrder: ["npm:pack", "user", "project"], searchTool: "find" },
  ],
  ["xml, budget 5,000", { format: "xml", budget: 5000, searchTool: "search_skills" }],
  ["xml, budget 30,000", { format: "xml", budget: 30_000 }],
];

const GOLDEN: Record<string, string> = {
  "one folder, name prefixes; no budget": "7954dc35ef9c713b:306699",
  "one folder, name prefixes; budget 500": "44825d54b0dfee40:25927",
  "one folder, name prefixes; budget 2,000": "7a77459befb37a92:29649",
  "one folder, name prefixes; budget 5,000": "ec966ce0f0795c3a:37587",
  "one folder, name prefixes; budget 12,000": "672b68b17e50b3b4:65342",
  "one folder, name prefixes; pinned, source order": "e6a339b18ebc74f8:32440",
  "one folder, name prefixes; xml, budget 5,000": "66b7c50f25539747:40111",
  "one folder, name prefixes; xml, budget 30,000": "4d313d911abd20ec:114442",
  "one Windows folder; no budget": "fc965106d47d4d38:163506",
  "one Windows folder; budget 500": "85d4ff15310e3eb:14228",
  "one Windows folder; budget 2,000": "c5f9a33d8240ee19:18239",
  "one Windows folder; budget 5,000": "fe3f3229f2095505:28404",
  "one Windows folder; budget 12,000": "c5ca3d6bd7fb921:65144",
  "one Windows folder; pinned, source order": "8874f988107b46de:21400",
  "one Windows folder; xml, budget 5,000": "f1523dfb4ba3179a:28398",
  "one Windows folder; xml, budget 30,000": "3cd0dc8de84aaf51:104671",
  "one folder, no prefixes; no budget": "a0a105abc8ca8e7c:233640",
  "one folder, no prefixes; budget 500": "8a1f4d775d8a0f89:14345",
  "one folder, no prefixes; budget 2,000": "e4a14e106ea5fc8b:19035",
  "one folder, no prefixes; budget 5,000": "a646d7b8714ac31c:31266",
  "one folder, no prefixes; budget 12,000": "dbe63f015aae9156:66739",
  "one folder, no prefixes; pinned, source order": "2b7084b9242f5ce:22399",
  "one folder, no prefixes; xml, budget 5,000": "b51085f4c392a88c:28229",
  "one folder, no prefixes; xml, budget 30,000": "ce1a01923fdd0945:105008",
  "collections in sources; no budget": "ac178c7df39e438e:295254",
  "collections in sources; budget 500": "f6d140699d88fa66:24535",
  "collections in sources; budget 2,000": "6eba1ca6460d95f0:28510",
  "collections in sources; budget 5,000": "31eb2b3a1e9137eb:36629",
  "collections in sources; budget 12,000": "862a5dfe9e7c145b:64039",
  "collections in sources; pinned, source order": "b07ea2c32c3eb3e7:31392",
  "collections in sources; xml, budget 5,000": "9474e878291cdebc:39697",
  "collections in sources; xml, budget 30,000": "d198546f4d23a56d:114468",
};

describe("renderCatalog on generated libraries", () => {
  it("gives the bytes it gave before it was rewritten for large libraries", async () => {
    const hashes: Record<string, string> = {};
    for (const [label, skills] of Object.entries(LIBRARIES))
      for (const [option, options] of CASES) {
        const pinned = options.pinned && [skills[7]!.name, skills[1]!.name, skills.at(-3)!.name];
        const rendered = await renderCatalog(skills, { ...options, ...(pinned ? { pinned } : {}) });
        hashes[`${label}; ${option}`] = contentHash(JSON.stringify(rendered));
      }
    expect(hashes).toEqual(GOLDEN);
  });
});
