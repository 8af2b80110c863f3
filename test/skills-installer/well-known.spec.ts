// One site, two readers: the real `skills` CLI (`skills add <url>`, under Node 22) installs the
// skills a local site publishes at its well-known URL, and skillset reads the same site at run
// time. Both must accept the same index and end up with the same files: the 0.2.0 index with a
// skill-md entry, a .tar.gz and a .zip archive. The site runs in this process, so the CLI is run
// asynchronously (a synchronous spawn would stop the server from answering).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWellKnownSource } from "../../src/node.js";
import {
  digestOf,
  indexJson,
  skillMd,
  startSite,
  tarGzOf,
  zipOf,
  type WellKnownSite,
} from "../helpers/well-known-site.js";
import { installerEnv, installerInstalled as installed, NODE_22, SKILLS_CLI } from "./installer-harness.js";

const run = promisify(execFile);
const notes = skillMd("meeting-notes", "Takes meeting notes.");
const pdf = skillMd("pdf-forms", "Fills PDF forms.", "# pdf-forms\n\nRun scripts/fill.py.");
const web = skillMd("web-forms", "Reads web forms.");

let base: string;
let site: WellKnownSite;

/** Every file below `folder`, relative, with its text. */
function files(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      found[relative(folder, join(entry.parentPath, entry.name))] = readFileSync(
        join(entry.parentPath, entry.name),
        "utf8",
      );
  }
  return found;
}

beforeAll(async () => {
  if (!installed) return;
  base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-installer-wk-")));
  mkdirSync(join(base, "home"));
  mkdirSync(join(base, "project"));
  const tarball = await tarGzOf([
    { name: "SKILL.md", content: pdf },
    { name: "scripts/fill.py", content: "print('filled')\n" },
  ]);
  const zip = await zipOf([
    { path: "SKILL.md", content: web },
    { path: "references/fields.md", content: "# Fields\n" },
  ]);
  site = await startSite({
    "/.well-known/agent-skills/index.json": {
      body: indexJson([
        {
          name: "meeting-notes",
          description: "Takes meeting notes.",
          type: "skill-md",
          url: "meeting-notes/SKILL.md",
          digest: digestOf(notes),
        },
        {
          name: "pdf-forms",
          description: "Fills PDF forms.",
          type: "archive",
          url: "pdf-forms.tar.gz",
          digest: digestOf(tarball),
        },
        {
          name: "web-forms",
          description: "Reads web forms.",
          type: "archive",
          url: "web-forms.zip",
          digest: digestOf(zip),
        },
      ]),
    },
    "/.well-known/agent-skills/meeting-notes/SKILL.md": { body: notes },
    "/.well-known/agent-skills/pdf-forms.tar.gz": { body: tarball, headers: { "content-type": "application/gzip" } },
    "/.well-known/agent-skills/web-forms.zip": { body: zip, headers: { "content-type": "application/zip" } },
  });
  const env = installerEnv(base, join(base, "home"));
  await run(NODE_22, [SKILLS_CLI, "add", site.url, "--skill", "*", "--agent", "codex", "--copy", "--yes"], {
    cwd: join(base, "project"),
    env,
    timeout: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await site?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!installed)("a well-known site, read by the skills CLI and by skillset", () => {
  it("both find the same skills and the same files", async () => {
    const installedFolder = join(base, "project/.agents/skills");
    expect(readdirSync(installedFolder).sort()).toEqual(["meeting-notes", "pdf-forms", "web-forms"]);
    const source = createWellKnownSource({ url: site.url, cacheDir: join(base, "cache") });
    const { skills, diagnostics } = await source.scan();
    expect(diagnostics).toEqual([]);
    expect(skills.map((skill) => skill.name)).toEqual(["meeting-notes", "pdf-forms", "web-forms"]);
    for (const skill of skills) {
      await source.readSkill(skill);
      expect(files(dirname(skill.path)), skill.name).toEqual(files(join(installedFolder, skill.name)));
    }
  });
});
