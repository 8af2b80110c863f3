import { describe, expect, test } from "vitest";
import { checkEntrypoint, skillEntrypoint } from "./skill-entrypoint.js";

const cannot = (value: string, reason: string) => ({
  error: `metadata.entrypoint '${value}' cannot be used: ${reason}`,
});
const OUTSIDE = "'..' is not allowed; the module must be inside the skill's folder";
const ABSOLUTE = "absolute paths are not allowed; give a path relative to the skill's folder";
const URL = "it must be a path inside the skill's folder, not a URL";
const ENCODED = "percent-encoded paths are not allowed; write the file's name as it is";

describe("checkEntrypoint", () => {
  test.each<[string, ReturnType<typeof checkEntrypoint>]>([
    ["src/index.ts", { path: "src/index.ts" }],
    ["index.js", { path: "index.js" }],
    ["lib/tool.mjs", { path: "lib/tool.mjs" }],
    ["lib/tool.mts", { path: "lib/tool.mts" }],
    // A leading `./` (and `.` parts) are how people write relative paths; dropped.
    ["./src/index.ts", { path: "src/index.ts" }],
    ["src/./index.ts", { path: "src/index.ts" }],
    ["../other/index.ts", cannot("../other/index.ts", OUTSIDE)],
    ["src/../../index.ts", cannot("src/../../index.ts", OUTSIDE)],
    ["/etc/index.js", cannot("/etc/index.js", ABSOLUTE)],
    ["C:\\skills\\index.js", cannot("C:\\skills\\index.js", "use '/' to separate folders, not '\\'")],
    ["C:/skills/index.js", cannot("C:/skills/index.js", ABSOLUTE)],
    ["src\\index.ts", cannot("src\\index.ts", "use '/' to separate folders, not '\\'")],
    ["file:///etc/index.js", cannot("file:///etc/index.js", URL)],
    ["https://example.com/index.js", cannot("https://example.com/index.js", URL)],
    ["data:text/javascript,export{}", cannot("data:text/javascript,export{}", URL)],
    ["%2e%2e/index.js", cannot("%2e%2e/index.js", ENCODED)],
    ["src%2Findex.js", cannot("src%2Findex.js", ENCODED)],
    // Fullwidth dots and solidus are `../` in NFKC, which a file system or sandbox may apply.
    ["．．／index.js", cannot("．．／index.js", OUTSIDE)],
    ["src/\u202eindex.js", cannot("src/\u202eindex.js", "the path contains control or invisible characters")],
    ["src/index.ts\u0000.js", cannot("src/index.ts\u0000.js", "the path contains control or invisible characters")],
    ["", cannot("", "the path is empty or too long")],
    [".", cannot(".", "the path names the skill's folder itself, not a file")],
    ["src/", cannot("src/", "it names a folder; name the module's file")],
    [
      "src/index.cjs",
      cannot("src/index.cjs", "'.cjs' files cannot be imported; the module must end in .js, .mjs, .ts, .mts"),
    ],
    [
      "src/index.tsx",
      cannot("src/index.tsx", "'.tsx' files cannot be imported; the module must end in .js, .mjs, .ts, .mts"),
    ],
    [
      "src/index.TS",
      cannot("src/index.TS", "'.TS' files cannot be imported; the module must end in .js, .mjs, .ts, .mts"),
    ],
    [
      "scripts/run",
      cannot(
        "scripts/run",
        "files without an extension cannot be imported; the module must end in .js, .mjs, .ts, .mts",
      ),
    ],
    ["src/types.d.ts", cannot("src/types.d.ts", "a declaration file holds no code; name the module itself")],
  ])("%j", (value, expected) => {
    expect(checkEntrypoint(value)).toEqual(expected);
  });
});

describe("skillEntrypoint", () => {
  test("reads metadata.entrypoint; none when the skill names none", () => {
    expect(skillEntrypoint({ metadata: { entrypoint: "./index.js" } })).toEqual({ path: "index.js" });
    expect(skillEntrypoint({ metadata: { include_tools: "a b" } })).toBeUndefined();
  });

  test("an inherited key is not an entrypoint", () => {
    const metadata = Object.create({ entrypoint: "index.js" }) as Record<string, string>;
    expect(skillEntrypoint({ metadata })).toBeUndefined();
  });
});
