import { describe, expect, it } from "vitest";
import { createMemorySource } from "./memory-source.js";

describe("createMemorySource", () => {
  it("serves skills, files and changes from memory", async () => {
    const source = createMemorySource({
      files: { "/skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\nBody", "/skills/a/scripts/x.py": "print(1)" },
    });
    const first = await source.scan();
    expect(first.skills.map((skill) => skill.path)).toEqual(["/skills/a/SKILL.md"]);
    expect(await source.scan()).toBe(first);
    expect(await source.listFiles(first.skills[0]!, { maxDepth: 4, maxFiles: 10 })).toEqual({
      files: [{ path: "/skills/a/scripts/x.py", relativePath: "scripts/x.py", size: 8 }],
      truncated: false,
    });
    source.write("/skills/b/SKILL.md", "---\nname: b\n---\n");
    const second = await source.scan();
    expect(second.skills.map((skill) => skill.name)).toEqual(["a"]);
    expect(second.diagnostics).toEqual([
      expect.objectContaining({ file: "/skills/b/SKILL.md", code: "description-missing" }),
    ]);
    source.remove("/skills/a");
    expect((await source.scan()).skills).toEqual([]);
  });

  it("refuses paths with '..'", () => {
    expect(() => createMemorySource({ files: { "/skills/../x/SKILL.md": "" } })).toThrow("must not contain '..'");
  });
});
