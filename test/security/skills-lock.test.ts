// skills-lock.json is input too: an entry whose name is a path, a lockfile that is malformed, a
// link that leads out of the project, a verifier asked about a folder that changed under it.
// None of them makes skillset read outside the skills folders or take a broken lockfile for an
// empty one.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSkillsLock } from "../../src/node/skills-lock/read-skills-lock.js";
import { lockfileVerifier, verifySkillsLock } from "../../src/node.js";
import type { SkillMetadata } from "../../src/index.js";
import { lockedProject, LOCKED_SKILLS, lockfileText } from "../helpers/skills-lock-project.js";

let fixture: ReturnType<typeof lockedProject>;
afterEach(() => fixture.cleanup());

const lockWith = (skills: Record<string, unknown>) => JSON.stringify({ version: 1, skills });
const entry = (computedHash: string) => ({ source: "x", sourceType: "local", computedHash });

describe("a lockfile entry whose name is a path", () => {
  it.each(["../evil", "../../etc", "a/../../evil", "..", "evil\\..\\x"])(
    "%s is refused, and nothing is looked up for it",
    (name) => {
      fixture = lockedProject();
      // A folder the path would reach, with the very hash the entry records: a lookup would say ok.
      const decoy = join(fixture.project, ".agents/evil");
      mkdirSync(decoy, { recursive: true });
      writeFileSync(join(decoy, "SKILL.md"), LOCKED_SKILLS.other.files["SKILL.md"]);
      const lockfile = join(fixture.project, "evil-lock.json");
      writeFileSync(lockfile, lockWith({ [name]: entry(LOCKED_SKILLS.other.hash) }));
      const [check] = verifySkillsLock({ lockfile }).skills;
      expect(check).toEqual({
        name,
        lockedHash: LOCKED_SKILLS.other.hash,
        status: "refused",
        installed: [],
        note: `the entry's name ${JSON.stringify(name)} is a path, not a skill name; nothing is looked up for it`,
      });
    },
  );
});

describe("a malformed lockfile is an error naming the file and the problem", () => {
  const hash = "a".repeat(64);
  it.each([
    ["not JSON", "{ version: 1", /^Cannot use the skills lockfile .*lock\.json: it is not valid JSON \(/],
    ["an array", "[]", /: it is not a JSON object$/],
    [
      "version 2",
      lockWith({}).replace('"version":1', '"version":2'),
      /: its "version" is 2; skillset reads version 1 of the skills CLI's lockfile$/,
    ],
    ["no version", '{"skills":{}}', /: its "version" is missing; skillset reads version 1/],
    ["skills a list", '{"version":1,"skills":[]}', /: its "skills" is not an object of skill entries$/],
    ["an entry that is a string", lockWith({ a: "x" }), /: skills\["a"\] is not an object$/],
    [
      "a short hash",
      lockWith({ a: entry("abc") }),
      /: skills\["a"\]\.computedHash is "abc", not a sha256 in hex \(64 characters 0-9a-f\)$/,
    ],
    ["an upper-case hash", lockWith({ a: entry(hash.toUpperCase()) }), /computedHash is "A{64}", not a sha256/],
    [
      "a numeric source",
      lockWith({ a: { source: 1, sourceType: "local", computedHash: hash } }),
      /: skills\["a"\]\.source is not a string$/,
    ],
    ["a numeric ref", lockWith({ a: { ...entry(hash), ref: 3 } }), /: skills\["a"\]\.ref is not a string$/],
  ])("%s", (_label, text, message) => {
    fixture = lockedProject();
    const lockfile = join(fixture.project, "lock.json");
    writeFileSync(lockfile, text);
    expect(() => readSkillsLock(lockfile)).toThrow(message);
    expect(() => verifySkillsLock({ lockfile })).toThrow(message);
    expect(() => lockfileVerifier({ path: lockfile, mode: "warn" })).toThrow(message);
  });

  it("a lockfile broken while running refuses every skill, saying why, until it is fixed", () => {
    fixture = lockedProject();
    const lockfile = join(fixture.project, "skills-lock.json");
    const verify = lockfileVerifier(lockfile);
    const other = {
      name: "other",
      description: "d",
      path: join(fixture.project, ".agents/skills/other/SKILL.md"),
      source: "s",
    } as SkillMetadata;
    expect(verify(other)).toBeUndefined();
    writeFileSync(lockfile, "{");
    expect(verify(other)).toEqual({
      refuse: true,
      reason: expect.stringMatching(/^Cannot use the skills lockfile .*skills-lock\.json: it is not valid JSON/),
    });
    writeFileSync(lockfile, lockfileText());
    expect(verify(other)).toBeUndefined();
  });
});

describe("links", () => {
  it("an installed skill linked out of the project is refused by verify, naming the link", () => {
    fixture = lockedProject();
    const outside = join(fixture.base, "outside/other");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "SKILL.md"), LOCKED_SKILLS.other.files["SKILL.md"]);
    renameSync(join(fixture.project, ".agents/skills/other"), join(fixture.project, "old-other"));
    symlinkSync(outside, join(fixture.project, ".agents/skills/other"));
    const check = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") }).skills.find(
      (skill) => skill.name === "other",
    )!;
    expect(check.status).toBe("refused");
    // Both paths to it: the canonical one, and the agent's link that now leads out through it.
    expect(check.installed).toEqual(
      [".agents/skills/other", ".claude/skills/other"].map((path) => ({
        path: join(fixture.project, path),
        status: "refused",
        note: `${join(fixture.project, path)} is a symbolic link to ${outside}, outside the allowed folders`,
      })),
    );
  });

  it("a link inside a skill's folder is not covered by the lockfile's hash, so the folder does not pass", () => {
    fixture = lockedProject();
    symlinkSync("/etc/passwd", join(fixture.project, ".claude/skills/my-skill/notes.md"));
    const check = verifySkillsLock({ lockfile: join(fixture.project, "skills-lock.json") }).skills[0]!;
    expect(check.status).toBe("modified");
    expect(check.installed[0]!.note).toBe("it holds symbolic links the lockfile's hash does not cover (notes.md)");
  });

  it("the runtime verifier re-hashes after a file is swapped for a link with the same name, even right after a check", () => {
    fixture = lockedProject();
    const verify = lockfileVerifier(join(fixture.project, "skills-lock.json"));
    const mySkill = {
      name: "my-skill",
      description: "d",
      path: join(fixture.project, ".claude/skills/my-skill/SKILL.md"),
      source: "s",
    } as SkillMetadata;
    expect(verify(mySkill)).toBeUndefined();
    const file = join(fixture.project, ".claude/skills/my-skill/a.txt");
    renameSync(file, `${file}.bak`);
    symlinkSync(`${file}.bak`, file);
    expect(verify(mySkill)?.refuse).toBe(true);
    expect(verify(mySkill)?.reason).toMatch(
      /a\.txt removed; it holds symbolic links the lockfile's hash does not cover \(a\.txt\)\)$/,
    );
  });

  it("the runtime verifier catches a same-size rewrite made within the same clock tick as the check", () => {
    fixture = lockedProject();
    const verify = lockfileVerifier(join(fixture.project, "skills-lock.json"));
    const mySkill = {
      name: "my-skill",
      description: "d",
      path: join(fixture.project, ".claude/skills/my-skill/SKILL.md"),
      source: "s",
    } as SkillMetadata;
    expect(verify(mySkill)).toBeUndefined();
    writeFileSync(join(fixture.project, ".claude/skills/my-skill/a.txt"), "Y\n");
    expect(verify(mySkill)?.reason).toMatch(/\(a\.txt changed\)$/);
  });
});
