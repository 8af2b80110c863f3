import { describe, expect, it } from "vitest";
import { createArgumentSubstitution } from "./instruction-arguments.js";

const DIR = "/skills/demo";

describe("createArgumentSubstitution", () => {
  it("without arguments, finds only the variables, so $1 in a skill's own text stays", () => {
    const { matcher } = createArgumentSubstitution({ skillDir: DIR, argumentNames: ["name"] });
    expect(matcher("$1", 0)).toBeUndefined();
    expect(matcher("$ARGUMENTS", 0)).toBeUndefined();
    expect(matcher("$name", 0)).toBeUndefined();
    expect(matcher("${SKILL_DIR}/x", 0)).toEqual({ placeholder: { kind: "variable", name: "skillDir" }, length: 12 });
  });

  it("with arguments, even empty ones, finds argument placeholders too", () => {
    const { matcher } = createArgumentSubstitution({ skillDir: DIR, arguments: "", argumentNames: ["name"] });
    expect(matcher("$1 x", 0)).toEqual({ placeholder: { kind: "argument", index: 1 }, length: 2 });
    expect(matcher("$name", 0)).toEqual({ placeholder: { kind: "argument", index: 0 }, length: 5 });
  });

  it("gives the whole string as typed, one argument split like a shell, or empty out of range", () => {
    const { valueOf } = createArgumentSubstitution({ skillDir: DIR, arguments: ` "my file"  b ` });
    expect(valueOf({ kind: "arguments" })).toBe(` "my file"  b `);
    expect(valueOf({ kind: "argument", index: 0 })).toBe("my file");
    expect(valueOf({ kind: "argument", index: 1 })).toBe("b");
    expect(valueOf({ kind: "argument", index: 2 })).toBe("");
  });

  it("gives the skill folder, and the session id or empty", () => {
    expect(createArgumentSubstitution({ skillDir: DIR }).valueOf({ kind: "variable", name: "skillDir" })).toBe(DIR);
    expect(createArgumentSubstitution({ skillDir: DIR }).valueOf({ kind: "variable", name: "sessionId" })).toBe("");
    expect(
      createArgumentSubstitution({ skillDir: DIR, sessionId: "t-1" }).valueOf({ kind: "variable", name: "sessionId" }),
    ).toBe("t-1");
  });

  it("appends arguments no placeholder took, after the text without its final line breaks", () => {
    expect(createArgumentSubstitution({ skillDir: DIR, arguments: "x y" }).finish("Do it.\n\r\n")).toBe(
      "Do it.\n\nARGUMENTS: x y",
    );
    expect(createArgumentSubstitution({ skillDir: DIR, arguments: "x y" }).finish("\n")).toBe("ARGUMENTS: x y");
    const onlyVariables = createArgumentSubstitution({ skillDir: DIR, arguments: "x" });
    onlyVariables.valueOf({ kind: "variable", name: "skillDir" });
    expect(onlyVariables.finish("Do it.")).toBe("Do it.\n\nARGUMENTS: x");
  });

  it("appends nothing when an argument placeholder was filled, or the arguments are blank or absent", () => {
    const used = createArgumentSubstitution({ skillDir: DIR, arguments: "x" });
    used.valueOf({ kind: "argument", index: 3 });
    expect(used.finish("Do it.\n")).toBe("Do it.\n");
    expect(createArgumentSubstitution({ skillDir: DIR, arguments: " \t" }).finish("Do it.\n")).toBe("Do it.\n");
    expect(createArgumentSubstitution({ skillDir: DIR }).finish("Do it.\n")).toBe("Do it.\n");
  });
});
