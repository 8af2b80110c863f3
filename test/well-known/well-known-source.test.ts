// A site's well-known skills through createWellKnownSource, against a real HTTP server on
// 127.0.0.1: the catalog from its index, skills downloaded when first read and kept in the
// cache by digest, the legacy path, offline use, and a failing site next to a local folder.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../../src/index.js";
import { createLocalSource, createWellKnownSource } from "../../src/node.js";
import {
  digestOf,
  indexJson,
  skillMd,
  startSite,
  tarGzOf,
  zipOf,
  type WellKnownSite,
} from "../helpers/well-known-site.js";

const INDEX = "/.well-known/agent-skills/index.json";
const notes = skillMd("notes", "Takes meeting notes.");
const pdf = skillMd("pdf", "Fills PDF forms.", "# pdf\n\nRun scripts/fill.py, see references/forms.md.");
const forms = skillMd("forms", "Reads web forms.");

let root: string;
let cacheDir: string;
let site: WellKnownSite;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "skillset-wk-"));
  cacheDir = join(root, "cache");
  const pdfArchive = await tarGzOf([
    { name: "SKILL.md", content: pdf },
    { name: "scripts/", type: "directory" },
    { name: "scripts/fill.py", content: "print('filled')\n" },
    { name: "references/forms.md", content: "# Forms\n" },
  ]);
  const formsArchive = await zipOf([
    { path: "SKILL.md", content: forms },
    { path: "assets/form.json", content: "{}" },
  ]);
  site = await startSite({
    [INDEX]: {
      body: indexJson([
        {
          name: "notes",
          description: "Takes meeting notes.",
          type: "skill-md",
          url: "notes/SKILL.md",
          digest: digestOf(notes),
        },
        {
          name: "pdf",
          description: "Fills PDF forms.",
          type: "archive",
          url: "/.well-known/agent-skills/pdf.tar.gz",
          digest: digestOf(pdfArchive),
        },
        {
          name: "forms",
          description: "Reads web forms.",
          type: "archive",
          url: "forms.zip",
          digest: digestOf(formsArchive),
        },
      ]),
    },
    "/.well-known/agent-skills/notes/SKILL.md": { body: notes },
    "/.well-known/agent-skills/pdf.tar.gz": { body: pdfArchive },
    "/.well-known/agent-skills/forms.zip": { body: formsArchive },
  });
});

afterEach(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("createWellKnownSource", () => {
  it("lists the index's skills by name and description without downloading any", async () => {
    const source = createWellKnownSource({ url: site.url, cacheDir });
    const scan = await source.scan();
    expect(source.id).toBe(`well-known:${site.url}`);
    expect(scan.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["notes", "Takes meeting notes."],
      ["pdf", "Fills PDF forms."],
      ["forms", "Reads web forms."],
    ]);
    expect(scan.diagnostics).toEqual([]);
    expect(site.requests).toEqual([INDEX]);
    expect(source.runsCommands).toBe(false);
  });

  it("downloads a skill-md skill on first read, verified, into the cache by digest, and reads it from there after", async () => {
    const source = createWellKnownSource({ url: site.url, cacheDir });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "notes")!;
    expect(text(await source.readSkill(skill))).toBe(notes);
    expect(skill.path.startsWith(join(cacheDir, "well-known"))).toBe(true);
    expect(skill.path.endsWith(`${digestOf(notes).slice(7)}/SKILL.md`)).toBe(true);
    expect(existsSync(skill.path)).toBe(true);
    expect(text(await source.readSkill(skill))).toBe(notes);
    expect(site.requests.filter((path) => path.endsWith("notes/SKILL.md"))).toHaveLength(1);
  });

  it("reads started together share one download", async () => {
    const source = createWellKnownSource({ url: site.url, cacheDir });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "pdf")!;
    const [first, second, listing] = await Promise.all([
      source.readSkill(skill),
      source.readSkill(skill),
      source.listFiles(skill, { maxDepth: 3, maxFiles: 10 }),
    ]);
    expect([text(first), text(second), listing.files.length]).toEqual([pdf, pdf, 2]);
    expect(site.requests.filter((path) => path.endsWith("pdf.tar.gz"))).toHaveLength(1);
    expect(readdirSync(join(skill.path, "..", ".."))).toEqual([skill.path.split("/").at(-2), "index.json"].sort());
  });

  it("extracts a .tar.gz skill: SKILL.md, its files listed and read", async () => {
    const source = createWellKnownSource({ url: site.url, cacheDir });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "pdf")!;
    expect(text(await source.readSkill(skill))).toBe(pdf);
    const listing = await source.listFiles(skill, { maxDepth: 3, maxFiles: 10 });
    expect(listing.files.map((file) => [file.relativePath, file.size])).toEqual([
      ["references/forms.md", 8],
      ["scripts/fill.py", 16],
    ]);
    expect(text(await source.readFile!(skill, "scripts/fill.py", 1000))).toBe("print('filled')\n");
  });

  it("extracts a .zip skill the same way", async () => {
    const source = createWellKnownSource({ url: site.url, cacheDir });
    const skill = (await source.scan()).skills.find((entry) => entry.name === "forms")!;
    expect(text(await source.readSkill(skill))).toBe(forms);
    expect(
      (await source.listFiles(skill, { maxDepth: 3, maxFiles: 10 })).files.map((file) => file.relativePath),
    ).toEqual(["assets/form.json"]);
  });

  it("reads /.well-known/skills/index.json when the site has no agent-skills index", async () => {
    site.routes.set("/.well-known/skills/index.json", site.routes.get(INDEX)!);
    site.routes.set("/.well-known/skills/notes/SKILL.md", { body: notes });
    site.routes.delete(INDEX);
    const source = createWellKnownSource({ url: `${site.url}/`, cacheDir });
    const scan = await source.scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["notes", "pdf", "forms"]);
    expect(text(await source.readSkill(scan.skills[0]!))).toBe(notes);
  });

  it("without the site, serves the cached skills of its last index and says so", async () => {
    const first = createWellKnownSource({ url: site.url, cacheDir });
    const skill = (await first.scan()).skills.find((entry) => entry.name === "notes")!;
    await first.readSkill(skill);
    await site.close();
    const offline = createWellKnownSource({ url: site.url, cacheDir, timeoutMs: 2000 });
    const scan = await offline.scan();
    expect(scan.skills.map((entry) => entry.name)).toEqual(["notes"]);
    expect(scan.diagnostics).toHaveLength(1);
    expect(scan.diagnostics[0]).toMatchObject({ severity: "warning", code: "served-from-cache", source: offline.id });
    expect(scan.diagnostics[0]!.message).toMatch(
      /^The skills index at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/index\.json could not be fetched: .*; serving the last verified copy of its index, fetched \d{4}-.*, from the cache \(2 skills are not in the cache and left out\)$/,
    );
    expect(text(await offline.readSkill(scan.skills[0]!))).toBe(notes);
  });

  it("a site that fails is a warning; the other sources are still listed", async () => {
    const local = join(root, "local");
    mkdirSync(join(local, "lint"), { recursive: true });
    writeFileSync(join(local, "lint", "SKILL.md"), skillMd("lint", "Lints code."));
    site.routes.set(INDEX, { status: 500, body: "boom" });
    site.routes.set("/.well-known/skills/index.json", { status: 500, body: "boom" });
    const catalog = createCatalog([
      createWellKnownSource({ url: site.url, cacheDir }),
      createLocalSource({ path: local, watch: false }),
    ]);
    const snapshot = await catalog.refresh();
    catalog.close();
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(["lint"]);
    expect(snapshot.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      ["site-unavailable", `No skills from ${site.url}/: The skills index at ${site.url}${INDEX} answered HTTP 500`],
    ]);
  });

  it("an index without digests (0.1.0) is not used, with a warning", async () => {
    site.routes.set(INDEX, {
      body: JSON.stringify({ skills: [{ name: "notes", description: "Takes meeting notes.", files: ["SKILL.md"] }] }),
    });
    const scan = await createWellKnownSource({ url: site.url, cacheDir }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unsupported-index"]);
    expect(scan.diagnostics[0]!.message).toContain(
      "is a 0.1.0 index (no $schema), which has no digests; its skills cannot be verified and are not used",
    );
  });

  it("leaves out an entry it cannot use, naming it, and keeps the rest", async () => {
    site.routes.set(INDEX, {
      body: indexJson([
        { name: "Bad Name", description: "x", type: "skill-md", url: "a", digest: digestOf("a") },
        { name: "tarball", description: "x", type: "tgz" as "archive", url: "a", digest: digestOf("a") },
        {
          name: "notes",
          description: "Takes meeting notes.",
          type: "skill-md",
          url: "notes/SKILL.md",
          digest: digestOf(notes),
        },
      ]),
    });
    const scan = await createWellKnownSource({ url: site.url, cacheDir }).scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["notes"]);
    expect(scan.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `Skill 'Bad Name' of ${site.url}${INDEX} is not used: its name must be 1-64 lowercase letters, digits and single hyphens`,
      `Skill 'tarball' of ${site.url}${INDEX} is not used: its type "tgz" is neither "skill-md" nor "archive"`,
    ]);
  });

  it("refuses http:// to anything but this machine, at once", () => {
    expect(() => createWellKnownSource({ url: "http://example.com", cacheDir })).toThrow(
      "http://example.com: skills are fetched over https only (http is allowed for 127.0.0.1, ::1 and localhost, for tests); use https://example.com/",
    );
    expect(readdirSync(root)).toEqual([]);
  });
});
