import { join, posix, win32, type PlatformPath } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInsideResolvedFolder } from "./folder-prefix.js";
import { isInsideFolder } from "./path-inside.js";

// What `path.relative` says about containment: inside when the way from folder to path neither
// climbs out (`..`) nor jumps to another root (an absolute answer, e.g. another drive).
function insideByRelative(paths: PlatformPath, folder: string, path: string): boolean {
  const rest = paths.relative(folder, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${paths.sep}`) && !paths.isAbsolute(rest));
}

describe("isInsideFolder on POSIX paths", () => {
  it.each([
    ["/", "/", true],
    ["/", "/etc/passwd", true],
    ["/a", "/a", true],
    ["/a", "/a/b", true],
    ["/a", "/a/b/c.md", true],
    ["/a", "/ab", false],
    ["/a", "/ab/c", false],
    ["/ab", "/a", false],
    ["/a", "/", false],
    ["/a/b", "/a", false],
    // Trailing and repeated separators go when resolving, on either side.
    ["/a/", "/a/b", true],
    ["/a//", "/a", true],
    ["/a", "/a/", true],
    ["/a", "//a//b", true],
    ["/a/", "/ab", false],
    // `..` and `.` segments are resolved first; names that only start with dots are names.
    ["/a", "/a/b/../c", true],
    ["/a", "/a/b/..", true],
    ["/a", "/a/..", false],
    ["/a", "/a/../b", false],
    ["/a", "/a/../ab/x", false],
    ["/a/b/..", "/a/x", true],
    ["/a/./b", "/a/b/c", true],
    ["/a", "/a/..hidden", true],
    ["/a", "/a/...", true],
    ["/", "/../..", true],
    // Case counts; a backslash is part of a POSIX name, not a separator.
    ["/A", "/a/b", false],
    ["/a", "/a\\b", false],
    ["/a", "/a/b\\..\\..", true],
    ["/a\\b", "/a/b", false],
  ])("folder %j, path %j: %j", (folder, path, inside) => {
    expect(isInsideFolder(folder, path, posix)).toBe(inside);
  });

  it("resolves relative paths against the working directory", () => {
    expect(isInsideFolder("skills", join(process.cwd(), "skills", "one"), posix)).toBe(true);
    expect(isInsideFolder(process.cwd(), "skills/../../elsewhere", posix)).toBe(false);
    expect(isInsideFolder(".", "skills", posix)).toBe(true);
  });

  it("judges with the platform's path syntax when none is given", () => {
    expect(isInsideFolder("/a", "/a/b")).toBe(true);
    expect(isInsideFolder("/a", "/ab")).toBe(false);
    expect(isInsideFolder("/", "/a")).toBe(true);
  });
});

describe("isInsideFolder on Windows paths (path.win32)", () => {
  it.each([
    ["C:\\", "C:\\", true],
    ["C:\\", "C:\\a", true],
    ["C:\\", "C:\\a\\b.txt", true],
    ["C:/", "C:\\a", true],
    ["C:\\a", "C:\\a", true],
    ["C:\\a", "C:\\a\\b", true],
    ["C:\\a", "C:/a/b", true],
    ["C:\\a\\", "C:\\a\\b", true],
    ["C:\\a", "C:\\ab", false],
    ["C:\\a", "C:\\", false],
    ["C:\\a", "C:\\a\\..\\b", false],
    ["C:\\a", "C:\\a\\b\\..\\c", true],
    ["C:\\", "D:\\a", false],
    ["C:\\a", "D:\\a\\b", false],
    // Spellings are compared exactly: another case is outside, even of the drive letter.
    ["C:\\a", "C:\\A\\b", false],
    ["C:\\", "c:\\a", false],
    // UNC shares: the share is the root, and its name is compared whole.
    ["\\\\server\\share", "\\\\server\\share\\x", true],
    ["\\\\server\\share\\", "\\\\server\\share", true],
    ["\\\\server\\share", "\\\\server\\sharex\\x", false],
    ["\\\\server\\share", "\\\\other\\share\\x", false],
  ])("folder %j, path %j: %j", (folder, path, inside) => {
    expect(isInsideFolder(folder, path, win32)).toBe(inside);
  });
});

describe("isInsideResolvedFolder", () => {
  it.each([
    ["/a", "/a", "/", true],
    ["/a", "/a/b", "/", true],
    ["/a", "/ab", "/", false],
    ["/", "/a", "/", true],
    ["/a/", "/a/b", "/", true],
    ["C:\\", "C:\\a", "\\", true],
    ["C:\\a", "C:\\ab", "\\", false],
    ["skills", "skills/one/SKILL.md", "/", true],
    ["skills", "skills-evil/one", "/", false],
    // Nothing is resolved: a `..` below the folder is text here, which is why callers refuse it first.
    ["/a", "/a/../b", "/", true],
    ["/a", "/a/", "/", true],
  ])("folder %j, path %j, separator %j: %j", (folder, path, separator, inside) => {
    expect(isInsideResolvedFolder(folder, path, separator)).toBe(inside);
  });
});

describe("isInsideFolder agrees with path.relative", () => {
  const segment = fc.constantFrom("a", "b", "ab", "a.b", "..", ".", "", "...", "..a");
  const segments = fc.array(segment, { maxLength: 5 });

  it("on POSIX paths, absolute or relative, with any separators and dot segments", () => {
    const path = fc
      .tuple(fc.boolean(), segments, fc.boolean())
      .map(([absolute, parts, trailing]) => `${absolute ? "/" : ""}${parts.join("/")}${trailing ? "/" : ""}`);
    fc.assert(
      fc.property(path, path, (folder, candidate) => {
        expect(isInsideFolder(folder, candidate, posix)).toBe(insideByRelative(posix, folder, candidate));
      }),
    );
  });

  it("on Windows paths, across drives, with either separator and dot segments", () => {
    // One spelling per letter: path.win32.relative ignores case, this function does not.
    const path = fc
      .tuple(fc.constantFrom("C:", "D:"), fc.constantFrom("\\", "/"), segments, fc.boolean())
      .map(([drive, separator, parts, trailing]) => `${drive}\\${parts.join(separator)}${trailing ? separator : ""}`);
    fc.assert(
      fc.property(path, path, (folder, candidate) => {
        expect(isInsideFolder(folder, candidate, win32)).toBe(insideByRelative(win32, folder, candidate));
      }),
    );
  });

  it("a path built below a folder from plain names is inside it, and the folder's parent is not", () => {
    const name = fc.stringMatching(/^[a-z.]{1,6}$/).filter((part) => part !== "." && part !== "..");
    const folder = fc.array(name, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join("/")}`);
    fc.assert(
      fc.property(folder, fc.array(name, { maxLength: 4 }), (base, below) => {
        expect(isInsideFolder(base, posix.join(base, ...below), posix)).toBe(true);
        expect(isInsideFolder(base, posix.dirname(base), posix)).toBe(false);
      }),
    );
  });
});
