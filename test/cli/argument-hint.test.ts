// Claude Code's argument-hint as its documentation writes it (`argument-hint: [file]`): info and
// list load it with a warning, validate keeps the reference's error unless told to accept it.
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  fields,
  parseJson,
  useCliRun,
  writeSkill,
  type InfoJson,
  type ListJson,
  type ValidateJson,
} from "./helpers.js";

const { tempDir, run } = useCliRun();

describe("argument-hint: [file] and argument-hint: [pr-number] [priority]", () => {
  const hintWarning = (hint: string) =>
    `'argument-hint: ${hint}' was read as the text '${hint}'; YAML reads it as a list or not at all, so quote it: argument-hint: "${hint}"`;

  it.each(["[file]", "[pr-number] [priority]"])(
    "`argument-hint: %s` loads with the text written and a warning (info, list)",
    async (hint) => {
      const dir = tempDir();
      const skill = writeSkill(dir, "hinted", [...fields("hinted", "Takes arguments."), `argument-hint: ${hint}`]);

      const [info, human, listed] = await Promise.all([
        run(["info", "hinted", dir, "--json"]),
        run(["info", "hinted", dir]),
        run(["list", "--json", dir]),
      ]);

      expect(info.code).toBe(0);
      const report = parseJson<InfoJson & { skill: { argumentHint?: string } }>(info.stdout);
      expect(report.skill.argumentHint).toBe(hint);
      expect(report.diagnostics).toEqual([
        {
          severity: "warning",
          code: "argument-hint-text",
          file: path.join(skill, "SKILL.md"),
          source: `local:${dir}`,
          message: hintWarning(hint),
        },
      ]);
      expect(human.stdout).toContain(`Argument hint:    ${hint}\n`);
      expect(parseJson<ListJson>(listed.stdout).skills.map((row) => row.status)).toEqual(["warning"]);
    },
  );

  it.each(["[file]", "[pr-number] [priority]"])(
    "validate keeps the reference's error for `argument-hint: %s`; --allow-claude-code-fields accepts it with warnings",
    async (hint) => {
      const skill = writeSkill(tempDir(), "hinted", [
        ...fields("hinted", "Takes arguments."),
        `argument-hint: ${hint}`,
      ]);

      const [strict, allowed] = await Promise.all([
        run(["validate", "--json", skill]),
        run(["validate", "--json", "--allow-claude-code-fields", skill]),
      ]);

      expect(strict.code).toBe(1);
      expect(parseJson<ValidateJson>(strict.stdout).skills[0]!.errors).toEqual([
        expect.stringMatching(/^Invalid YAML in frontmatter: /),
      ]);
      expect(allowed.code).toBe(0);
      expect(parseJson<ValidateJson>(allowed.stdout)).toEqual({
        skills: [
          {
            path: skill,
            name: "hinted",
            valid: true,
            errors: [],
            warnings: [
              hintWarning(hint),
              "Claude Code fields accepted: argument-hint. Other Agent Skills clients ignore or reject them.",
            ],
          },
        ],
        valid: true,
      });
    },
  );
});
