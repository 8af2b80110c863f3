// `--help` of skillset and of each command, and `--version`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run-cli.js";
import { useCliRun } from "./helpers.js";

const { run } = useCliRun();
const { version: VERSION } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };

describe("help and version", () => {
  it.each([
    {
      name: "skillset",
      command: [],
      mentions: [
        "Usage: skillset [options] [command]",
        "--version",
        "--help",
        "validate",
        "list",
        "info",
        "create",
        "prompt",
      ],
    },
    {
      name: "skillset validate",
      command: ["validate"],
      mentions: ["Usage: skillset validate", "--recursive", "--json", "--allow-claude-code-fields"],
    },
    { name: "skillset list", command: ["list"], mentions: ["Usage: skillset list", "--recursive", "--json"] },
    { name: "skillset info", command: ["info"], mentions: ["Usage: skillset info", "<name>", "--recursive", "--json"] },
    {
      name: "skillset create",
      command: ["create"],
      mentions: ["Usage: skillset create", "<name>", "--dir <dir>", "--description <text>", "--resources <list>"],
    },
    {
      name: "skillset prompt",
      command: ["prompt"],
      mentions: ["Usage: skillset prompt", "--recursive", "--format <format>", "--tokens"],
    },
  ])("$name --help exits 0 and names its options", async ({ command, mentions }) => {
    const result = await run([...command, "--help"]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    for (const text of mentions) expect(result.stdout).toContain(text);
  });

  it("list --help gives the sources' default once, not a second `(default: [])`", async () => {
    const result = await run(["list", "--help"]);

    expect(result.code).toBe(0);
    expect(/\nArguments:\n[\s\S]*?\n\n/.exec(result.stdout)?.[0]).toBe(
      "\nArguments:\n" +
        "  sources             skills folders, npm:<package> (its skills), npm: (the\n" +
        '                      packages the project\'s package.json names in "skills") or\n' +
        "                      https://<site> (the skills it publishes at\n" +
        "                      /.well-known/agent-skills/), lowest precedence first\n" +
        "                      (default: ~/.claude/skills, ~/.agents/skills, then\n" +
        "                      .claude/skills, .agents/skills of the project: the nearest\n" +
        "                      folder up with .git or package.json)\n\n",
    );
  });

  it.each(["validate", "list", "info", "prompt", "search", "render", "mcp", "chat", "eval", "tune"])(
    "%s --help names one default per argument",
    async (command) => {
      const result = await run([command, "--help"]);

      expect(result.code).toBe(0);
      const argumentsSection = /\nArguments:\n([\s\S]*?)\n\n/.exec(result.stdout)![1]!;
      // One argument per entry: a line starting with two spaces and the argument's name.
      for (const entry of argumentsSection.split(/\n(?= {2}\S)/))
        expect(entry.match(/\(default:/g)?.length ?? 0, entry).toBeLessThanOrEqual(1);
      expect(result.stdout).not.toContain("(default: [])");
    },
  );

  it("--version prints the package.json version", async () => {
    const result = await run(["--version"]);

    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});
