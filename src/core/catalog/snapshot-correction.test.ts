import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../diagnostic.js";
import { sha256Hex } from "../text/sha256-hex.js";
import { collectSkills, inspectSkillFile } from "./collect-skills.js";
import { buildLibrarySnapshot, type SnapshotSkill } from "./library-snapshot.js";
import {
  applyCorrections,
  decodeSnapshotCorrection,
  encodeSnapshotCorrection,
  type SnapshotCorrection,
} from "./snapshot-correction.js";

const SOURCE = "backend:/skills/";
const FOLDERS = ["alpha", "beta", "delta", "gamma", "kappa", "omega", "sigma", "zeta"];
// What a skill's SKILL.md may be: two valid texts, one whose name is not its folder's (a warning,
// and a name no other folder has), one without a description (no skill, an error), or no file.
const VARIANTS = ["first", "second", "renamed", "broken", "absent"] as const;
type Variant = (typeof VARIANTS)[number];
type Library = Record<string, Variant>;

const pathOf = (folder: string) => `/skills/${folder}/SKILL.md`;
function textOf(folder: string, variant: Variant): string | undefined {
  if (variant === "absent") return undefined;
  if (variant === "broken") return `---\nname: ${folder}\n---\n# ${folder}\n`;
  const name = variant === "renamed" ? `${folder}-renamed` : folder;
  return `---\nname: ${name}\ndescription: Use ${folder} (${variant}).\n---\n# ${folder}\n`;
}

async function correctionOf(folder: string, variant: Variant): Promise<SnapshotCorrection> {
  const path = pathOf(folder);
  const text = textOf(folder, variant);
  if (text === undefined) return { path, entry: null, diagnostics: [] };
  const { skill, diagnostics } = inspectSkillFile(text, path, SOURCE);
  return { path, entry: skill ? await entryOf(text, skill) : null, diagnostics };
}

async function entryOf(text: string, skill: SnapshotSkill["skill"]): Promise<SnapshotSkill> {
  return { skill, digest: await sha256Hex(text), files: [], filesTruncated: false };
}

// What a full scan of `library` gives: every SKILL.md in path order, inspected and collected.
async function scanOf(library: Library) {
  const folders = Object.keys(library)
    .filter((folder) => library[folder] !== "absent")
    .sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : 1));
  const texts = new Map(folders.map((folder) => [pathOf(folder), textOf(folder, library[folder]!)!]));
  const diagnostics: Diagnostic[] = [];
  const skills = collectSkills(
    [...texts].map(([path, text]) => inspectSkillFile(text, path, SOURCE)),
    SOURCE,
    diagnostics,
  );
  const entries = await Promise.all(skills.map((skill) => entryOf(texts.get(skill.path)!, skill)));
  return buildLibrarySnapshot(SOURCE, entries, diagnostics, "2026-11-28T00:00:00.000Z");
}

const library = fc.dictionary(fc.constantFrom(...FOLDERS), fc.constantFrom(...VARIANTS));

describe("applyCorrections: the snapshot with single skills' corrections laid over it", () => {
  it("serves what a full scan of the changed library gives, whichever skills were corrected and in whatever order; corrections that change nothing return the snapshot itself", async () => {
    await fc.assert(
      fc.asyncProperty(library, library, fc.subarray(FOLDERS), fc.integer(), async (before, after, also, turn) => {
        const base = await scanOf(before);
        const now = { ...before, ...after };
        const changed = FOLDERS.filter((folder) => (before[folder] ?? "absent") !== (now[folder] ?? "absent"));
        // Each changed skill is corrected, and some unchanged ones too (a worker that looked again).
        const corrected = [...new Set([...changed, ...also])];
        const corrections = await Promise.all(corrected.map((folder) => correctionOf(folder, now[folder] ?? "absent")));
        const rotated = corrections.map((_, at) => corrections[(at + Math.abs(turn)) % corrections.length]!);
        const served = await applyCorrections(base, corrections);
        const scanned = await scanOf(now);
        expect(served.skills).toEqual(scanned.skills);
        expect(served.diagnostics).toEqual(scanned.diagnostics);
        expect(served.count).toBe(scanned.count);
        if (changed.length === 0) expect(served).toBe(base);
        else expect(served.generation).not.toBe(base.generation);
        expect((await applyCorrections(base, rotated)).generation).toBe(served.generation);
      }),
      { numRuns: 200 },
    );
  });

  it("a stored correction reads back as written; one altered, of another path or of a newer format is refused", async () => {
    const correction = await correctionOf("beta", "renamed");
    const stored = await encodeSnapshotCorrection(SOURCE, correction);
    expect(await decodeSnapshotCorrection(JSON.parse(JSON.stringify(stored)), SOURCE, correction.path)).toEqual({
      ok: true,
      value: correction,
    });
    const refused = async (value: unknown, path = correction.path) => {
      const reading = await decodeSnapshotCorrection(value, SOURCE, path);
      return reading.ok ? "accepted" : [reading.problem, reading.newer];
    };
    expect(await refused({ ...stored, content: stored.content.replace("renamed", "evil") })).toEqual([
      "its content does not match its digest (truncated, corrupted or altered)",
      false,
    ]);
    expect(await refused(stored, pathOf("zeta"))).toEqual(["it names another source or path", false]);
    expect(await refused({ ...stored, format: 2 })).toEqual(["it has format 2; this skillset reads format 1", true]);
    expect(await refused("garbage")).toEqual(["it is not an object", false]);
  });
});
