import { describe, expect, it } from "vitest";
import { isCommandAllowed } from "./command-allow-list.js";

const allowed = (command: string, entries: string[]) => isCommandAllowed(command.split(" "), entries);

describe("isCommandAllowed: allowed-tools as a command allow-list", () => {
  it("'*' and Claude Code's bare 'Bash' allow any command", () => {
    expect(allowed("anything at all", ["*"])).toBe(true);
    expect(allowed("git push", ["Bash"])).toBe(true);
  });

  it("a program name allows that program with any arguments, and only by its name", () => {
    expect(allowed("python3 scripts/x.py --v", ["python3"])).toBe(true);
    expect(allowed("python scripts/x.py", ["python3"])).toBe(false);
    expect(allowed("bin/python3 x", ["python3"])).toBe(false);
    expect(allowed("bash scripts/run.sh", ["bash"])).toBe(true);
  });

  it("a path pattern allows programs at matching paths in the skill folder", () => {
    expect(allowed("scripts/run.sh a", ["scripts/*.sh"])).toBe(true);
    expect(allowed("./scripts/run.sh", ["scripts/*.sh"])).toBe(true);
    expect(allowed("scripts/run.py", ["scripts/*.sh"])).toBe(false);
    expect(allowed("scripts/sub/run.sh", ["scripts/*.sh"])).toBe(false);
    expect(allowed("scripts/anything", ["scripts/*"])).toBe(true);
    expect(allowed("bash scripts/run.sh", ["scripts/*.sh"])).toBe(false);
  });

  it("Bash(git:*) allows git with any arguments; a longer prefix must match word by word", () => {
    expect(allowed("git log --oneline", ["Bash(git:*)"])).toBe(true);
    expect(allowed("gitk", ["Bash(git:*)"])).toBe(false);
    expect(allowed("npm run test -- --watch", ["Bash(npm run test:*)"])).toBe(true);
    expect(allowed("npm run build", ["Bash(npm run test:*)"])).toBe(false);
    expect(allowed("make build", ["Bash(make build)"])).toBe(true);
    expect(allowed("make build extra", ["Bash(make build)"])).toBe(false);
  });

  it("entries naming other tools allow no command", () => {
    expect(allowed("read x", ["Read", "Grep", "WebFetch"])).toBe(false);
    expect(allowed("sh -c x", ["python3"])).toBe(false);
  });
});
