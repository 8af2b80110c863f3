import { describe, expect, it } from "vitest";
import { createMemorySource } from "../../sources/memory-source.js";
import { createCatalog } from "../catalog/catalog.js";
import { catalogView } from "../catalog/catalog-view.js";
import type { SkillRequest } from "./skill-engine-types.js";
import type { SkillMetadata } from "../skill-file/skill-metadata.js";
import { createCatalogCache, loadedSkillsOf, rendering, searchableSkills } from "./catalog-cache.js";

const meta = (name: string, extra: Partial<SkillMetadata> = {}): SkillMetadata => ({
  name,
  description: `Use ${name}.`,
  path: `/s/${name}/SKILL.md`,
  metadata: {},
  allowedTools: [],
  source: "memory",
  ...extra,
});

describe("createCatalogCache", () => {
  it("keeps at most `capacity` catalogs and evicts the least recently used", () => {
    const cache = createCatalogCache(2);
    const first = cache.remember("v1", [meta("a")]);
    cache.remember("v2", [meta("b")]);
    // Touching v1 makes v2 the least recently used, so v3 evicts v2.
    expect(cache.renderingOf({ catalogVersion: "v1" })).toBe(first);
    cache.remember("v3", [meta("c")]);
    expect(cache.renderingOf({ catalogVersion: "v1" })).toBe(first);
    expect(cache.renderingOf({ catalogVersion: "v2" }).skills).toEqual([]);
    expect(cache.renderingOf({ catalogVersion: "v3" }).skills).toEqual([meta("c")]);
  });

  it("returns the cached rendering of a version, ignoring the skills given with it", () => {
    const cache = createCatalogCache();
    const cached = cache.remember("v1", [meta("a")]);
    expect(cache.remember("v1", [meta("other")])).toBe(cached);
    expect(cache.renderingOf({ catalogVersion: "v1", skills: [meta("other")] }).skills).toEqual([meta("a")]);
  });

  it("renders a catalog without a version every time, without caching it", () => {
    const cache = createCatalogCache();
    const state = { skills: [meta("a")] };
    const once = cache.renderingOf(state);
    expect(once.skills).toEqual([meta("a")]);
    expect([...once.byName.keys()]).toEqual(["a"]);
    expect(cache.renderingOf(state)).not.toBe(once);
  });

  it("is empty for an unknown version without skills, and caches a version that comes with its skills", () => {
    const cache = createCatalogCache();
    expect(cache.renderingOf({ catalogVersion: "v9" }).skills).toEqual([]);
    const written = cache.renderingOf({ catalogVersion: "v9", skills: [meta("a")] });
    expect(cache.renderingOf({ catalogVersion: "v9" })).toBe(written);
  });

  it("resolves an unknown version by scanning the request's sources, and to an empty catalog when they hold another version", async () => {
    const source = createMemorySource({
      files: { "/s/a/SKILL.md": "---\nname: a\ndescription: Use a.\n---\nDo a.\n" },
    });
    const { version, skills } = await catalogView(await createCatalog([source]).refresh());
    const request = (catalogVersion: string): SkillRequest => ({
      state: { catalogVersion, loaded: [], resources: {} },
      sources: async () => [source],
    });
    const cache = createCatalogCache();
    const resolved = await cache.resolve(request(version));
    expect(resolved.skills).toEqual(skills);
    expect(cache.renderingOf({ catalogVersion: version })).toBe(resolved);
    expect((await cache.resolve(request("stale"))).skills).toEqual([]);
    expect(cache.renderingOf({ catalogVersion: "stale" }).skills).toEqual([]);
  });
});

describe("searchableSkills / loadedSkillsOf", () => {
  it("searchable skills leave out those only a user may invoke, derived once per rendering", () => {
    const catalog = rendering([meta("a"), meta("user-only", { disableModelInvocation: true }), meta("b")]);
    const searchable = searchableSkills(catalog);
    expect(searchable.map((skill) => skill.name)).toEqual(["a", "b"]);
    expect(searchableSkills(catalog)).toBe(searchable);
  });

  it("loaded skills come in load order, and names the catalog lacks are left out", () => {
    const catalog = rendering([meta("a"), meta("b")]);
    expect(loadedSkillsOf({ loaded: ["b", "gone", "a"] }, catalog).map((skill) => skill.name)).toEqual(["b", "a"]);
  });
});
