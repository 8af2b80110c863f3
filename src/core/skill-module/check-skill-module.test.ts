import { describe, expect, test } from "vitest";
import { SkillsetError } from "../../errors/skillset-error.js";
import { checkSkillModule, checkSkillModuleNow, type SkillModuleReport } from "./check-skill-module.js";

const skill = (entrypoint?: string): { metadata: Record<string, string> } => ({
  metadata: entrypoint === undefined ? {} : { entrypoint },
});
const bytes = (text: string) => new TextEncoder().encode(text);
const failing = (error: unknown) => () => Promise.reject(error);

describe("checkSkillModule", () => {
  test("no entrypoint: nothing to check", async () => {
    expect(await checkSkillModule(skill(), failing(new Error("never read")))).toBeUndefined();
  });

  test("a sound module: its exports, read at the checked path with the 1 MiB bound", async () => {
    const reads: Array<[string, number]> = [];
    const report = await checkSkillModule(skill("./lib/index.js"), async (path, max) => {
      reads.push([path, max]);
      return bytes("/** Twice x. */\nexport const twice = (x) => 2 * x;\n");
    });
    expect(reads).toEqual([["lib/index.js", 1024 * 1024]]);
    expect(report).toEqual({
      entrypoint: "./lib/index.js",
      path: "lib/index.js",
      exports: [{ name: "twice", kind: "function", signature: "twice(x)", summary: "Twice x." }],
    });
  });

  test.each<[string, string | undefined, (path: string, max: number) => Promise<Uint8Array>, SkillModuleReport]>([
    [
      "a path that breaks the rules is not read",
      "../x.js",
      failing(new Error("never read")),
      {
        entrypoint: "../x.js",
        problem: {
          code: "entrypoint-invalid",
          message:
            "metadata.entrypoint '../x.js' cannot be used: '..' is not allowed; the module must be inside the skill's folder",
        },
      },
    ],
    [
      "missing",
      "index.js",
      failing(new SkillsetError("not-found", "index.js does not exist in the skill's folder")),
      {
        entrypoint: "index.js",
        path: "index.js",
        problem: {
          code: "entrypoint-missing",
          message: "metadata.entrypoint: index.js does not exist in the skill's folder",
        },
      },
    ],
    [
      "a link out",
      "index.js",
      failing(new SkillsetError("outside-skill", "index.js resolves outside the skill's folder; refused")),
      {
        entrypoint: "index.js",
        path: "index.js",
        problem: {
          code: "entrypoint-outside",
          message: "metadata.entrypoint: index.js resolves outside the skill's folder; refused",
        },
      },
    ],
    [
      "too large for the reader",
      "index.js",
      failing(new SkillsetError("too-large", "index.js is larger than 1048576 bytes")),
      {
        entrypoint: "index.js",
        path: "index.js",
        problem: { code: "module-too-large", message: "metadata.entrypoint: index.js is larger than 1048576 bytes" },
      },
    ],
    [
      "not a regular file",
      "index.js",
      failing(new SkillsetError("not-a-file", "index.js is not a regular file")),
      {
        entrypoint: "index.js",
        path: "index.js",
        problem: { code: "entrypoint-unreadable", message: "metadata.entrypoint: index.js is not a regular file" },
      },
    ],
    [
      "not UTF-8",
      "index.js",
      async () => new Uint8Array([0x65, 0xff, 0xfe]),
      {
        entrypoint: "index.js",
        path: "index.js",
        problem: { code: "module-not-utf8", message: "metadata.entrypoint: index.js is not UTF-8 text" },
      },
    ],
    [
      "a syntax error",
      "index.ts",
      async () => bytes("export const a: = 1;\n"),
      {
        entrypoint: "index.ts",
        path: "index.ts",
        problem: { code: "module-syntax", message: "Syntax error in index.ts:1:17: Unexpected token" },
      },
    ],
  ])("%s", async (_, entrypoint, read, expected) => {
    expect(await checkSkillModule(skill(entrypoint), read)).toEqual(expected);
  });

  test("a source that cannot read files", async () => {
    expect(await checkSkillModule(skill("index.js"), undefined)).toEqual({
      entrypoint: "index.js",
      path: "index.js",
      problem: {
        code: "entrypoint-unreadable",
        message: "metadata.entrypoint: index.js cannot be read: this source does not read files",
      },
    });
  });

  test("checkSkillModuleNow: the same, with a reader that returns or throws", () => {
    expect(checkSkillModuleNow(skill("index.mjs"), () => bytes("export default 1;\n"))).toEqual({
      entrypoint: "index.mjs",
      path: "index.mjs",
      exports: [{ name: "default", kind: "value" }],
    });
    expect(
      checkSkillModuleNow(skill("index.mjs"), () => {
        throw new SkillsetError("not-found", "index.mjs does not exist in the skill's folder");
      }),
    ).toMatchObject({ problem: { code: "entrypoint-missing" } });
  });
});
