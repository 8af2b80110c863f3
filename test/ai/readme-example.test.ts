import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The AI SDK page's first two examples (docs/ai-sdk.md) are these files, which npm run typecheck
// (AI SDK 6) and test/ai-sdk-7's tsconfig (AI SDK 7) compile: a change to one must reach the other.
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

describe("docs/ai-sdk.md: The Vercel AI SDK", () => {
  it("shows the examples that are typechecked, as they are", () => {
    const page = read("../../docs/ai-sdk.md");
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((match) => match[1]!.trim());
    expect(blocks.slice(0, 2)).toEqual([asShown("./readme-example.ts"), asShown("./readme-agent-example.ts")]);
  });
});
