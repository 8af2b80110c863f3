// Skills from a site's well-known URL, attacked: a download that is not what the index's digest
// says, archives with '..', absolute paths, links and special files, zip and gzip bombs, too
// many files, oversized downloads and index, a slow server and redirects to another origin.
// Each is refused with an error naming the skill and URL, nothing of it is written, and
// nothing at all is written outside the cache.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SkillMetadata, SkillSource } from "../../src/index.js";
import { createWellKnownSource } from "../../src/node.js";
import {
  digestOf,
  indexJson,
  skillMd,
  startSite,
  tarGzOf,
  withDeclaredSize,
  zipOf,
  type Route,
  type WellKnownSite,
} from "../helpers/well-known-site.js";

const INDEX = "/.well-known/agent-skills/index.json";
const good = skillMd("evil", "Looks harmless.");
const unique = `skillset-wk-escape-${process.pid}-${Date.now()}`;

let root: string;
let cacheDir: string;
const sites: WellKnownSite[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "skillset-wk-sec-"));
  cacheDir = join(root, "cache");
});

afterEach(async () => {
  for (const site of sites.splice(0)) await site.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every file and folder below `folder`, relative to it. */
function tree(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((path) => relative(folder, join(folder, path)))
    .sort();
}

/** A site serving one skill `evil` whose artifact is `artifact` (the index's digest is `digest`, by default the artifact's). */
async function serve(
  type: "skill-md" | "archive",
  artifact: Uint8Array | string,
  options: { digest?: string; route?: Route; index?: Route } = {},
) {
  const file = type === "archive" ? "evil.bin" : "evil/SKILL.md";
  const site = await startSite({
    [INDEX]: options.index ?? {
      body: indexJson([
        { name: "evil", description: "Looks harmless.", type, url: file, digest: options.digest ?? digestOf(artifact) },
      ]),
    },
    [`/.well-known/agent-skills/${file}`]: { body: artifact, ...options.route },
  });
  sites.push(site);
  const source = createWellKnownSource({ url: site.url, cacheDir, timeoutMs: 500 });
  const skill = (await source.scan()).skills[0]!;
  return { site, source, skill };
}

/** Reading the skill fails with `message`; nothing of it is in the cache, nothing is outside it. */
async function expectRefused(source: SkillSource, skill: SkillMetadata, message: string | RegExp) {
  await expect(source.readSkill(skill)).rejects.toThrow(message);
  await expect(source.listFiles(skill, { maxDepth: 5, maxFiles: 100 })).rejects.toThrow(message);
  expect(existsSync(skill.path)).toBe(false);
  expect(tree(root).every((path) => path === "cache" || path.startsWith("cache/"))).toBe(true);
  expect(tree(cacheDir).filter((path) => !path.endsWith("index.json") && path.split("/").length > 2)).toEqual([]);
  expect(existsSync(join(tmpdir(), unique))).toBe(false);
  expect(existsSync(join(root, "escaped.txt"))).toBe(false);
}

describe("well-known skills: the digest comes first", () => {
  it("refuses a SKILL.md that is not what the index's digest says", async () => {
    const { site, source, skill } = await serve("skill-md", good, { digest: digestOf("what was reviewed") });
    await expectRefused(
      source,
      skill,
      `Skill 'evil' from ${site.url}/.well-known/agent-skills/evil/SKILL.md does not match the digest its index gives (${digestOf("what was reviewed")}; the download is ${digestOf(good)}); refused, nothing of it is used`,
    );
  });

  it("refuses an archive that is not what the digest says before opening it", async () => {
    const archive = await tarGzOf([{ name: "SKILL.md", content: good }]);
    const { source, skill } = await serve("archive", archive, { digest: digestOf("other") });
    await expectRefused(source, skill, /does not match the digest its index gives/);
  });
});

describe("well-known skills: archives are confined", () => {
  const refused = (detail: string) =>
    new RegExp(
      `^The archive of skill 'evil' at http://127\\.0\\.0\\.1:\\d+/\\.well-known/agent-skills/evil\\.bin is refused: ${detail.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
    );

  it("tar: '..' entries", async () => {
    const { source, skill } = await serve(
      "archive",
      await tarGzOf([
        { name: "SKILL.md", content: good },
        { name: "../../escaped.txt", content: "x" },
      ]),
    );
    await expectRefused(source, skill, refused(`entry "../../escaped.txt" leads out of the skill folder ('..')`));
  });

  it("tar: absolute paths", async () => {
    const target = join(tmpdir(), unique);
    const { source, skill } = await serve(
      "archive",
      await tarGzOf([
        { name: "SKILL.md", content: good },
        { name: target, content: "x" },
      ]),
    );
    await expectRefused(source, skill, refused(`entry ${JSON.stringify(target)} has an absolute path`));
  });

  it("tar: symbolic links, even inside the folder, and hard links", async () => {
    const symlink = await serve(
      "archive",
      await tarGzOf([
        { name: "SKILL.md", content: good },
        { name: "secret", type: "symlink", linkname: "/etc/passwd" },
      ]),
    );
    await expectRefused(
      symlink.source,
      symlink.skill,
      refused(`entry "secret" is a symlink; links and special files are refused`),
    );
    const hard = await serve(
      "archive",
      await tarGzOf([
        { name: "SKILL.md", content: good },
        { name: "copy.md", type: "link", linkname: "SKILL.md" },
      ]),
    );
    await expectRefused(
      hard.source,
      hard.skill,
      refused(`entry "copy.md" is a link; links and special files are refused`),
    );
  });

  it("tar: devices and FIFOs", async () => {
    const { source, skill } = await serve(
      "archive",
      await tarGzOf([
        { name: "SKILL.md", content: good },
        { name: "pipe", type: "fifo" },
      ]),
    );
    await expectRefused(source, skill, refused(`entry "pipe" is a fifo; links and special files are refused`));
  });

  it("zip: '..' entries and absolute paths (names yazl would not write, swapped in afterwards)", async () => {
    const dots = await serve(
      "archive",
      await zipOf(
        [
          { path: "SKILL.md", content: good },
          { path: "xx/xx/escaped.txt", content: "x" },
        ],
        { "xx/xx/escaped.txt": "../../escaped.txt" },
      ),
    );
    await expectRefused(
      dots.source,
      dots.skill,
      /is refused: it is not a usable zip archive: invalid relative path: \.\.\/\.\.\/escaped\.txt$/,
    );
    const absolute = await serve(
      "archive",
      await zipOf(
        [
          { path: "SKILL.md", content: good },
          { path: "x/escaped.txt", content: "x" },
        ],
        { "x/escaped.txt": "/escaped.txt_" },
      ),
    );
    await expectRefused(
      absolute.source,
      absolute.skill,
      /is refused: it is not a usable zip archive: absolute path: \/escaped\.txt_$/,
    );
  });

  it("zip: symbolic links", async () => {
    const { source, skill } = await serve(
      "archive",
      await zipOf([
        { path: "SKILL.md", content: good },
        { path: "secret", content: "/etc/passwd", mode: 0o120777 },
      ]),
    );
    await expectRefused(source, skill, refused(`entry "secret" is a link or special file`));
  });

  it("zip bomb: refused on its declared size, before inflating", async () => {
    const { source, skill } = await serve(
      "archive",
      await zipOf([
        { path: "SKILL.md", content: good },
        { path: "zeros", content: new Uint8Array(26 * 1024 * 1024) },
      ]),
    );
    await expectRefused(source, skill, refused("it extracts to more than 26214400 bytes (25 MiB)"));
  });

  it("zip bomb that lies about its size: inflating stops past what it declared", async () => {
    const zip = withDeclaredSize(
      await zipOf([
        { path: "SKILL.md", content: good },
        { path: "zeros", content: new Uint8Array(30 * 1024 * 1024) },
      ]),
      "zeros",
      100,
    );
    const { source, skill } = await serve("archive", zip);
    await expectRefused(
      source,
      skill,
      /is refused: entry "zeros" cannot be read: too many bytes in the stream\. expected 100\. got at least \d+$/,
    );
  });

  it("gzip bomb: decompression stops at the cap", async () => {
    const archive = await tarGzOf([
      { name: "SKILL.md", content: good },
      { name: "zeros", content: new Uint8Array(30 * 1024 * 1024) },
    ]);
    expect(archive.byteLength).toBeLessThan(100_000);
    const { source, skill } = await serve("archive", archive);
    await expectRefused(source, skill, refused("it extracts to more than 26214400 bytes (25 MiB)"));
  });

  it("more than 1,000 files", async () => {
    const entries = [
      { name: "SKILL.md", content: good },
      ...Array.from({ length: 1000 }, (_, index) => ({ name: `f/${index}.txt`, content: "x" })),
    ];
    const { source, skill } = await serve("archive", await tarGzOf(entries));
    await expectRefused(source, skill, refused("it holds more than 1000 files"));
  });

  it("no SKILL.md at the root (one wrapper folder is not unwrapped)", async () => {
    const { source, skill } = await serve("archive", await zipOf([{ path: "evil/SKILL.md", content: good }]));
    await expectRefused(source, skill, refused("it has no SKILL.md at its root"));
  });
});

describe("well-known skills: what the network may do", () => {
  it("a download over 10 MiB, declared or not", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    const declared = await serve("archive", big);
    await expectRefused(
      declared.source,
      declared.skill,
      /^Skill 'evil' at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/evil\.bin is larger than 10485760 bytes; refused$/,
    );
    const streamed = await serve("archive", big, { route: { chunked: true } });
    await expectRefused(streamed.source, streamed.skill, /is larger than 10485760 bytes; refused$/);
  });

  it("an index over 1 MiB is a warning, not skills", async () => {
    const site = await startSite({ [INDEX]: { body: " ".repeat(1024 * 1024 + 1), chunked: true } });
    sites.push(site);
    const scan = await createWellKnownSource({ url: site.url, cacheDir }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `No skills from ${site.url}/: The skills index at ${site.url}${INDEX} is larger than 1048576 bytes; refused`,
    ]);
  });

  it("a slow server times out: the index is a warning, a skill an error", async () => {
    const slowSkill = await serve("skill-md", good, { route: { delayMs: 3000 } });
    await expectRefused(
      slowSkill.source,
      slowSkill.skill,
      /^Skill 'evil' at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/evil\/SKILL\.md took longer than 500 ms; gave up$/,
    );
    const site = await startSite({ [INDEX]: { body: "{}", delayMs: 3000 } });
    sites.push(site);
    const scan = await createWellKnownSource({ url: site.url, cacheDir, timeoutMs: 300 }).scan();
    expect(scan.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `No skills from ${site.url}/: The skills index at ${site.url}${INDEX} took longer than 300 ms; gave up`,
    ]);
  });

  it("redirects are followed within the origin, refused to another", async () => {
    const other = await startSite({ "/evil/SKILL.md": { body: good } });
    sites.push(other);
    const away = await serve("skill-md", good, {
      route: { status: 302, headers: { location: `${other.url}/evil/SKILL.md` } },
    });
    await expectRefused(
      away.source,
      away.skill,
      /^Skill 'evil' at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-skills\/evil\/SKILL\.md redirects to http:\/\/127\.0\.0\.1:\d+\/evil\/SKILL\.md, another origin; refused \(redirects are followed within http:\/\/127\.0\.0\.1:\d+ only\)$/,
    );
    expect(other.requests).toEqual([]);
    const within = await serve("skill-md", good, { route: { status: 301, headers: { location: "/moved/SKILL.md" } } });
    within.site.routes.set("/moved/SKILL.md", { body: good });
    expect(new TextDecoder().decode(await within.source.readSkill(within.skill))).toBe(good);
  });

  it("an index redirected to another origin is a warning", async () => {
    const other = await startSite({ [INDEX]: { body: indexJson([]) } });
    sites.push(other);
    const site = await startSite({ [INDEX]: { status: 307, headers: { location: `${other.url}${INDEX}` } } });
    sites.push(site);
    const scan = await createWellKnownSource({ url: site.url, cacheDir }).scan();
    expect(scan.skills).toEqual([]);
    expect(scan.diagnostics[0]!.message).toBe(
      `No skills from ${site.url}/: The skills index at ${site.url}${INDEX} redirects to ${other.url}${INDEX}, another origin; refused (redirects are followed within ${site.url} only)`,
    );
    expect(other.requests).toEqual([]);
  });
});
