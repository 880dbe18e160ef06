import { execFileSync } from "node:child_process";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { TEST_ADMIN_TOKEN, TEST_API_KEY } from "./test/helpers/keys.ts";
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
        bindings: { DEV_API_KEY: TEST_API_KEY, ADMIN_TOKEN: TEST_ADMIN_TOKEN },
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
    testTimeout: 20_000,
    silent: "passed-only",
  },
});
