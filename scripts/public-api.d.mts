// Types for public-api.mjs, so TypeScript tests can import it.

/** One entry point of package.json "exports". */
export interface PublicEntryPoint {
  /** The subpath in package.json, e.g. `./node`. */
  subpath: string;
  /** What users import, e.g. `skillset/node`. */
  specifier: string;
  /** Its source file, e.g. `src/node.ts`. */
  source: string;
  /** Its report, e.g. `api/skillset-node.api.md`. */
  report: string;
  /** Every name it exports, sorted. */
  exports: PublicExport[];
}

/** One exported name. */
export interface PublicExport {
  name: string;
  /** `function`, `class`, `const`, `interface`, `type`, … */
  kind: string;
  /** A value (exists at run time), not only a type. */
  value: boolean;
  /** For values, the signature or type as the compiler prints it; for type aliases, the definition. */
  signature: string | undefined;
  /** For interfaces and type aliases: each property, `name?: type`. */
  members: string[] | undefined;
  /** The TSDoc comment's text; empty when there is none. */
  documentation: string;
  /** The declaration it resolves to, as `file#name`: equal ids are the same thing. */
  id: string;
  /** Ids of the types of our own sources its declaration names. */
  references: string[];
}

/** The entry points package.json declares. */
export function entryPoints(root?: string): Omit<PublicEntryPoint, "exports">[];
/** Every entry point with its exports, read from the sources. */
export function readPublicApi(root?: string): PublicEntryPoint[];
/** The Markdown report of one entry point. */
export function renderApiReport(entry: PublicEntryPoint): string;
/** Writes api/<entry>.api.md for every entry point. */
export function writeApiReports(root?: string): PublicEntryPoint[];
/** The report files present in api/. */
export function reportFiles(root?: string): string[];
/** Types public declarations name but no entry point exports. */
export function unexportedReferences(api: PublicEntryPoint[]): string[];
