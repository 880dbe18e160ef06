import { defineConfig } from "vitest/config";

// End-to-end: a real `wrangler dev` (started once in global-setup) driven over HTTP by the official
// MCP SDK client, as Claude Code or the Inspector would.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
