import { describe, expect, it } from "vitest";
import { toolNameOf } from "./tool-name.js";

describe("toolNameOf", () => {
  it("names the tool before the parenthesis of a Claude Code pattern", () => {
    expect(toolNameOf("Bash(git:*)")).toBe("Bash");
    expect(toolNameOf("Bash(npm run test:*)")).toBe("Bash");
    expect(toolNameOf("Bash()")).toBe("Bash");
  });

  it("returns a plain entry as it is, trimmed and with its case kept", () => {
    expect(toolNameOf("Read")).toBe("Read");
    expect(toolNameOf("  python3 ")).toBe("python3");
    expect(toolNameOf("scripts/*.sh")).toBe("scripts/*.sh");
  });

  it("trims around the name and cuts at the first parenthesis only", () => {
    expect(toolNameOf(" Bash (make (x))")).toBe("Bash");
    expect(toolNameOf("(git:*)")).toBe("");
    expect(toolNameOf("")).toBe("");
  });
});
