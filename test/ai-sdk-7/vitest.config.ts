import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// The AI SDK 7 suite: run from the repository's root with the Node 22 of this folder
// (`npm test --prefix test/ai-sdk-7`, which .ci/run does), so `ai` resolves to this folder's 7.x.
export default defineConfig({
  root: resolve(import.meta.dirname, "../.."),
  test: {
    include: ["test/ai-sdk-7/**/*.spec.ts"],
    testTimeout: 30_000,
    setupFiles: ["test/helpers/fast-check-seed.ts"],
  },
});
