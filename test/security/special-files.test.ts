// Decision 11: never block on special files, cap sizes. FIFOs, devices behind links, sockets,
// folders named SKILL.md, a 1 GB sparse SKILL.md; and binary or invalid UTF-8 content, which is
// described, not dumped.
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { renderResourcePage } from "../../src/core/resources/read-resource.js";
import { createLocalSource, validateSkillDirectory } from "../../src/node.js";
import { listSkillFiles } from "../../src/sources/skill-folder-files.js";
import { readContainedFile } from "../../src/sources/local-source.js";
import { load } from "../langchain/helpers.js";
import {
  Sandbox,
  controlCharacters,
  fifoRescuer,
  link,
  mkfifo,
  put,
  readCall,
  runSkillsAgent,
  skillMd,
  timed,
} from "./helpers.js";

const sandbox = new Sandbox();
const stoppers: Array<() => void> = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0)) stop();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  sandbox.cleanupAll();
});

/** A FIFO at `path`, with a rescuer that unblocks any reader after 4 s (so a regression is slow, not hung). */
function fifo(path: string): string {
  mkfifo(path);
  stoppers.push(fifoRescuer(path));
  return path;
}

/** A sparse file: `head` followed by zeros up to `size` bytes. */
function sparse(path: string, size: number, head = ""): string {
  put(path.slice(0, path.lastIndexOf("/")), path.slice(path.lastIndexOf("/") + 1), "");
  const fd = openSync(path, "r+");
  try {
    if (head) writeSync(fd, head);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return path;
}

async function scan(root: string, options: { allowedRoots?: string[] } = {}) {
  const source = createLocalSource({ path: root, watch: false, ...options });
  try {
    return await timed(() => source.scan());
  } finally {
    source.close?.();
  }
}

const GIB = 1024 * 1024 * 1024;

describe("a FIFO named SKILL.md", () => {
  it("discovery reports it as not a regular file without blocking, and still finds the other skills", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    const file = fifo(`${root}/piped/SKILL.md`);
    const { value, ms } = await scan(root);
    expect(ms).toBeLessThan(2000);
    expect(value.skills.map((skill) => skill.name)).toEqual(["good"]);
    const diagnostic = value.diagnostics.find((candidate) => candidate.file === file);
    expect(diagnostic?.severity).toBe("error");
    expect(diagnostic?.message).toContain(file);
    expect(diagnostic?.message).toMatch(/not a regular file/);
  });

  it("validateSkillDirectory reports it without blocking (the folder, and the FIFO path itself)", async () => {
    const root = sandbox.folder();
    const file = fifo(`${root}/piped/SKILL.md`);
    const folder = await timed(() => validateSkillDirectory(`${root}/piped`));
    expect(folder.ms).toBeLessThan(2000);
    expect(folder.value.valid).toBe(false);
    expect(folder.value.errors.join("\n")).toContain(file);
    expect(folder.value.errors.join("\n")).toMatch(/not a regular file/);
    const direct = await timed(() => validateSkillDirectory(file));
    expect(direct.ms).toBeLessThan(2000);
    expect(direct.value.valid).toBe(false);
  });
});

describe("a FIFO as a resource", () => {
  it("is not listed, readContainedFile refuses it, and read_skill_resource answers without blocking", async () => {
    const root = sandbox.folder();
    const skill = `${root}/good`;
    put(skill, "SKILL.md", skillMd("good"));
    put(skill, "references/guide.md", "guide\n");
    fifo(`${skill}/references/pipe.md`);
    link(skill, "references/pipe-link.md", "pipe.md");
    expect(listSkillFiles(skill, { maxDepth: 4, maxFiles: 100 }).files.map((file) => file.relativePath)).toEqual([
      "references/guide.md",
    ]);
    const direct = await timed(() => {
      try {
        readContainedFile(skill, "references/pipe.md", 1024);
        return "read";
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(direct.ms).toBeLessThan(2000);
    expect(direct.value).toMatch(/references\/pipe\.md is not a regular file/);
    const run = await timed(() =>
      runSkillsAgent({
        root,
        steps: [
          [load("good")],
          [readCall("good", "references/pipe.md", "pipe"), readCall("good", "references/pipe-link.md", "pipe-link")],
        ],
      }),
    );
    expect(run.ms).toBeLessThan(3500);
    for (const id of ["pipe", "pipe-link"]) {
      const output = run.value.outputs.find((candidate) => candidate.id === id)!;
      expect(output.status).toBe("error");
      expect(output.content).toMatch(/not a regular file/);
    }
  });
});

describe("devices behind symlinks", () => {
  it("discovery refuses SKILL.md -> /dev/zero (outside), and even when /dev is an allowed root it does not read forever", async () => {
    const root = sandbox.folder();
    const zero = link(root, "zero/SKILL.md", "/dev/zero");
    const urandom = link(root, "random/SKILL.md", "/dev/urandom");
    const refused = await scan(root);
    expect(refused.ms).toBeLessThan(2000);
    expect(refused.value.diagnostics.find((diagnostic) => diagnostic.file === zero)?.code).toBe("symlink-escape");
    const before = process.memoryUsage().rss;
    const allowed = await scan(root, { allowedRoots: [root, "/dev"] });
    expect(allowed.ms).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(allowed.value.skills).toEqual([]);
    for (const file of [zero, urandom]) {
      const diagnostic = allowed.value.diagnostics.find((candidate) => candidate.file === file);
      expect(diagnostic?.severity, file).toBe("error");
      expect(diagnostic?.message).toMatch(/not a regular file/);
    }
  });

  it("validateSkillDirectory (which follows links) refuses SKILL.md -> /dev/zero quickly", async () => {
    const root = sandbox.folder();
    link(root, "zero/SKILL.md", "/dev/zero");
    const { value, ms } = await timed(() => validateSkillDirectory(`${root}/zero`));
    expect(ms).toBeLessThan(2000);
    expect(value.valid).toBe(false);
    // The message names the link's target (/dev/zero); the report's path names the folder.
    expect(value.errors[0]).toMatch(/(SKILL\.md|\/dev\/zero) is not a regular file/);
    expect(value.path).toBe(`${root}/zero`);
  });

  it("read_skill_resource refuses a resource link to /dev/zero", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    link(root, "good/references/zero.bin", "/dev/zero");
    const { value, ms } = await timed(() =>
      runSkillsAgent({ root, steps: [[load("good")], [readCall("good", "references/zero.bin", "zero")]] }),
    );
    expect(ms).toBeLessThan(3000);
    expect(value.outputs.find((output) => output.id === "zero")!.status).toBe("error");
  });
});

describe("sockets and folders named SKILL.md", () => {
  it("discovery and validation report a socket and a folder named SKILL.md", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    put(root, "folder/SKILL.md/inner.txt", "x");
    const socketPath = `${root}/socket/SKILL.md`;
    put(root, "socket/.keep", "");
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const { value, ms } = await scan(root);
    expect(ms).toBeLessThan(2000);
    expect(value.skills.map((skill) => skill.name)).toEqual(["good"]);
    for (const file of [`${root}/folder/SKILL.md`, socketPath]) {
      const diagnostic = value.diagnostics.find((candidate) => candidate.file === file);
      expect(diagnostic?.severity, file).toBe("error");
      expect(diagnostic?.message).toContain(file);
    }
    for (const folder of [`${root}/folder`, `${root}/socket`]) {
      const report = validateSkillDirectory(folder);
      expect(report.valid, folder).toBe(false);
      expect(report.errors[0]).toContain("SKILL.md");
    }
  });
});

describe("a 1 GB sparse SKILL.md", () => {
  it("discovery refuses it by size, naming the file, in bounded time and memory", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    const file = sparse(`${root}/huge/SKILL.md`, GIB);
    const before = process.memoryUsage().rss;
    const { value, ms } = await scan(root);
    expect(ms).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(value.skills.map((skill) => skill.name)).toEqual(["good"]);
    const diagnostic = value.diagnostics.find((candidate) => candidate.file === file);
    expect(diagnostic?.code).toBe("too-large");
    expect(diagnostic?.message).toContain(file);
  });

  it("validateSkillDirectory refuses it by size", async () => {
    const root = sandbox.folder();
    const file = sparse(`${root}/huge/SKILL.md`, GIB, skillMd("huge"));
    const before = process.memoryUsage().rss;
    const { value, ms } = await timed(() => validateSkillDirectory(`${root}/huge`));
    expect(ms).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(value.valid).toBe(false);
    expect(value.errors[0]).toContain(file);
    expect(value.errors[0]).toMatch(/maximum size/);
  });

  it("with a valid frontmatter it is still skipped at discovery, naming the file, so load_skill never reads it", async () => {
    const root = sandbox.folder();
    const file = sparse(`${root}/huge/SKILL.md`, GIB, skillMd("huge"));
    const before = process.memoryUsage().rss;
    const { value: scanned } = await scan(root);
    expect(scanned.skills).toEqual([]);
    expect(scanned.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([["too-large", file]]);
    const { value, ms } = await timed(() => runSkillsAgent({ root, steps: [[load("huge")]] }));
    expect(ms).toBeLessThan(4000);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const output = value.outputs.find((candidate) => candidate.id === "load-huge")!;
    expect(output.status).toBe("error");
    expect(output.content).toMatch(/'huge' not found/);
  });

  it("an unclosed frontmatter just under the size cap is refused in bounded time", async () => {
    const root = sandbox.folder();
    const file = put(root, "long/SKILL.md", `---\nname: long\ndescription: ${"a".repeat(10 * 1024 * 1024 - 64)}\n`);
    const { value, ms } = await scan(root);
    expect(ms).toBeLessThan(3000);
    expect(value.diagnostics.find((diagnostic) => diagnostic.file === file)?.message).toMatch(/not properly closed/);
  });

  it("read_skill_resource refuses a 1 GB sparse resource", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    sparse(`${root}/good/assets/huge.bin`, GIB);
    const { value, ms } = await timed(() =>
      runSkillsAgent({ root, steps: [[load("good")], [readCall("good", "assets/huge.bin", "huge")]] }),
    );
    expect(ms).toBeLessThan(4000);
    const output = value.outputs.find((candidate) => candidate.id === "huge")!;
    expect(output.status).toBe("error");
    expect(output.content).toMatch(/larger than/);
  });
});

describe("binary content and invalid UTF-8", () => {
  const INVALID = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]);

  it("a SKILL.md with invalid UTF-8 in its frontmatter is skipped with a diagnostic that names the file", async () => {
    const root = sandbox.folder();
    const file = put(
      root,
      "bad/SKILL.md",
      Buffer.concat([Buffer.from("---\nname: bad\ndescription: "), INVALID, Buffer.from("\n---\nbody\n")]),
    );
    const { value } = await scan(root);
    expect(value.skills).toEqual([]);
    const diagnostic = value.diagnostics.find((candidate) => candidate.file === file)!;
    expect(diagnostic.code).toBe("not-utf8");
    expect(diagnostic.message).toContain(file);
    expect(validateSkillDirectory(`${root}/bad`).errors[0]).toMatch(/not valid UTF-8/);
  });

  it("a SKILL.md whose frontmatter is a binary blob (PNG header) is skipped with a diagnostic", async () => {
    const root = sandbox.folder();
    const file = put(
      root,
      "png/SKILL.md",
      Buffer.concat([
        Buffer.from("---\nname: png\ndescription: "),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
        Buffer.from("\n---\n"),
      ]),
    );
    const { value } = await scan(root);
    expect(value.skills).toEqual([]);
    expect(value.diagnostics.find((diagnostic) => diagnostic.file === file)?.severity).toBe("error");
  });

  // Found by this suite (fixed): control characters in a description are removed, with a warning.
  it("a SKILL.md with NUL or ESC bytes in its description is skipped, or loads without them", async () => {
    const root = sandbox.folder();
    put(root, "nul/SKILL.md", "---\nname: nul\ndescription: a\u0000b\n---\nbody\n");
    put(root, "esc/SKILL.md", "---\nname: esc\ndescription: clear \u001b[2J\u001b]0;title\u0007 done\n---\nbody\n");
    const { value } = await scan(root);
    for (const skill of value.skills) expect(controlCharacters(skill.description), skill.name).toEqual([]);
  });

  it("a SKILL.md whose body is not UTF-8 is skipped at discovery, naming the file, and never dumped", async () => {
    const root = sandbox.folder();
    const file = put(
      root,
      "body/SKILL.md",
      Buffer.concat([Buffer.from(skillMd("body", "Valid head.", "", "BODY-MARKER-11")), INVALID]),
    );
    const { value } = await scan(root);
    expect(value.skills).toEqual([]);
    expect(value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      ["not-utf8", `${file} is not valid UTF-8`],
    ]);
    const { outputs, seen } = await runSkillsAgent({ root, steps: [[load("body")]] });
    const output = outputs.find((candidate) => candidate.id === "load-body")!;
    expect(output.status).toBe("error");
    expect(output.content).toMatch(/'body' not found/);
    expect(seen).not.toContain("BODY-MARKER-11");
  });

  it("read_skill_resource describes binary resources (PNG as an image) instead of dumping them", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from("IHDR-PNG-PAYLOAD"),
      Buffer.alloc(64),
    ]);
    put(root, "good/assets/logo.png", png);
    put(
      root,
      "good/assets/photo.jpg",
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("JPEG-PAYLOAD")]),
    );
    put(root, "good/assets/blob.bin", Buffer.concat([Buffer.from("BLOB-PAYLOAD"), INVALID]));
    put(root, "good/assets/utf16.txt", Buffer.from("\ufeffUTF16-PAYLOAD", "utf16le"));
    put(root, "good/assets/late-invalid.txt", Buffer.concat([Buffer.from("LATE-PAYLOAD\n".repeat(2000)), INVALID]));
    const ids = ["logo.png", "photo.jpg", "blob.bin", "utf16.txt", "late-invalid.txt"];
    const { outputs, seen } = await runSkillsAgent({
      root,
      steps: [[load("good")], ids.map((file) => readCall("good", `assets/${file}`, file))],
    });
    const text = (id: string) => outputs.find((output) => output.id === id)!.content;
    expect(text("logo.png")).toMatch(/binary file \(\d+ bytes, looks like a PNG image\)/);
    expect(text("photo.jpg")).toMatch(/JPEG image/);
    for (const id of ids) expect(text(id), id).toMatch(/is a binary file/);
    for (const payload of ["IHDR-PNG-PAYLOAD", "JPEG-PAYLOAD", "BLOB-PAYLOAD", "LATE-PAYLOAD", "\ufffd"])
      expect(seen).not.toContain(payload);
  });

  // Found by this suite (fixed): a NUL byte anywhere makes a resource binary.
  it("a text resource with a NUL byte after the first 8 KiB is described, not dumped with its NULs", () => {
    const bytes = Buffer.concat([Buffer.from("line\n".repeat(2000)), Buffer.from([0]), Buffer.from("tail\n")]);
    const page = renderResourcePage("assets/late-nul.txt", bytes, 0, 5000);
    expect(page).not.toContain("\u0000");
  });

  it("a single 2 MB line is cut, and a resource over 10 MiB is refused", async () => {
    const root = sandbox.folder();
    put(root, "good/SKILL.md", skillMd("good"));
    put(root, "good/references/one-line.txt", "x".repeat(2 * 1024 * 1024));
    put(root, "good/references/too-big.txt", "y".repeat(10 * 1024 * 1024 + 1));
    const { outputs } = await runSkillsAgent({
      root,
      steps: [
        [load("good")],
        [readCall("good", "references/one-line.txt", "line"), readCall("good", "references/too-big.txt", "big")],
      ],
    });
    const line = outputs.find((output) => output.id === "line")!;
    expect(line.content.length).toBeLessThan(60_000);
    expect(line.content).toMatch(/line cut/);
    const big = outputs.find((output) => output.id === "big")!;
    expect(big.status).toBe("error");
    expect(big.content).toMatch(/larger than/);
  });
});
