import { execFileSync } from "node:child_process";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { TEST_API_KEY } from "./test/helpers/keys";

// Unit and integration tests run inside workerd with the real bindings of wrangler.toml
// (Worker Loader, Durable Objects). The sandbox runtime's source strings are generated first.
execFileSync(process.execPath, ["scripts/build-sandbox.mjs"], { stdio: "inherit" });

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { DEV_API_KEY: TEST_API_KEY } },
    }),
  ],
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 20_000,
    silent: "passed-only",
  },
});
