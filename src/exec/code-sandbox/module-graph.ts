import type { CodeRunHost } from "./code-run-outcome.js";
import { prepareModuleSource } from "./code-source.js";
import { resolveModuleSpecifier } from "./module-specifier.js";

// A run that imports more modules than this is almost certainly looping through computed specifiers.
const MAX_MODULES_PER_RUN = 500;

/** The modules the host gave for one run: the only ones the engine may load during it. */
export interface ApprovedModules {
  /** Full specifier → source prepared for the engine. */
  sources: Map<string, string>;
  /** Specifier as imported → full specifier, where the host named the module differently (an entrypoint). */
  aliases: Map<string, string>;
}

/** The full specifier an approved module is known by, or undefined when the host has not approved it. */
export function approvedName(approved: ApprovedModules, specifier: string): string | undefined {
  const name = approved.aliases.get(specifier) ?? specifier;
  return approved.sources.has(name) ? name : undefined;
}

/**
 * Loads, through the host, every module the given imports reach (static imports and re-exports, each
 * resolved against its importer) into `approved`. Returns the full specifiers the given imports stand for,
 * or an error the model reads.
 */
export async function loadModuleGraph(
  host: CodeRunHost,
  approved: ApprovedModules,
  importer: string | undefined,
  specifiers: readonly string[],
): Promise<{ resolved: string[] } | { error: string }> {
  const resolved: string[] = [];
  for (const specifier of specifiers) {
    const loaded = await loadModuleTree(host, approved, resolveModuleSpecifier(importer, specifier));
    if (typeof loaded !== "string") return loaded;
    resolved.push(loaded);
  }
  return { resolved };
}

async function loadModuleTree(
  host: CodeRunHost,
  approved: ApprovedModules,
  root: string,
): Promise<string | { error: string }> {
  const queue = [root];
  let rootName: string | undefined;
  while (queue.length > 0) {
    const asked = queue.shift() as string;
    let name = approvedName(approved, asked);
    if (name === undefined) {
      if (approved.sources.size >= MAX_MODULES_PER_RUN) {
        return { error: `Cannot import "${asked}": one run may import at most ${MAX_MODULES_PER_RUN} modules.` };
      }
      const loaded = await askHost(host, asked);
      if ("error" in loaded) return { error: `Cannot import "${asked}": ${loaded.error}` };
      name = loaded.specifier ?? asked;
      if (name !== asked) approved.aliases.set(asked, name);
      if (!approved.sources.has(name)) {
        const prepared = prepareModuleSource(name, loaded.source);
        if ("error" in prepared) return { error: `Cannot import "${asked}": ${prepared.error}` };
        approved.sources.set(name, prepared.source);
        for (const specifier of prepared.imports) queue.push(resolveModuleSpecifier(name, specifier));
      }
    }
    rootName ??= name;
  }
  return rootName as string;
}

async function askHost(
  host: CodeRunHost,
  name: string,
): Promise<{ source: string; specifier?: string } | { error: string }> {
  try {
    const answer: unknown = await host.loadModule(name);
    const fields = (typeof answer === "object" && answer !== null ? answer : {}) as Record<string, unknown>;
    if (typeof fields.source === "string") {
      return typeof fields.specifier === "string" && fields.specifier !== ""
        ? { source: fields.source, specifier: fields.specifier }
        : { source: fields.source };
    }
    if (typeof fields.error === "string") return { error: fields.error };
    return { error: "the host answered with neither a source nor an error." };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
