import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The README's AI SDK examples are these files, which npm run typecheck (AI SDK 6) and
// test/ai-sdk-7's tsconfig (AI SDK 7) compile: a change to one must reach the other.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

function asShown(path: string): string {
  const lines = read(path).split("\n");
  while (lines[0]!.startsWith("//")) lines.shift();
  return lines
    .filter((line) => !line.includes('from "./readme-example.js"'))
    .join("\n")
    .replace('"../../src/ai.js"', '"skillset/ai"')
    .trim();
}

describe("README: The Vercel AI SDK", () => {
  it("shows the examples that are typechecked, as they are", () => {
    const readme = read("../../README.md");
    const section = readme.slice(readme.indexOf("## The Vercel AI SDK\n"), readme.indexOf("\n## ", readme.indexOf("## The Vercel AI SDK\n") + 1));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((match) => match[1]!.trim());
    expect(blocks).toEqual([asShown("./readme-example.ts"), asShown("./readme-agent-example.ts")]);
  });
});
