// `skillset package` puts nothing outside the skill folder into the zip: links out (file,
// folder, relative, absolute, chained, through SKILL.md itself) are refused, as are loops,
// dangling links and FIFOs; a link to a file inside is packed as a copy, never as a link.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageSkill } from "../../src/node.js";
import { link, marker, mkfifo, put, Sandbox, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
afterEach(() => sandbox.cleanupAll());

const SECRET = marker("PKGSECRET");

/** A valid skill `tool` in `base/skills/tool`, and a secret file beside the skills folder. */
function world() {
  const base = sandbox.folder();
  put(base, "secret.txt", `${SECRET}\n`);
  put(base, "outside/notes.md", `${SECRET}\n`);
  const skill = join(base, "skills", "tool");
  put(skill, "SKILL.md", skillMd("tool"));
  put(skill, "references/inside.md", "inside\n");
  return { base, skill };
}

function refusal(skill: string): { code: string; message: string } {
  try {
    const packed = packageSkill(skill);
    throw new Error(
      `packaged: ${packed.entries.join(", ")}; contains the secret: ${Buffer.from(packed.bytes).includes(SECRET)}`,
    );
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
}

describe("package: links that lead out of the skill folder", () => {
  it.each([
    ["an absolute link to a file", (base: string) => `${base}/secret.txt`],
    ["a relative link to a file", () => "../../../secret.txt"],
    [
      "a chain whose last step leaves",
      (_base: string, skill: string) => link(skill, "references/zz-hop.md", "../../../secret.txt") && "zz-hop.md",
    ],
  ])("refuses %s, naming it", (_label, target) => {
    const { base, skill } = world();
    link(skill, "references/leak.md", target(base, skill));
    const { code, message } = refusal(skill);
    expect(code).toBe("outside-skill");
    expect(message).toMatch(/^references\/leak\.md is a symbolic link to .*secret\.txt, outside the skill folder/);
    expect(message).not.toContain(SECRET);
  });

  it("refuses a link to a folder outside, and to the skill's own parent", () => {
    const { base, skill } = world();
    link(skill, "references/outside", `${base}/outside`);
    expect(refusal(skill).code).toBe("outside-skill");
    const second = world();
    link(second.skill, "up", "..");
    expect(refusal(second.skill)).toMatchObject({
      code: "outside-skill",
      message: expect.stringMatching(/^up is a symbolic link to /),
    });
  });

  it("refuses a sibling folder whose name starts with the skill's (tool-evil beside tool)", () => {
    const { base, skill } = world();
    put(base, "skills/tool-evil/data.md", `${SECRET}\n`);
    link(skill, "data.md", "../tool-evil/data.md");
    expect(refusal(skill).code).toBe("outside-skill");
  });

  it("refuses a SKILL.md that is itself a link out, though it validates", () => {
    const base = sandbox.folder();
    put(base, "elsewhere/SKILL.md", skillMd("tool", "Use tool for tests.", "", SECRET));
    link(base, "skills/tool/SKILL.md", `${base}/elsewhere/SKILL.md`);
    expect(refusal(join(base, "skills/tool")).code).toBe("outside-skill");
  });

  it("refuses loops and dangling links instead of skipping them", () => {
    const { skill } = world();
    link(skill, "loop-a", "loop-b");
    link(skill, "loop-b", "loop-a");
    expect(refusal(skill)).toMatchObject({
      code: "symlink-dangling",
      message: expect.stringMatching(/^loop-a is a symbolic link that leads nowhere/),
    });
    const second = world();
    link(second.skill, "gone.md", "missing.md");
    expect(refusal(second.skill).code).toBe("symlink-dangling");
  });

  it("refuses a link to a folder inside (it could lead back to itself) and to the folder itself", () => {
    const { skill } = world();
    link(skill, "refs", "references");
    expect(refusal(skill).code).toBe("symlinked-folder");
    const second = world();
    link(second.skill, "references/self", "..");
    expect(refusal(second.skill).code).toBe("symlinked-folder");
  });

  it("refuses a FIFO without opening it", () => {
    const { skill } = world();
    mkfifo(join(skill, "pipe"));
    expect(refusal(skill)).toMatchObject({
      code: "special-file",
      message: expect.stringMatching(/^pipe is not a regular file/),
    });
  });

  it("packs a link to a file inside as a copy of that file", () => {
    const { skill } = world();
    link(skill, "references/alias.md", "inside.md");
    const packed = packageSkill(skill);
    expect(packed.entries).toEqual(["tool/SKILL.md", "tool/references/alias.md", "tool/references/inside.md"]);
    expect(Buffer.from(packed.bytes).includes(SECRET)).toBe(false);
  });
});
