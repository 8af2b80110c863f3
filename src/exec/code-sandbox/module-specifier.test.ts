import { expect, test } from "vitest";
import { resolveModuleSpecifier } from "./module-specifier.js";

test.each([
  // [importer, specifier, resolved]
  ["@/skills/x/lib/a.js", "./b.js", "@/skills/x/lib/b.js"],
  ["@/skills/x/lib/a.js", "../util/c.js", "@/skills/x/util/c.js"],
  ["@/skills/x/lib/a.js", "./././b.js", "@/skills/x/lib/b.js"],
  ["@/skills/x/lib/a.js", ".//deep//b.js", "@/skills/x/lib/deep/b.js"],
  ["@/skills/x/lib/a.js", "../../y/index.js", "@/skills/y/index.js"],
  ["@/skills/x/lib/a.js", "../../../etc/passwd", "@/etc/passwd"],
  ["@/skills/x/lib/a.js", "../../../../etc/passwd", "@/../etc/passwd"],
  ["@/skills/x/lib/a.js", "../../../../../etc/passwd", "@/../../etc/passwd"],
  ["@/skills/x/lib/a.js", "@/skills/y", "@/skills/y"],
  ["@/skills/x/lib/a.js", "@/skills/x/../../etc", "@/skills/x/../../etc"],
  ["@/skills/x/lib/a.js", "%2e%2e/secret.js", "%2e%2e/secret.js"],
  ["@/skills/x/lib/a.js", "./%2e%2e/secret.js", "@/skills/x/lib/%2e%2e/secret.js"],
  ["@/skills/x/lib/a.js", "node:fs", "node:fs"],
  [undefined, "./b.js", "./b.js"],
  [undefined, "../b.js", "../b.js"],
])("from %s, %s is %s", (importer, specifier, resolved) => {
  expect(resolveModuleSpecifier(importer, specifier)).toBe(resolved);
});
