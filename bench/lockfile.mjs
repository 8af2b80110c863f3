// Table "Lockfile": what the `lockfile` option costs per load. A skill's folder is hashed (as the
// `skills` CLI computes computedHash) only when the stamps of its files changed; otherwise a load
// costs one lstat per file. Both, interleaved, on the same folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { digestSkillFolder, lockfileVerifier } from "../dist/node.js";
import { measureInterleaved, time } from "./measure.mjs";
import { formatMs, formatRatio, summarize } from "./stats.mjs";

const FILES = 60;
const FILE_BYTES = 8 * 1024;
const CALLS = { iterations: 300, warmup: 20, gc: false };

/** The Lockfile table with its notes, as run.mjs prints it. */
export async function lockfileTable() {
  const base = mkdtempSync(join(tmpdir(), "skillset-bench-lock-"));
  try {
    const folder = join(base, ".agents/skills/big-skill");
    mkdirSync(join(folder, "references"), { recursive: true });
    writeFileSync(
      join(folder, "SKILL.md"),
      "---\nname: big-skill\ndescription: A skill with many files.\n---\n\nBody.\n",
    );
    for (let index = 0; index < FILES; index++)
      writeFileSync(join(folder, `references/file-${index}.md`), "x".repeat(FILE_BYTES));
    const lockfile = join(base, "skills-lock.json");
    writeFileSync(
      lockfile,
      JSON.stringify({
        version: 1,
        skills: { "big-skill": { source: "x", sourceType: "local", computedHash: digestSkillFolder(folder).hash } },
      }),
    );
    // A folder changed in the last two seconds is hashed at every load (file times move in clock ticks).
    await sleep(2_100);
    const verify = lockfileVerifier(lockfile);
    const skill = { name: "big-skill", description: "d", path: join(folder, "SKILL.md"), source: "bench" };
    if (verify(skill) !== undefined) throw new Error("the bench skill does not match its lockfile");
    const results = await measureInterleaved(
      [
        {
          label: "load check, folder unchanged (stamps only)",
          run: async () => ({ ...(await time(() => verify(skill))), found: "ok" }),
        },
        {
          label: "hash of the folder (first load, or after a change)",
          run: async () => ({ ...(await time(() => digestSkillFolder(folder))), found: "ok" }),
        },
      ],
      CALLS,
    );
    const stats = [...results].map(([label, result]) => ({ label, ...summarize(result.samples) }));
    const baseline = stats[0].median;
    return {
      title: "Lockfile",
      rows: stats.map((row) => ({
        case: row.label,
        "median ms": formatMs(row.median),
        "p90 ms": formatMs(row.p90),
        "vs stamps": formatRatio(row.median / baseline),
      })),
      notes: [
        "",
        `One skill folder of ${FILES + 1} files (${FILES} × ${FILE_BYTES / 1024} KiB), ${CALLS.iterations} runs of each, interleaved. The check runs at every load_skill and /name;`,
        "the hash only when a file's stamp (inode, size, mtime, ctime) changed, or within two seconds of a change.",
      ],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
