import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One line per group of tests that skips here (no corpus, no PostgreSQL, no python3).
    globalSetup: ["test/helpers/global-setup.ts"],
    // Property tests: one seed per file, from SKILLSET_FC_SEED or printed when a property fails.
    setupFiles: ["test/helpers/fast-check-seed.ts"],
  },
});
