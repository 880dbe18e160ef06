import { execFileSync } from "node:child_process";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { TEST_API_KEY } from "./test/helpers/keys.ts";

// Unit and integration tests run inside workerd with the real bindings of wrangler.toml
// (Worker Loader, Durable Objects). The sandbox runtime's source strings are generated first.
execFileSync(process.execPath, ["scripts/build-sandbox.mjs"], { stdio: "inherit" });

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      main: "./test/helpers/test-main.ts",
      miniflare: {
        bindings: { DEV_API_KEY: TEST_API_KEY },
        // The demo upstream runs beside the gateway only under wrangler dev (end-to-end tests);
        // unit tests use in-process upstreams (test/helpers/fake-upstream.ts).
        serviceBindings: {
          DEMO: () => new Response("the demo upstream is not part of unit tests", { status: 503 }),
        },
      },
    }),
  ],
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 20_000,
    silent: "passed-only",
  },
});
