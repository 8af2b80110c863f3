// skillset's `npm:` source and the real `skills` CLI's `experimental_sync` agree on which skills
// installed npm packages ship: packages in the three layouts (a root SKILL.md, skills/<name>/,
// dist/skills/<name>/), packed and installed offline from their tarballs, named in the project's
// `skills` field (one entry choosing a single skill). The installer links what it found into
// .claude/skills; `skillset list npm:` must list the same skills, at the same real files, with
// the packages' versions. Run under Node 22 with the other installer tests (see skills-installer.spec.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  installerEnv,
  installerInstalled as installed,
  NODE_22,
  requireBuiltSkillset,
  SKILLS_CLI,
  SKILLSET_CLI,
} from "./installer-harness.js";

let base: string;
let home: string;
let project: string;

const env = (): NodeJS.ProcessEnv => installerEnv(base, home);

function write(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Use ${name} for tests.\n---\n\n# ${name}\n\nBODY-OF-${name}\n`;

/** Writes a package, packs it with `npm pack` and returns the tarball. */
function pack(name: string, version: string, files: Record<string, string>): string {
  const folder = join(base, "packages", name.replace("/", "+"));
  for (const [path, content] of Object.entries(files)) write(join(folder, path), content);
  write(join(folder, "package.json"), JSON.stringify({ name, version }));
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", base], {
    cwd: folder,
    env: env(),
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  return join(base, tarball);
}

interface Listing {
  skills: Array<{ name: string; status: string; path: string }>;
  diagnostics: Array<{ code: string; message: string }>;
}

beforeAll(() => {
  if (!installed) return;
  requireBuiltSkillset();
  base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-npm-sync-")));
  home = join(base, "home");
  project = join(base, "project");
  mkdirSync(home);
  const tarballs = [
    pack("pkg-a", "1.0.0", { "skills/a-one/SKILL.md": skillMd("a-one"), "skills/a-two/SKILL.md": skillMd("a-two") }),
    pack("@s/dist-pkg", "2.0.0", {
      "dist/skills/one/SKILL.md": skillMd("one"),
      "dist/skills/two/SKILL.md": skillMd("two"),
    }),
    pack("root-pkg", "3.0.0", { "SKILL.md": skillMd("root-pkg"), "skills/ignored/SKILL.md": skillMd("ignored") }),
  ];
  write(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--silent", ...tarballs], {
    cwd: project,
    env: env(),
    encoding: "utf8",
  });
  // Only the skills field names the packages (installed, but no dependency), so both tools read
  // exactly what it asks for.
  write(
    join(project, "package.json"),
    JSON.stringify({
      name: "project",
      private: true,
      skills: ["npm:pkg-a", { source: "npm:@s/dist-pkg", skills: ["one"] }, "npm:root-pkg"],
    }),
  );
  const sync = spawnSync(NODE_22, [SKILLS_CLI, "experimental_sync", "--agent", "claude-code", "--yes"], {
    cwd: project,
    env: env(),
    encoding: "utf8",
    timeout: 60_000,
  });
  if (sync.status !== 0)
    throw new Error(`skills experimental_sync exited ${sync.status}:\n${sync.stdout}\n${sync.stderr}`);
}, 300_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!installed)("npm: and the skills CLI's experimental_sync", () => {
  it("find the same skills in the same files, and skillset names each one's package and version", () => {
    const synced = readdirSync(join(project, ".claude/skills"))
      .sort()
      .map((name) => [name, realpathSync(join(project, ".claude/skills", name, "SKILL.md"))]);
    const listing = JSON.parse(
      execFileSync(process.execPath, [SKILLSET_CLI, "list", "--json", "npm:"], {
        cwd: project,
        env: env(),
        encoding: "utf8",
      }),
    ) as Listing;
    expect(listing.diagnostics).toEqual([]);
    const listed = listing.skills
      .map((row) => [row.name, realpathSync(row.path)])
      .sort(([a], [b]) => a!.localeCompare(b!));
    expect(listed).toEqual(synced);
    expect(listed.map(([name]) => name)).toEqual(["a-one", "a-two", "one", "root-pkg"]);
    const info = (name: string) =>
      (
        JSON.parse(
          execFileSync(process.execPath, [SKILLSET_CLI, "info", name, "npm:", "--json"], {
            cwd: project,
            env: env(),
            encoding: "utf8",
          }),
        ) as { skill: { package: unknown } }
      ).skill.package;
    expect([info("a-one"), info("one"), info("root-pkg")]).toEqual([
      { name: "pkg-a", version: "1.0.0" },
      { name: "@s/dist-pkg", version: "2.0.0" },
      { name: "root-pkg", version: "3.0.0" },
    ]);
    // The installer's lock file names the same packages as their sources.
    const lock = JSON.parse(readFileSync(join(project, "skills-lock.json"), "utf8")) as {
      skills: Record<string, { source: string; sourceType: string }>;
    };
    expect(Object.keys(lock.skills).sort()).toEqual(["a-one", "a-two", "one", "root-pkg"]);
  });
});
