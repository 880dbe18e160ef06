import { execFileSync } from "node:child_process";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import {
  TEST_ADMIN_TOKEN,
  TEST_API_KEY,
  TEST_CONNECTIONS_KEY,
  TEST_CONNECTIONS_KEY_PREVIOUS,
} from "./test/helpers/keys.ts";
import { createDemoApp } from "./workers/demo-upstream/app.ts";

// Unit and integration tests run inside workerd with the real bindings of wrangler.toml
// (Worker Loader, Durable Objects, KV). The sandbox runtime's source strings are generated first.
execFileSync(process.execPath, ["scripts/build-sandbox.mjs"], { stdio: "inherit" });
const demo = createDemoApp();

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      main: "./test/helpers/test-main.ts",
      miniflare: {
        // Timeouts a slow CI machine can reach on a cold first call (the catalog's first fetch from
        // the demo upstream took 12 s there); the tests that check a timeout set their own.
        bindings: {
          DEV_API_KEY: TEST_API_KEY,
          ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          CONNECTIONS_KEY: TEST_CONNECTIONS_KEY,
          CONNECTIONS_KEY_PREVIOUS: TEST_CONNECTIONS_KEY_PREVIOUS,
          UPSTREAM_TIMEOUT_MS: "60000",
          TOOL_CALL_TIMEOUT_MS: "60000",
          EXEC_TIMEOUT_MS: "60000",
        },
        // The gateway's DEMO service binding reaches the real demo upstream, run here in Node.
        serviceBindings: { DEMO: (request: Request) => demo.fetch(request) },
        // The gateway's own outbound fetches (egress let through by the bridge) land here, not on
        // the internet, and say where they were going; /redirect?to=URL answers a 302 to URL.
        outboundService: (request: Request) => {
          const url = new URL(request.url);
          const to = url.pathname === "/redirect" ? url.searchParams.get("to") : null;
          if (to) return new Response(null, { status: 302, headers: { Location: to } });
          return new Response(`reached ${url.host}`);
        },
      },
    }),
  ],
  test: {
    include: ["test/unit/**/*.test.ts"],
    // One workerd per vitest worker for all its files (modules loaded once), not one per file: a
    // file's own workerd and imports cost ~5 minutes on a slow CI machine, 54 times over. Files
    // share storage, so each names its teams, keys and sessions for itself.
    isolate: false,
    testTimeout: 60_000,
    silent: "passed-only",
  },
});
