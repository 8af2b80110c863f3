import { describe, expect, it } from "vitest";
import { parseCommand } from "./parse-command.js";

describe("parseCommand", () => {
  it("splits on whitespace and keeps quoted arguments whole", () => {
    expect(parseCommand(`python3  scripts/run.py "two words" 'single $ quoted' --flag=x`)).toEqual({
      ok: true,
      argv: ["python3", "scripts/run.py", "two words", "single $ quoted", "--flag=x"],
    });
    expect(parseCommand(`echo ''`)).toEqual({ ok: true, argv: ["echo", ""] });
    expect(parseCommand(`echo a"b c"'d'`)).toEqual({ ok: true, argv: ["echo", "ab cd"] });
  });

  it.each([
    ["ls; rm -rf x", "';' (command separator)"],
    ["ls && rm x", "'&' (background or '&&')"],
    ["cat a | sh", "'|' (pipe or '||')"],
    ["echo $(id)", "'$' (variable or command substitution)"],
    ["echo `id`", "backticks (command substitution)"],
    ["echo $HOME", "'$' (variable or command substitution)"],
    ["echo > out", "'>' (redirection)"],
    ["cat < in", "'<' (redirection)"],
    ["rm *.csv", "'*' (globbing)"],
    ["echo a\nrm b", "a line break"],
  ])("refuses shell syntax: %j", (command, named) => {
    expect(parseCommand(command)).toEqual({
      ok: false,
      reason: expect.stringContaining(`shell syntax is not supported: ${named}`),
    });
  });

  it("refuses substitutions inside double quotes but not inside single quotes", () => {
    expect(parseCommand(`echo "$(id)"`).ok).toBe(false);
    expect(parseCommand(`echo '$(id)'`)).toEqual({ ok: true, argv: ["echo", "$(id)"] });
  });

  it.each([
    ["-rf", "the program name '-rf' starts with '-'"],
    ["/bin/sh -c x", "argument '/bin/sh' is an absolute path; scripts run inside the skill's folder"],
    ["cat ../secret", "argument '../secret' contains '..'; scripts run inside the skill's folder"],
    ["cat ~/.ssh/id_rsa", "argument '~/.ssh/id_rsa' starts with '~'; scripts run inside the skill's folder"],
    ["tool --out=/etc/x", "argument '--out=/etc/x' is an absolute path; scripts run inside the skill's folder"],
    ["cat ‥/secret", "argument '‥/secret' contains '..'; scripts run inside the skill's folder"],
    ["echo 'open", "unterminated single quote"],
    ["   ", "the command is empty"],
    ["echo a\\ b", "backslashes are not supported; quote the argument instead"],
    ["echo \u0007", "it contains control characters"],
  ])("refuses %j", (command, reason) => {
    expect(parseCommand(command)).toEqual({ ok: false, reason });
  });
});
