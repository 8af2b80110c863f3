// A project laid out as the real `skills` CLI (1.7.4) lays it out, with the skills-lock.json it
// wrote, made offline: `my-skill` copied into .claude/skills (copy mode), `other` in .agents/skills
// with .claude/skills linked to it (symlink mode), `pkg-helper` linked from node_modules
// (experimental_sync). The hashes are the ones the CLI wrote for exactly these files;
// test/skills-installer makes the same with the CLI itself.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const LOCKED_SKILLS = {
  "my-skill": {
    files: {
      "SKILL.md": "---\nname: my-skill\ndescription: d\n---\nbody\n",
      "sub/B.txt": "x\n",
      "a.txt": "y\n",
      "_Z.txt": "z\n",
    },
    hash: "dcf8f0d264ee0d4c5b1f0d56b90e70a53512850a681e58cfe93c94ce86e137b9",
  },
  other: {
    files: { "SKILL.md": "---\nname: other\ndescription: d\n---\nbody\n" },
    hash: "ef1b15aa6f36e8546e21b33bc9a55ff6767f248bc2be219164f0a0da84ef0797",
  },
  "pkg-helper": {
    files: {
      "SKILL.md":
        "---\nname: pkg-helper\ndescription: Use pkg-helper for tests.\n---\n\n# pkg-helper\n\nBODY-OF-pkg-helper\n",
    },
    hash: "61c5cea0fedb13af76a470a93a773e469eb6e6b241d2a774551470e0503aa94e",
  },
} as const;

/** The lockfile the CLI wrote for {@link LOCKED_SKILLS}. */
export function lockfileText(): string {
  return `${JSON.stringify(
    {
      version: 1,
      skills: {
        "my-skill": { source: "../collection", sourceType: "local", computedHash: LOCKED_SKILLS["my-skill"].hash },
        other: { source: "../collection", sourceType: "local", computedHash: LOCKED_SKILLS.other.hash },
        "pkg-helper": {
          source: "pkgskills",
          sourceType: "node_modules",
          skillPath: "skills/pkg-helper/SKILL.md",
          version: "1.0.0",
          computedHash: LOCKED_SKILLS["pkg-helper"].hash,
        },
      },
    },
    null,
    2,
  )}\n`;
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Makes the project (and the collection it was installed from) in a new temp folder. */
export function lockedProject(): { base: string; project: string; cleanup(): void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "skillset-lock-")));
  const project = join(base, "project");
  writeFiles(join(base, "collection/my-skill"), LOCKED_SKILLS["my-skill"].files);
  writeFiles(join(base, "collection/other"), LOCKED_SKILLS.other.files);
  writeFiles(join(project, "node_modules/pkgskills/skills/pkg-helper"), LOCKED_SKILLS["pkg-helper"].files);
  writeFiles(project, { "package.json": '{"name":"project","private":true}\n', "skills-lock.json": lockfileText() });
  cpSync(join(base, "collection/my-skill"), join(project, ".claude/skills/my-skill"), { recursive: true });
  cpSync(join(base, "collection/other"), join(project, ".agents/skills/other"), { recursive: true });
  symlinkSync("../../.agents/skills/other", join(project, ".claude/skills/other"));
  symlinkSync("../../node_modules/pkgskills/skills/pkg-helper", join(project, ".agents/skills/pkg-helper"));
  return { base, project, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
