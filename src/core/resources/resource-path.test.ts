import { describe, expect, it } from "vitest";
import { renderResourcePage } from "./read-resource.js";
import { checkResourcePath } from "./resource-path.js";

describe("checkResourcePath", () => {
  it("accepts relative paths and normalises harmless parts", () => {
    expect(checkResourcePath("references/guide.md")).toEqual({ ok: true, path: "references/guide.md" });
    expect(checkResourcePath("./scripts//run.py")).toEqual({ ok: true, path: "scripts/run.py" });
    expect(checkResourcePath("%2e%2e/secret")).toEqual({ ok: true, path: "%2e%2e/secret" });
  });

  it.each([
    ["../secret", "'..' is not allowed; resources must be inside the skill's folder"],
    ["a/../../b", "'..' is not allowed; resources must be inside the skill's folder"],
    ["/etc/passwd", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["C:/x", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["..\\x", "use '/' to separate folders, not '\\'"],
    ["\u2025/secret", "'..' is not allowed; resources must be inside the skill's folder"],
    ["\uff0e\uff0e/secret", "'..' is not allowed; resources must be inside the skill's folder"],
    ["\uff0fetc/passwd", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["a\0b", "the path contains control or invisible characters"],
    [".", "the path names the skill's folder itself, not a file"],
    ["", "the path is empty or too long"],
  ])("refuses %j", (path, reason) => {
    expect(checkResourcePath(path)).toEqual({ ok: false, reason });
  });

  // Found by the traversal property test: the path given was safe in every form, but dropping
  // `./` left a look-alike of `/` or of a drive letter at the start of the path returned.
  it.each([
    ["./\uff0f", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["./\uff0fetc/passwd", "absolute paths are not allowed; give a path relative to the skill's folder"],
    [".//\uff0fetc/passwd", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["././\uff0f\uff0fsecret", "absolute paths are not allowed; give a path relative to the skill's folder"],
    ["./\uff23\uff1a/x", "absolute paths are not allowed; give a path relative to the skill's folder"],
  ])("refuses %j, whose returned path would start with a look-alike", (path, reason) => {
    expect(checkResourcePath(path)).toEqual({ ok: false, reason });
  });

  it("keeps look-alikes that are harmless in every normal form", () => {
    expect(checkResourcePath("a/\uff0fb")).toEqual({ ok: true, path: "a/\uff0fb" });
    expect(checkResourcePath("./\u2026/x")).toEqual({ ok: true, path: "\u2026/x" });
  });
});

describe("renderResourcePage", () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it("pages text by lines and says how to get the next page", () => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    expect(renderResourcePage("r.md", encode(text), 0, 5)).toBe(
      "[r.md: lines 1-5 of 12; next offset 5]\nline 1\nline 2\nline 3\nline 4\nline 5",
    );
    expect(renderResourcePage("r.md", encode(text), 10, 5)).toBe("[r.md: lines 11-12 of 12]\nline 11\nline 12");
    expect(renderResourcePage("r.md", encode(text), 12, 5)).toBe(
      "Error: offset 12 is past the end of r.md (12 lines).",
    );
  });

  it("describes binary content instead of dumping it", () => {
    expect(renderResourcePage("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))).toBe(
      "logo.png is a binary file (7 bytes, looks like a PNG image); its content is not shown.",
    );
    expect(renderResourcePage("x.txt", new Uint8Array([0x61, 0xff, 0x62]))).toBe(
      "x.txt is a binary file (3 bytes); its content is not shown.",
    );
    expect(renderResourcePage("e.txt", new Uint8Array([]))).toBe("e.txt is empty.");
  });
});
