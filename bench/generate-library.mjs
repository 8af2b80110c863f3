// Generates a large, realistic skills library once and reuses it across runs.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Bump when the generated content changes, so stale libraries are rebuilt.
const FORMAT_VERSION = 2;
const MARKER = ".bench-library.json";

const VERBS = [
  "Analyze",
  "Generate",
  "Validate",
  "Convert",
  "Summarize",
  "Review",
  "Refactor",
  "Deploy",
  "Audit",
  "Benchmark",
  "Migrate",
  "Document",
];
const OBJECTS = [
  "CSV exports",
  "API schemas",
  "release notes",
  "Terraform plans",
  "SQL migrations",
  "PDF invoices",
  "log archives",
  "React components",
  "Kubernetes manifests",
  "survey results",
  "test reports",
  "design tokens",
];
const CONTEXTS = [
  "for finance teams",
  "in monorepos",
  "before a release",
  "across microservices",
  "for compliance reviews",
  "in CI pipelines",
  "for data scientists",
  "during incident response",
];
const TRIGGERS = [
  "the user asks to clean up",
  "a task mentions",
  "working with",
  "the user uploads",
  "someone needs a report on",
  "a pull request touches",
];
const LICENSES = ["MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms", "BSD-3-Clause"];
const AUTHORS = ["acme-platform", "data-tools-team", "jane.doe", "infra-guild", "docs-bot"];
const WORDS =
  "the a skill file input output step check value report table field option error result user data source target format rule version config record batch query schema record summary detail before after when each".split(
    " ",
  );

// Words that start names in real libraries (`azure-*`, `git-*`), for the grouped shape; the first
// ones are the largest groups, as a few vendors and tools dominate a directory.
const PREFIXES =
  "azure aws gcp git github docker k8s terraform react python sql pdf slack jira notion figma stripe shopify vercel supabase postgres redis kafka spark airflow dbt snowflake excel word pptx latex openapi graphql grpc rust go java swift kotlin flutter unity blender obsidian linear sentry datadog grafana".split(
    " ",
  );
const OWNERS = "acme globex initech umbrella hooli stark wayne wonka tyrell cyberdyne".split(" ");

/**
 * Path of the library with `count` skills, generating it first when missing or incomplete.
 * `shape` is how its skills are named and laid out: `flat`, `skill-NNNNN` folders in one folder;
 * `grouped`, the same folder with names that start with one of a few dozen words (`azure-*`,
 * `pdf-*`; groups of very different sizes, a tenth of the names without one), as a large
 * directory's names read; `collections`, `<owner>-<repo>/<name>` folders, a few to a few hundred
 * skills a collection, as a mirror of many repositories is laid out (read it with `recursive`).
 */
export function ensureLibrary(count = 10_000, shape = "flat") {
  const root = join(tmpdir(), `skillset-bench-library-${count}${shape === "flat" ? "" : `-${shape}`}`);
  if (isComplete(root, count)) return root;
  rmSync(root, { recursive: true, force: true });
  // Build beside the target and rename, so an interrupted run never looks complete.
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const random = seededRandom(42);
  const place = placement(shape, seededRandom(7));
  for (let index = 0; index < count; index++) {
    const { folder, name } = place(index);
    writeSkill(join(building, folder), name, random);
  }
  writeFileSync(join(building, MARKER), JSON.stringify({ count, version: FORMAT_VERSION }));
  renameSync(building, root);
  return root;
}

// Where the skill of each index goes: the folder below the library's root that holds its folder,
// and its name. A power law picks group and collection sizes, so a few are large and most small.
function placement(shape, random) {
  const padded = (index) => String(index).padStart(5, "0");
  if (shape === "flat") return (index) => ({ folder: "", name: `skill-${padded(index)}` });
  if (shape === "grouped")
    return (index) => {
      if (random() < 0.1) return { folder: "", name: `tool${padded(index)}` };
      const prefix = PREFIXES[Math.floor(PREFIXES.length * random() ** 2.5)];
      return { folder: "", name: `${prefix}-${slug(pick(random, OBJECTS))}-${padded(index)}` };
    };
  if (shape === "collections") {
    let collection = -1;
    let left = 0;
    return (index) => {
      if (left-- <= 0) {
        collection++;
        left = Math.max(1, Math.floor(400 * random() ** 4)) - 1;
      }
      const folder = `${OWNERS[collection % OWNERS.length]}-repo-${collection}`;
      return { folder, name: `${slug(pick(random, OBJECTS))}-${padded(index)}` };
    };
  }
  throw new Error(`Unknown library shape '${shape}': flat, grouped or collections`);
}

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * The names and descriptions of `count` generated skills, seeded, without writing files: the
 * search evaluation adds them to the real corpus as distractors to measure a ~2,000-skill library.
 */
export function generatedSkillMetadata(count, seed = 42) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    name: `generated-${String(index).padStart(5, "0")}`,
    description: description(random),
  }));
}

function isComplete(root, count) {
  const marker = join(root, MARKER);
  if (!existsSync(marker)) return false;
  try {
    const info = JSON.parse(readFileSync(marker, "utf8"));
    return info.count === count && info.version === FORMAT_VERSION;
  } catch {
    return false;
  }
}

function writeSkill(parent, name, random) {
  const folder = join(parent, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), skillText(name, random));
  // About one skill in ten ships a script and a reference, as real libraries do.
  if (random() < 0.1) {
    mkdirSync(join(folder, "scripts"));
    mkdirSync(join(folder, "references"));
    writeFileSync(
      join(folder, "scripts", "run.py"),
      `#!/usr/bin/env python3\n"""Helper for ${name}."""\nimport sys\n\nprint("ok", sys.argv[1:])\n`,
    );
    writeFileSync(join(folder, "references", "REFERENCE.md"), `# ${name} reference\n\n${paragraph(random, 60)}\n`);
  }
}

function skillText(name, random) {
  const frontmatter = [
    "---",
    `name: ${name}`,
    `description: ${description(random)}`,
    `license: ${pick(random, LICENSES)}`,
    "metadata:",
    `  author: ${pick(random, AUTHORS)}`,
    `  version: "${1 + Math.floor(random() * 3)}.${Math.floor(random() * 10)}.${Math.floor(random() * 20)}"`,
    "---",
    "",
    "",
  ].join("\n");
  return frontmatter + body(name, random, 3000 + Math.floor(random() * 5000));
}

// 100-250 characters, no YAML-significant ": " or " #", like most real descriptions.
function description(random) {
  let text = `${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, CONTEXTS)}. Use when ${pick(random, TRIGGERS)} ${pick(random, OBJECTS).toLowerCase()}`;
  while (text.length < 100) text += ` or ${pick(random, OBJECTS).toLowerCase()}`;
  if (random() < 0.6) text += `, including ${pick(random, OBJECTS).toLowerCase()} ${pick(random, CONTEXTS)}`;
  if (random() < 0.4)
    text += `. Also covers ${pick(random, OBJECTS).toLowerCase()} and ${pick(random, OBJECTS).toLowerCase()} ${pick(random, CONTEXTS)}`;
  return (text.length > 249 ? text.slice(0, 249).trimEnd() : text) + ".";
}

function body(name, random, targetBytes) {
  const parts = [`# ${name}\n`, `## When to use\n\n${list(random, 4)}\n`, `## Workflow\n\n${steps(random, 6)}\n`];
  const sections = [
    () => `## Details\n\n${paragraph(random, 90)}\n`,
    () =>
      `## Example\n\n\`\`\`bash\npython scripts/run.py --input data.csv --format json --strict\n\`\`\`\n\n${paragraph(random, 40)}\n`,
    () =>
      `## Options\n\n| Option | Default | Meaning |\n| --- | --- | --- |\n| \`--strict\` | off | ${paragraph(random, 8)} |\n| \`--limit\` | 100 | ${paragraph(random, 8)} |\n`,
    () => `## Troubleshooting\n\n${list(random, 3)}\n\n${paragraph(random, 50)}\n`,
  ];
  let size = parts.join("\n").length;
  for (let turn = 0; size < targetBytes; turn++) {
    const section = sections[turn % sections.length]();
    parts.push(section);
    size += section.length + 1;
  }
  return parts.join("\n");
}

function paragraph(random, words) {
  const chosen = Array.from({ length: words }, () => pick(random, WORDS));
  chosen[0] = chosen[0][0].toUpperCase() + chosen[0].slice(1);
  return chosen.join(" ") + ".";
}

function list(random, items) {
  return Array.from({ length: items }, () => `- ${paragraph(random, 12)}`).join("\n");
}

function steps(random, count) {
  return Array.from({ length: count }, (_, at) => `${at + 1}. ${paragraph(random, 14)}`).join("\n");
}

function pick(random, values) {
  return values[Math.floor(random() * values.length)];
}

/** mulberry32: a tiny seeded generator in [0, 1), so every machine builds the same library. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
