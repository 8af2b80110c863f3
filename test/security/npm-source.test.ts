// `npm:` sources name packages, never paths, and read a package only where Node would find it
// inside the project (or the workspace root that hoisted it): names that are paths, packages
// linked in from elsewhere, and skills folders or skills inside a package that link out are
// refused with a diagnostic, and nothing of them is listed or read.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNpmSource } from "../../src/node.js";
import { Sandbox, link, put, skillMd } from "./helpers.js";

const sandbox = new Sandbox();
afterEach(() => sandbox.cleanupAll());

const OUTSIDE = "OUTSIDE-NPM-SKILL-5b1e";

/** A project with one honest package, and a package with skills outside it. */
function world() {
  const base = sandbox.folder();
  const project = join(base, "project");
  put(project, "package.json", JSON.stringify({ name: "app", version: "1.0.0" }));
  put(project, "node_modules/honest/package.json", JSON.stringify({ name: "honest", version: "1.0.0" }));
  put(project, "node_modules/honest/skills/honest/SKILL.md", skillMd("honest"));
  const outside = join(base, "outside");
  put(outside, "pkg/package.json", JSON.stringify({ name: "outside-pkg", version: "6.6.6" }));
  put(outside, "pkg/skills/outside/SKILL.md", skillMd("outside", OUTSIDE));
  put(outside, "skills/outside/SKILL.md", skillMd("outside", OUTSIDE));
  return { base, project, outside };
}

async function scanOf(options: Parameters<typeof createNpmSource>[0]) {
  const source = createNpmSource({ watch: false, ...options });
  const scan = await source.scan();
  source.close?.();
  return {
    scan,
    codes: scan.diagnostics.map((diagnostic) => diagnostic.code),
    names: scan.skills.map((skill) => skill.name),
    text: JSON.stringify(scan),
  };
}

describe("npm: sources refuse what is not an installed package of the project", () => {
  it.each([
    "../outside/pkg",
    "../../outside",
    "/etc",
    "@scope/../../outside",
    "a/b/c",
    "./honest",
    "honest/skills",
    "",
    "@scope",
  ])("the name %j is no package: an error, nothing read", async (name) => {
    const { project } = world();
    const { scan, codes, text } = await scanOf({ packages: [name], cwd: project });
    expect(scan.skills).toEqual([]);
    expect(codes).toEqual(["invalid-package-name"]);
    expect(scan.diagnostics[0]!.message).toBe(
      `"npm:${name}" does not name an npm package (expected npm:<package> or npm:@scope/<package>)`,
    );
    expect(text).not.toContain(OUTSIDE);
  });

  it("a skills field entry that is a path is reported, not followed", async () => {
    const { project } = world();
    put(
      project,
      "package.json",
      JSON.stringify({ name: "app", skills: ["npm:../outside/pkg", "npm:honest", "file:../outside/pkg", 42] }),
    );
    const { scan, names, text } = await scanOf({ cwd: project });
    expect(names).toEqual(["honest"]);
    expect(scan.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `"skills" entry "npm:../outside/pkg" does not name an npm package`,
      `"skills" entry "file:../outside/pkg" is not an npm: source; skillset reads installed packages only (fetch other sources with npx skills experimental_sync)`,
      `"skills" entry 42 is not "npm:<package>" nor { "source": "npm:<package>", "skills": [names] }`,
    ]);
    expect(text).not.toContain(OUTSIDE);
  });

  it("a package linked in from outside the project (npm link, a global folder) is refused unless its folder is allowed", async () => {
    const { project, outside } = world();
    link(project, "node_modules/outside-pkg", join(outside, "pkg"));
    const refused = await scanOf({ packages: ["outside-pkg", "honest"], cwd: project });
    expect(refused.names).toEqual(["honest"]);
    expect(refused.scan.diagnostics.map(({ code, file, message }) => ({ code, file, message }))).toEqual([
      {
        code: "symlink-escape",
        file: join(project, "node_modules/outside-pkg"),
        message: `${join(project, "node_modules/outside-pkg")} is a symbolic link to ${join(outside, "pkg")}, outside the allowed folders; add that folder to allowedRoots (--allow-root) to read it`,
      },
    ]);
    expect(refused.text).not.toContain(OUTSIDE);

    const allowed = await scanOf({ packages: ["outside-pkg"], cwd: project, allowedRoots: [outside] });
    expect(allowed.names).toEqual(["outside"]);
    expect(allowed.scan.skills[0]!.package).toEqual({ name: "outside-pkg", version: "6.6.6" });
  });

  it("a package's skills folder that links out of the package is refused", async () => {
    const { project, outside } = world();
    put(project, "node_modules/sneaky/package.json", JSON.stringify({ name: "sneaky", version: "1.0.0" }));
    link(project, "node_modules/sneaky/skills", join(outside, "skills"));
    const { scan, names, codes, text } = await scanOf({ packages: ["sneaky"], cwd: project });
    expect(names).toEqual([]);
    expect(codes).toEqual(["symlink-escape"]);
    expect(scan.diagnostics[0]!.message).toBe(
      `${join(project, "node_modules/sneaky/skills")} is a symbolic link to ${join(outside, "skills")}, outside the package and the allowed folders`,
    );
    expect(text).not.toContain(OUTSIDE);
  });

  it("a skill folder inside a package that links out is skipped as in any local folder, and cannot be read", async () => {
    const { project, outside } = world();
    link(project, "node_modules/honest/skills/outside", join(outside, "skills/outside"));
    const source = createNpmSource({ packages: ["honest"], cwd: project, watch: false });
    const scan = await source.scan();
    expect(scan.skills.map((skill) => skill.name)).toEqual(["honest"]);
    expect(scan.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ["symlink-escape", join(project, "node_modules/honest/skills/outside")],
    ]);
    // Asking for a skill the scan did not list (a forged path) is refused, not read.
    await expect(
      source.readSkill({
        ...scan.skills[0]!,
        name: "outside",
        path: join(project, "node_modules/honest/skills/outside/SKILL.md"),
      }),
    ).rejects.toThrow(/is not a skill of npm:honest/);
    source.close?.();
  });
});
