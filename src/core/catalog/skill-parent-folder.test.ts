import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { inFolder, notedParentFolder, ParentFolderNotes, parentKey, parentOf } from "./skill-parent-folder.js";

const skillAt = (path: string): SkillMetadata => ({
  name: "pdf",
  description: "Fills PDF forms.",
  path,
  metadata: {},
  allowedTools: [],
  source: "local:/u",
});

describe("parentOf and parentKey", () => {
  it("cut a path's last two segments, with `/` for every separator", () => {
    expect(parentOf("/u/skills/pdf/SKILL.md")).toBe("/u/skills");
    expect(parentOf("C:\\u\\skills\\pdf\\SKILL.md")).toBe("C:/u/skills");
    expect(parentKey("C:\\u\\skills\\pdf\\SKILL.md")).toBe("C:/u/skills");
    expect(parentOf("/pdf/SKILL.md")).toBe("");
    expect(parentKey("/pdf/SKILL.md")).toBe("");
    // Fewer than two separators: the parent has no segments.
    expect(parentOf("pdf/SKILL.md")).toBe("");
    expect(parentKey("pdf/SKILL.md")).toBeUndefined();
    expect(parentKey("SKILL.md")).toBeUndefined();
  });

  it("inFolder says true only where parentOf gives that folder (seed 11)", () => {
    let seed = 11;
    const pick = <T>(items: readonly T[]) => items[(seed = (seed * 16_807) % 2_147_483_647) % items.length]!;
    const parts = ["/u", "/skills", "\\x", "/a", "", "/SKILL.md", "/", "/u/skills"];
    let said = 0;
    for (let round = 0; round < 2000; round++) {
      const path = Array.from({ length: 1 + (round % 6) }, () => pick(parts)).join("");
      const parent = parentOf(path);
      if (inFolder(path, parent)) said++;
      for (const other of [parent, "/u", "/u/skills", "", "/u/skills/a"])
        if (inFolder(path, other)) expect(parentOf(path), path).toBe(other);
    }
    // The usual case is told.
    expect(inFolder("/u/skills/pdf/SKILL.md", "/u/skills")).toBe(true);
    expect(said).toBeGreaterThan(100);
  });
});

describe("ParentFolderNotes", () => {
  it("notes parentOf(path), one string per folder, whichever skill came before", () => {
    const notes = new ParentFolderNotes();
    const paths = [
      "/u/skills/pdf/SKILL.md",
      "/u/skills/docx/SKILL.md",
      "/u/team/deploy/SKILL.md",
      "/u/skills/xlsx/SKILL.md",
      "C:\\u\\team\\lint\\SKILL.md",
    ];
    const skills = paths.map(skillAt);
    for (const skill of skills) notes.note(skill);
    expect(skills.map(notedParentFolder)).toEqual(["/u/skills", "/u/skills", "/u/team", "/u/skills", "C:/u/team"]);
    expect(notedParentFolder(skillAt("/u/skills/other/SKILL.md"))).toBeUndefined();
  });

  it("is not seen by copies, JSON, enumeration or toEqual, and a note stays as first made", () => {
    const skill = skillAt("/u/skills/pdf/SKILL.md");
    new ParentFolderNotes().note(skill);
    expect(skill).toStrictEqual(skillAt("/u/skills/pdf/SKILL.md"));
    expect(Reflect.ownKeys(skill)).toEqual(Reflect.ownKeys(skillAt("/u/skills/pdf/SKILL.md")));
    expect(JSON.parse(JSON.stringify(skill))).toEqual(skillAt("/u/skills/pdf/SKILL.md"));
    // A copy may change its path: it has no note, and is grouped by its path.
    expect(notedParentFolder({ ...skill, path: "/elsewhere/pdf/SKILL.md" })).toBeUndefined();
    expect(notedParentFolder(structuredClone(skill))).toBeUndefined();
    skill.path = "/u/other/pdf/SKILL.md";
    new ParentFolderNotes().note(skill);
    expect(notedParentFolder(skill)).toBe("/u/skills");
  });

  it("notes nothing on a path of fewer than two separators, nor on a frozen skill", () => {
    const skill = skillAt("pdf/SKILL.md");
    new ParentFolderNotes().note(skill);
    expect(notedParentFolder(skill)).toBeUndefined();
    const frozen = Object.freeze(skillAt("/u/skills/pdf/SKILL.md"));
    new ParentFolderNotes().note(frozen);
    expect(notedParentFolder(frozen)).toBeUndefined();
  });
});
