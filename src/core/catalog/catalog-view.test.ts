import { describe, expect, it } from "vitest";
import type { CatalogSnapshot } from "./catalog.js";
import { catalogView } from "./catalog-view.js";
import { contentHash, createContentHasher } from "../text/content-hash.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";

const meta = (name: string): SkillMetadata => ({
  name,
  description: `Use ${name} for "quoted" work.`,
  path: `/s/${name}/SKILL.md`,
  metadata: { team: "docs" },
  allowedTools: [],
  source: "local:/s",
});

const snapshotOf = (skills: SkillMetadata[]): CatalogSnapshot => ({
  skills,
  shadowed: [],
  diagnostics: [],
  version: "raw",
  get: (name) => skills.find((skill) => skill.name === name),
});

describe("catalogView", () => {
  it("versions a catalog by the hash of its skills' JSON, as written before the hash was taken in parts, and maps their names", async () => {
    const skills = [meta("a"), meta("b")];
    const view = await catalogView(snapshotOf(skills));
    expect(view.skills).toEqual(skills);
    expect([...view.byName]).toEqual([
      ["a", skills[0]],
      ["b", skills[1]],
    ]);
    expect(view.version).toBe(contentHash(JSON.stringify(skills)));
    expect(view.version).toBe("75e67c424bf997e9:289");
    expect((await catalogView(snapshotOf([]))).version).toBe(contentHash("[]"));
  });

  it("lets the event loop run while it hashes a large catalog, and gives the same version as one pass", async () => {
    const skills = Array.from({ length: 12_000 }, (_, at) => meta(`skill-${at}`));
    let ranBefore = false;
    const pending = catalogView(snapshotOf(skills));
    setImmediate(() => (ranBefore = true));
    const view = await pending;
    expect(ranBefore).toBe(true);
    expect(view.version).toBe(contentHash(JSON.stringify(skills)));
    expect(view.byName.size).toBe(12_000);
    expect(view.byName.get("skill-11999")).toBe(skills[11_999]);
  });

  it("is computed once per snapshot, and every caller shares it", async () => {
    const snapshot = snapshotOf([meta("a")]);
    const first = catalogView(snapshot);
    expect(catalogView(snapshot)).toBe(first);
    expect((await first).skills).not.toBe(snapshot.skills);
  });
});

describe("createContentHasher", () => {
  it("gives the digest of the whole text, however it is split", () => {
    const text = "naïve — ✓ 𝔘nicode\nand lines";
    for (const at of [0, 1, 7, 20, text.length]) {
      const digest = createContentHasher().update(text.slice(0, at)).update(text.slice(at)).digest();
      expect(digest).toBe(contentHash(text));
    }
    expect(contentHash("")).toBe("811c9dc52f1e3d4c:0");
  });
});
