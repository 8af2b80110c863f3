import { describe, expect, it } from "vitest";
import { withoutControlCharacters } from "./control-characters.js";

describe("withoutControlCharacters", () => {
  it("keeps tab, line feed and carriage return", () => {
    expect(withoutControlCharacters("a\tb\nc\r\nd")).toBe("a\tb\nc\r\nd");
  });

  it("removes the other C0 characters, DEL and the C1 range", () => {
    expect(withoutControlCharacters("\0\x01\x08\x0b\x0c\x0e\x1b[2J\x1f\x7fx\x80\x9f")).toBe("[2Jx");
  });

  it("leaves printable text outside the control ranges alone", () => {
    expect(withoutControlCharacters(" ~\xa0é 日 😀")).toBe(" ~\xa0é 日 😀");
    expect(withoutControlCharacters("")).toBe("");
  });

  it("removes every occurrence, not only the first", () => {
    expect(withoutControlCharacters("\x07a\x07b\x07")).toBe("ab");
  });
});
