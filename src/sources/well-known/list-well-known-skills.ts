import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../../core/diagnostic.js";
import { SkillsetError } from "../../errors/skillset-error.js";
import { inspectSkill } from "../../core/skill-file/inspect-skill.js";
import type { SkillMetadata } from "../../core/skill-file/skill-metadata.js";
import type { SkillSourceScan } from "../../core/skill-source.js";
import { MAX_INDEX_BYTES } from "./archive-limits.js";
import { boundedFetch } from "./bounded-fetch.js";
import { indexUrls } from "./site-url.js";
import { readIndexCopy, skillCacheFolder, writeIndexCopy } from "./well-known-cache.js";
import { parseWellKnownIndex, type WellKnownEntry } from "./well-known-index.js";
import type { WellKnownState } from "./well-known-state.js";

/**
 * The source's scan: the latest one while `refreshMs` lasts, else the index fetched again
 * (concurrent scans share the fetch). Never throws: a site that cannot be reached gives the
 * skills of its last index that are in the cache, with a warning saying so, or none.
 */
export function scanWellKnownSkills(state: WellKnownState): Promise<SkillSourceScan> {
  if (state.last && Date.now() - state.listedAt < state.refreshMs) return Promise.resolve(state.last);
  state.listing ??= listSkills(state).finally(() => (state.listing = undefined));
  return state.listing;
}

async function listSkills(state: WellKnownState): Promise<SkillSourceScan> {
  const diagnostics: Diagnostic[] = [];
  const warn = (code: string, message: string) =>
    diagnostics.push({ severity: "warning", code, file: state.site.href, message, source: state.id });
  let entries: WellKnownEntry[] = [];
  try {
    const { url, bytes } = await fetchIndex(state);
    const parsed = parseWellKnownIndex(bytes, url, state.id);
    entries = parsed.entries;
    diagnostics.push(...parsed.diagnostics);
    await writeIndexCopy(state.siteFolder, {
      url: url.href,
      fetchedAt: new Date().toISOString(),
      text: new TextDecoder().decode(bytes),
    }).catch((error: Error) => {
      warn(
        "cache-failed",
        `The index of ${state.site.href} could not be kept in the cache (${error.message}); it will not be available offline`,
      );
    });
  } catch (error) {
    const reason = (error as Error).message;
    const copy = await readIndexCopy(state.siteFolder);
    if (!copy) warn("site-unavailable", `No skills from ${state.site.href}: ${reason}`);
    else {
      const all = parseWellKnownIndex(new TextEncoder().encode(copy.text), new URL(copy.url), state.id).entries;
      entries = all.filter((entry) => existsSync(join(skillCacheFolder(state.siteFolder, entry.digest), "SKILL.md")));
      const left = all.length - entries.length;
      warn(
        "served-from-cache",
        `${reason}; serving the last verified copy of its index, fetched ${copy.fetchedAt}, from the cache${left > 0 ? ` (${left} skill${left === 1 ? " is" : "s are"} not in the cache and left out)` : ""}`,
      );
    }
  }
  const skills = catalogEntries(state, entries, diagnostics);
  state.listedAt = Date.now();
  const signature = JSON.stringify([skills, diagnostics]);
  if (state.last && signature === state.lastSignature) return state.last;
  state.lastSignature = signature;
  state.last = { version: `${state.id}#${++state.version}`, skills, diagnostics };
  return state.last;
}

// The first index the site serves of those it may have; a 404 tries the next.
async function fetchIndex(state: WellKnownState): Promise<{ url: URL; bytes: Uint8Array }> {
  const candidates = indexUrls(state.site);
  for (const [position, url] of candidates.entries()) {
    try {
      return {
        url,
        bytes: await boundedFetch(state.fetch, url, {
          timeoutMs: state.indexTimeoutMs,
          maxBytes: MAX_INDEX_BYTES,
          what: "The skills index",
        }),
      };
    } catch (error) {
      const notFound =
        SkillsetError.isInstance(error) && error.code === "http-error" && / HTTP 404$/.test(error.message);
      if (!notFound || position === candidates.length - 1) throw error;
    }
  }
  throw new SkillsetError("not-found", `${state.site.href} publishes no skills index`);
}

// The entries as the catalog lists them, validated like any frontmatter; their SKILL.md is in the cache, once verified.
function catalogEntries(
  state: WellKnownState,
  entries: readonly WellKnownEntry[],
  diagnostics: Diagnostic[],
): SkillMetadata[] {
  state.held.clear();
  const skills: SkillMetadata[] = [];
  for (const entry of entries) {
    const path = join(skillCacheFolder(state.siteFolder, entry.digest), "SKILL.md");
    const text = `---\nname: ${JSON.stringify(entry.name)}\ndescription: ${JSON.stringify(entry.description)}\n---\n`;
    const inspected = inspectSkill({ text, file: path, directoryName: entry.name, source: state.id });
    diagnostics.push(...inspected.diagnostics);
    if (!inspected.skill) continue;
    skills.push(inspected.skill);
    state.held.set(path, entry);
  }
  return skills;
}
