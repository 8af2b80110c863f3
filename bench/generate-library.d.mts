// Types for generate-library.mjs, so TypeScript tests can import it.

/** Path of the library with `count` generated skills, generating it first when missing or incomplete. */
export function ensureLibrary(count?: number, shape?: "flat" | "grouped" | "collections"): string;
/** The names and descriptions of `count` generated skills, seeded, without writing files. */
export function generatedSkillMetadata(count: number, seed?: number): Array<{ name: string; description: string }>;
/** A seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number;
