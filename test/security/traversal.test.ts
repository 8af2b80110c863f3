// Decision 11: a resource path or a skill name from the model must never reach a file outside
// the skill's folder, whatever the spelling: `..`, backslashes, absolute paths, encodings,
// Unicode look-alikes, NUL bytes, very long paths.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { checkResourcePath } from "../../src/host.js";
import { MAX_SKILL_NAME_CHARS } from "../../src/core/tools/skill-tool-definition.js";
import { readContainedFile } from "../../src/sources/local-source.js";
import { load } from "../langchain/helpers.js";
import { Sandbox, put, readCall, runSkillsAgent, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
afterEach(() => sandbox.cleanupAll());

const SECRET = "TOPSECRET-7f3a9c";
const NORMAL_FORMS = ["NFC", "NFD", "NFKC", "NFKD"] as const;
const OUTSIDE_BODY = "OUTSIDE-SKILL-BODY-51be";

/**
 * base/secret.txt                 outside the source
 * base/outside-skill/SKILL.md     a skill outside the source
 * base/skills/secret.txt          inside the source, outside every skill
 * base/skills/good/…              the skill the model loads
 * base/skills/other/SKILL.md      a sibling skill (not loaded)
 */
function world() {
  const base = sandbox.folder();
  put(base, "secret.txt", `${SECRET}\n`);
  put(base, "outside-skill/SKILL.md", skillMd("outside-skill", "Outside the source.", "", OUTSIDE_BODY));
  put(base, "skills/secret.txt", `${SECRET}\n`);
  put(base, "skills/good/SKILL.md", skillMd("good"));
  put(base, "skills/good/references/guide.md", "# Guide\n\nThe guide.\n");
  put(base, "skills/other/SKILL.md", skillMd("other", "A sibling.", "", `${SECRET} in a sibling skill`));
  return { base, root: `${base}/skills`, skill: `${base}/skills/good` };
}

/** Paths that must be refused by checkResourcePath itself. */
function refusedPaths(base: string): string[] {
  return [
    // plain `..`
    "..",
    "../",
    "../secret.txt",
    "../../secret.txt",
    "./../secret.txt",
    "references/../../secret.txt",
    "references/./../../secret.txt",
    "references/..",
    "../other/SKILL.md",
    "../".repeat(40) + "etc/passwd",
    // backslashes
    "..\\secret.txt",
    "references\\..\\..\\secret.txt",
    "..\\..\\..\\etc\\passwd",
    // absolute
    "/etc/passwd",
    `${base}/secret.txt`,
    "//etc/passwd",
    "/",
    "C:\\Windows\\win.ini",
    "C:/Windows/win.ini",
    "c:secret.txt",
    // Unicode look-alikes whose NFKC form is `..` or `/`
    "\u2025/secret.txt", // ‥ two dot leader
    "\u2024\u2024/secret.txt", // ․․ one dot leader x2
    "\uff0e\uff0e\uff0fsecret.txt", // ．．／
    "..\uff0fsecret.txt", // fullwidth solidus
    "\ufe52\ufe52/secret.txt", // small full stop x2
    "references/\u2025/\u2025/secret.txt",
    "\uff0fetc\uff0fpasswd", // fullwidth absolute
    "\uff23\uff1a/x", // fullwidth drive letter
    // look-alikes exposed only once `./` is dropped (found by the property test below)
    "./\uff0f",
    "./\uff0fetc/passwd",
    ".//\uff0f\uff0fetc/passwd",
    "./\uff23\uff1a/x",
    // NUL and other control / invisible characters
    "references/guide.md\u0000.png",
    "\u0000",
    "../\u0000",
    "\n../secret.txt",
    "references/\r",
    "references/\u202egnp.md", // right-to-left override
    "references/\u200bguide.md", // zero-width space
    ".\u200b./secret.txt",
    // empty, the folder itself, very long
    "",
    ".",
    "./",
    "a/".repeat(600) + "x",
    "x".repeat(1025),
    "../".repeat(400_000),
  ];
}

/** Paths checkResourcePath may accept as literal names; reading them must still find nothing outside. */
const LITERAL_PATHS = [
  "%2e%2e/secret.txt",
  "..%2fsecret.txt",
  "%2e%2e%2fsecret.txt",
  "%252e%252e%252fsecret.txt",
  "..%252fsecret.txt",
  "%c0%ae%c0%ae/secret.txt",
  "..%5csecret.txt",
  "%2e%2e%5csecret.txt",
  "file:///etc/passwd",
  "file:../secret.txt",
  "~/secret.txt",
  "...",
  ".../secret.txt",
  "..\u0301/secret.txt", // combining acute: NFKC keeps it, so not `..`
  ".\u0338./secret.txt",
  "\u2026/secret.txt", // … becomes "..." under NFKC: a name, not `..`
];

describe("checkResourcePath refuses traversal in every spelling", () => {
  it("refuses `..`, backslashes, absolute paths, look-alikes, control characters and very long paths", () => {
    const { base } = world();
    for (const path of refusedPaths(base)) {
      const started = performance.now();
      const checked = checkResourcePath(path);
      expect(performance.now() - started, JSON.stringify(path.slice(0, 40))).toBeLessThan(200);
      expect(checked.ok, `accepted ${JSON.stringify(path.slice(0, 60))}`).toBe(false);
      if (!checked.ok) expect(checked.reason.length).toBeGreaterThan(5);
    }
  });

  // Found by this suite (fixed): the NFKC form is checked for `\` too.
  it("refuses the fullwidth reverse solidus, whose NFKC form is a backslash", () => {
    for (const path of [
      "\uff0e\uff0e\uff3csecret.txt",
      "..\uff3csecret.txt",
      "references\uff3c..\uff3c..\uff3csecret.txt",
    ]) {
      expect(checkResourcePath(path).ok, JSON.stringify(path)).toBe(false);
    }
  });

  it("keeps percent-encodings and other odd spellings literal: an accepted path has no `..` segment in any form", () => {
    for (const path of LITERAL_PATHS) {
      const checked = checkResourcePath(path);
      if (!checked.ok) continue;
      for (const form of [checked.path, ...NORMAL_FORMS.map((name) => checked.path.normalize(name))]) {
        expect(form.split("/")).not.toContain("..");
        expect(form.startsWith("/")).toBe(false);
      }
    }
  });

  it("property: an accepted path is relative and clean, and none of its normal forms has a `..` segment, an absolute start, a backslash or a control character", () => {
    const fragments = fc.constantFrom(
      "..",
      ".",
      "/",
      "\\",
      "a",
      "b.md",
      "\u2025",
      "\u2024",
      "\uff0e",
      "\uff0f",
      "\uff3c",
      "\ufe52",
      "\ufe68",
      "\uff23\uff1a",
      "%2e",
      "%2f",
      "\u0000",
      "\u200b",
      "C:",
      "~",
      "\u0301",
      " ",
    );
    const paths = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.array(fragments, { maxLength: 12 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(paths, (path) => {
        const checked = checkResourcePath(path);
        if (!checked.ok) return;
        expect(checked.path.split("/").every((segment) => segment !== ".." && segment !== "." && segment !== "")).toBe(
          true,
        );
        for (const form of [checked.path, ...NORMAL_FORMS.map((name) => checked.path.normalize(name))]) {
          expect(form.includes("\\")).toBe(false);
          expect(form.startsWith("/")).toBe(false);
          expect(/^[A-Za-z]:/.test(form)).toBe(false);
          expect(form.split("/")).not.toContain("..");
          expect(/[\p{Cc}\p{Cf}]/u.test(form)).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe("readContainedFile refuses traversal even without checkResourcePath (defence in depth)", () => {
  it("never returns a byte from outside the skill folder for raw traversal inputs", () => {
    const { base, skill } = world();
    const attempts = [
      ...refusedPaths(base).filter((path) => path.length < 5000 && !path.includes("\u0000")),
      ...LITERAL_PATHS,
    ];
    for (const path of attempts) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = readContainedFile(skill, path, 1024 * 1024);
      } catch (error) {
        expect((error as { name?: string }).name).toBe("SkillsetError");
        continue;
      }
      // Only files inside the skill may come back (e.g. "references/.." cannot, it is a folder).
      expect(Buffer.from(bytes).toString(), JSON.stringify(path)).not.toContain(SECRET);
    }
  });

  it("refuses a NUL byte with a SkillsetError, not a raw Node error", () => {
    const { skill } = world();
    for (const path of ["references/guide.md\u0000", "\u0000../secret.txt"]) {
      expect(() => readContainedFile(skill, path, 1024)).toThrow(expect.objectContaining({ name: "SkillsetError" }));
    }
  });
});

describe("end to end: read_skill_resource in a createAgent loop", () => {
  it("refuses every traversal spelling, and no ToolMessage ever shows the secret", async () => {
    const { base, root } = world();
    const paths = [...refusedPaths(base).filter((path) => path.length < 20_000), ...LITERAL_PATHS];
    const calls = paths.map((path, index) => readCall("good", path, `read-${index}`));
    const { outputs, seen } = await runSkillsAgent({
      root,
      steps: [[load("good")], calls, [readCall("good", "references/guide.md", "control")]],
    });
    expect(outputs.find((output) => output.id === "load-good")?.status).not.toBe("error");
    // The control read works, so refusals below are not an artefact of a broken setup.
    expect(outputs.find((output) => output.id === "control")?.content).toContain("The guide.");
    for (const [index, path] of paths.entries()) {
      const output = outputs.find((candidate) => candidate.id === `read-${index}`);
      expect(output, `no result for ${JSON.stringify(path.slice(0, 40))}`).toBeDefined();
      expect(output!.status, `${JSON.stringify(path.slice(0, 40))} → ${output!.content.slice(0, 120)}`).toBe("error");
      expect(output!.content).not.toContain(SECRET);
    }
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain("root:x:0:0");
  });

  it("refuses read_skill_resource for a traversal skill_name (the skill is not loaded)", async () => {
    const { root } = world();
    const names = [
      "../good",
      "good/..",
      "../outside-skill",
      "..",
      "/good",
      "good\u0000",
      "\uff0e\uff0e\uff0fgood",
      "%2e%2e%2fgood",
    ];
    const calls = names.map((name, index) => readCall(name, "SKILL.md", `named-${index}`));
    const { outputs, seen } = await runSkillsAgent({ root, steps: [[load("good")], calls] });
    for (const [index] of names.entries()) {
      const output = outputs.find((candidate) => candidate.id === `named-${index}`)!;
      expect(output.status).toBe("error");
      expect(output.content).toMatch(/not loaded/);
    }
    expect(seen).not.toContain(OUTSIDE_BODY);
  });
});

describe("end to end: load_skill with traversal names", () => {
  it("answers 'not found' and reads no file outside the source", async () => {
    const { base, root } = world();
    const names = [
      "../outside-skill",
      "../../outside-skill",
      "outside-skill",
      `${base}/outside-skill`,
      "good/../../outside-skill",
      "good/../other",
      "..",
      ".",
      "%2e%2e%2foutside-skill",
      "..%2foutside-skill",
      "\u2025/outside-skill",
      "\uff0e\uff0e\uff0foutside-skill",
      "..\\outside-skill",
      "good\u0000",
      "__proto__",
      "constructor",
      "toString",
      "x".repeat(100_000),
    ];
    const calls = names.map((name, index) => load(name, `bad-${index}`));
    const { outputs, seen, result } = await runSkillsAgent({ root, steps: [calls] });
    for (const [index, name] of names.entries()) {
      const output = outputs.find((candidate) => candidate.id === `bad-${index}`)!;
      expect(output.status, JSON.stringify(name.slice(0, 40))).toBe("error");
      // A name longer than the tool's input schema allows is refused by it, before the engine.
      expect(output.content).toMatch(
        name.length > MAX_SKILL_NAME_CHARS ? /did not match expected schema/ : /not found/,
      );
    }
    expect(result.skillsLoaded).toEqual([]);
    expect(seen).not.toContain(OUTSIDE_BODY);
    expect(seen).not.toContain(SECRET);
  });
});
