import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// The `skills` installer suite: run from the repository's root with the Node 22 of this folder
// (`npm test --prefix test/skills-installer`, which .ci/run does), so the real `skills` CLI
// (which needs Node >= 22.20) makes the layouts skillset must read. The CLI under test is the
// built one: `npm run build` first.
export default defineConfig({
  root: resolve(import.meta.dirname, "../.."),
  test: {
    include: ["test/skills-installer/**/*.spec.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    setupFiles: ["test/helpers/fast-check-seed.ts"],
  },
});
