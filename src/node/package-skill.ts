import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, resolve, sep } from "node:path";
import { zipSync, type Zippable } from "fflate";
import { SkillsetError } from "../errors/skillset-error.js";
import { compareCodePoints } from "../core/text/python-text.js";
import type { SkillValidationOptions } from "../core/skill-file/validate-skill.js";
import { isInsideFolder } from "../fs/path-inside.js";
import { validateSkillDirectory } from "./validate-skill-directory.js";

/** A skill packed for upload (Claude.ai, the Claude API): a zip whose one top-level folder is the skill's. */
export interface PackagedSkill {
  /** The skill's name, which is also its folder's name and the zip's top-level folder. */
  name: string;
  /** The skill folder packed, absolute. */
  directory: string;
  /** The zip file's bytes. */
  bytes: Uint8Array;
  /** The entries, in the order written: `name/SKILL.md`, `name/scripts/run.py`, … */
  entries: string[];
}

/** Options of {@link packageSkill}. */
export type PackageSkillOptions = Omit<SkillValidationOptions, "directoryName">;

// 1980-01-01 00:00, the earliest time a zip entry can hold. Built from local-time fields because
// zip writers store local time: the entries then say 1980-01-01 00:00 in every time zone.
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);
// "Made by Unix", so the upper 16 bits of the external attributes are a file mode unzip applies.
const UNIX = 3;
const REGULAR_FILE = 0o100000;

// Left out as skill-creator's package_skill.py leaves them out: caches and installs anywhere, and
// the skill's own evals (`evals/eval_queries.json` of `skillset eval`) at its root.
const SKIPPED_FOLDERS = new Set(["__pycache__", "node_modules"]);
const SKIPPED_ROOT_FOLDERS = new Set(["evals"]);
const isSkippedFile = (name: string) => name === ".DS_Store" || name.endsWith(".pyc");

/**
 * Packs a skill folder as Anthropic's skill-creator (`package_skill.py`) does: every file below
 * the folder, under the folder's name, but `__pycache__` and `node_modules` folders, `.pyc` and
 * `.DS_Store` files, and the `evals` folder at the skill's root. The skill is validated first; an invalid one is refused
 * with the validator's messages (`invalid-skill`). The bytes depend only on the files' paths,
 * contents and executable bits: entries sorted, times fixed, modes 0644 or 0755.
 *
 * Nothing outside the folder goes in. A symbolic link to a file inside the folder is packed as
 * a copy of that file; a link that leads outside, dangles or names a folder is refused
 * (`outside-skill`, `symlink-dangling`, `symlinked-folder`), as is anything that is not a
 * regular file or folder (`special-file`): the error names the path. So is a `.zip` or `.skill`
 * inside (`nested-archive`), which Claude.ai refuses.
 */
export function packageSkill(directory: string, options: PackageSkillOptions = {}): PackagedSkill {
  const report = validateSkillDirectory(directory, options);
  if (!report.valid) {
    throw new SkillsetError(
      "invalid-skill",
      `${report.path} is not a valid skill, so it was not packaged:\n${report.errors.map((error) => `  ${error}`).join("\n")}`,
    );
  }
  const folder = resolve(report.path);
  const base = realpathSync(folder);
  const name = basename(folder);
  const files: Zippable = {};
  const entries: string[] = [];
  for (const file of packedFiles(folder, base)) {
    if (/\.(zip|skill)$/i.test(file.relativePath)) {
      throw new SkillsetError(
        "nested-archive",
        `${file.relativePath} is a zip inside the skill folder, and Claude.ai refuses a skill zip that holds another ("Zip cannot contain nested zip files"): unpack it into the folder or remove it`,
      );
    }
    const entry = `${name}/${file.relativePath}`;
    const mode = file.stat.mode & 0o100 ? 0o755 : 0o644;
    files[entry] = [
      readFileSync(file.realPath),
      { mtime: FIXED_TIME, os: UNIX, attrs: ((REGULAR_FILE | mode) << 16) >>> 0 },
    ];
    entries.push(entry);
  }
  return { name, directory: folder, bytes: zipSync(files, { level: 9 }), entries };
}

interface PackedFile {
  relativePath: string;
  /** Where the bytes are read from: the file itself, or a link's target inside the folder. */
  realPath: string;
  stat: Stats;
}

// Every file below `folder`, depth first, names in code-point order at each level.
function packedFiles(folder: string, base: string, prefix = ""): PackedFile[] {
  const files: PackedFile[] = [];
  for (const name of readdirSync(folder).sort(compareCodePoints)) {
    const path = `${folder}${sep}${name}`;
    const relativePath = prefix ? `${prefix}/${name}` : name;
    const link = lstatSync(path);
    if (
      link.isDirectory()
        ? SKIPPED_FOLDERS.has(name) || (prefix === "" && SKIPPED_ROOT_FOLDERS.has(name))
        : isSkippedFile(name)
    )
      continue;
    if (link.isDirectory()) {
      files.push(...packedFiles(path, base, relativePath));
    } else if (link.isFile()) {
      files.push({ relativePath, realPath: path, stat: link });
    } else if (link.isSymbolicLink()) {
      files.push(followLink(path, relativePath, base));
    } else {
      throw new SkillsetError(
        "special-file",
        `${relativePath} is not a regular file (a device, FIFO or socket); remove it from the skill folder to package it`,
      );
    }
  }
  return files;
}

function followLink(path: string, relativePath: string, base: string): PackedFile {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    throw new SkillsetError(
      "symlink-dangling",
      `${relativePath} is a symbolic link that leads nowhere (its target is missing, or a loop); remove it or replace it with a file`,
    );
  }
  if (target === base) throw symlinkedFolder(relativePath);
  if (!isInsideFolder(base, target)) {
    throw new SkillsetError(
      "outside-skill",
      `${relativePath} is a symbolic link to ${target}, outside the skill folder; packages hold only the skill's own files: copy the file into the folder instead`,
    );
  }
  const stat = statSync(target);
  if (stat.isDirectory()) throw symlinkedFolder(relativePath);
  if (!stat.isFile())
    throw new SkillsetError(
      "special-file",
      `${relativePath} leads to something that is not a regular file; remove it from the skill folder to package it`,
    );
  return { relativePath, realPath: target, stat };
}

// Links to folders inside could lead back to their own parents; a copy says what is meant.
function symlinkedFolder(relativePath: string): SkillsetError {
  return new SkillsetError(
    "symlinked-folder",
    `${relativePath} is a symbolic link to a folder; packages do not follow links to folders: make it a real folder or remove it`,
  );
}
