import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Property tests: one seed per file, from SKILLSET_FC_SEED or printed when a property fails.
    setupFiles: ["test/helpers/fast-check-seed.ts"],
  },
});
