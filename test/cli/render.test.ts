// `skillset render`: the built CLI prints exactly what the model receives for `/name args`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { skillFile, skillTree } from "../langchain/helpers.js";

const trees: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

describe("skillset render", () => {
  it("prints the invocation with arguments substituted, and the dynamic context as not run without --dynamic", async () => {
    const tree = skillTree({
      "fix/SKILL.md": skillFile(
        "fix",
        "Fix an issue.",
        "argument-hint: '[issue]'\nallowed-tools: echo\n",
        "Fix issue $0 ($ARGUMENTS).\nStatus: !`echo fine`",
      ),
    });
    trees.push(tree);
    const file = join(tree.root, "fix", "SKILL.md");
    const result = await cli("render", "fix", tree.root, "--args", '12 "two words"');
    expect(result).toEqual({
      code: 0,
      stdout:
        `<skill name="fix" path="${file}">\n---\nname: fix\ndescription: Fix an issue.\nargument-hint: '[issue]'\nallowed-tools: echo\n---\n\n` +
        'Fix issue 12 (12 "two words").\nStatus: [dynamic context not run: `echo fine` — dynamic context is off for this agent]\n\n</skill>\n' +
        'Recommended tools while this skill is active: echo\nThe user invoked this skill: /fix 12 "two words"\nFollow its instructions now.\n',
      stderr:
        "1 dynamic-context command (!`…`) was not run, as in an agent without dynamic context; to run it on this machine under the script rules, add --dynamic: " +
        `skillset render --args '12 "two words"' --dynamic fix ${tree.root}\n`,
    });
    // The command line the hint gives runs it.
    const dynamic = await cli("render", "--args", '12 "two words"', "--dynamic", "fix", tree.root);
    expect(dynamic.stdout).toContain('Fix issue 12 (12 "two words").\nStatus: fine\n');
    expect(dynamic.stderr).toBe("");
  });

  it("counts the commands not run, in ```! blocks too, and keeps --recursive in the hint", async () => {
    const tree = skillTree({
      "group/multi/SKILL.md": skillFile("multi", "Multi.", "", "A: !`echo a`\n\n```!\necho b\necho c\n```\n"),
    });
    trees.push(tree);
    const result = await cli("render", "multi", tree.root, "-r");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "3 dynamic-context commands (!`…`) were not run, as in an agent without dynamic context; to run them on this machine under the script rules, add --dynamic: " +
        `skillset render --recursive --dynamic multi ${tree.root}\n`,
    );
  });

  it("refuses a forbidden command under --dynamic and runs nothing", async () => {
    const tree = skillTree({ "bad/SKILL.md": skillFile("bad", "Bad.", "", "Now: !`touch pwned`") });
    trees.push(tree);
    const result = await cli("render", "bad", tree.root, "--dynamic");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Now: [dynamic context not run: `touch pwned` — refused: 'touch' is not allowed for skill 'bad' (allowed: scripts/*)]",
    );
    expect(existsSync(join(tree.root, "bad", "pwned"))).toBe(false);
  });

  it("says so on stderr for a skill users may not invoke, and shows what the model gets when it loads it", async () => {
    const tree = skillTree({
      "inner/SKILL.md": skillFile("inner", "Inner.", "user-invocable: false\n", "Inner steps."),
    });
    trees.push(tree);
    const result = await cli("render", "inner", tree.root);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "Skill 'inner' cannot be invoked by a user (user-invocable: false); showing what the model gets when it loads it.\n",
    );
    expect(result.stdout.endsWith("Inner steps.\n\n</skill>\n")).toBe(true);
  });

  it("for a skill skipped for broken YAML, gives the reason, exactly as info does", async () => {
    const tree = skillTree({
      "a/SKILL.md": skillFile("a"),
      "broken-yaml/SKILL.md": skillFile("broken-yaml", '"unclosed'),
    });
    trees.push(tree);
    const [render, info] = await Promise.all([
      cli("render", "broken-yaml", tree.root),
      cli("info", "broken-yaml", tree.root),
    ]);
    const reason = `${join(tree.root, "broken-yaml", "SKILL.md")}: error: Invalid YAML in frontmatter: Missing closing "quote at line 3, column 14`;
    expect(render).toEqual({
      code: 1,
      stdout: "",
      stderr: `skillset: Skill 'broken-yaml' was skipped: ${reason}. Available skills: a\n`,
    });
    expect(info).toEqual(render);
  });

  it("fails with exit 1 and names the available skills for an unknown name", async () => {
    const tree = skillTree({ "a/SKILL.md": skillFile("a") });
    trees.push(tree);
    const result = await cli("render", "nope", tree.root);
    expect(result).toEqual({ code: 1, stdout: "", stderr: "skillset: Skill 'nope' not found. Available skills: a\n" });
  });
});
