// `npm run dev`: the gateway under `wrangler dev` on http://127.0.0.1:8787 (PORT to change), with a
// dev API key kept in .dev.vars (made on first run) and printed with ready-to-paste client configs;
// beside it the OAuth demo upstream (workers/oauth-demo) on the next port, 8788.
// Agent code runs in a second workerd process, the sandbox host (scripts/lib/stack.mjs), restarted
// when it hangs or dies: local workerd ignores CPU limits, and code stuck inside one native call (a
// catastrophic regular expression, say) would otherwise hang everything. A watchdog restarts the
// whole stack if the gateway itself ever stops answering.

import { readFileSync } from "node:fs";
import { devCommand, devPort } from "./lib/dev-address.mjs";
import { ensureDevKey, ensureDevVar, readDevVar } from "./lib/dev-vars.mjs";
import { positiveNumberEnv } from "./lib/env-number.mjs";
import { startLocalTraces } from "./lib/local-traces.mjs";
import { startStack } from "./lib/stack.mjs";
import { useToolchain } from "./lib/toolchain.mjs";
import { liveProbe } from "./lib/wrangler-dev.mjs";

await useToolchain("dev");

const port = devPort();
const WATCH_EVERY_MS = 2_000;
/** Missed probes in a row (one per WATCH_EVERY_MS) after which wrangler dev is restarted. */
const UNRESPONSIVE_AFTER = positiveNumberEnv("GATEWAY_MISSES", 10);
// The watchdog's own probes, and the fetch of Request.cf that fails offline, are not worth showing.
const PROBE_LOG =
  /GET \/live 200|"path":"\/live"|Request\.cf|getaddrinfo ENOTFOUND workers\.cloudflare|at GetAddrInfoReqWrap/;

async function banner(url, key, oauthDemo) {
  const mcp = `${url}/mcp`;
  const ready = await fetch(`${url}/ready`)
    .then((r) => r.json())
    .catch(() => ({}));
  const upstreams =
    (ready.upstreams ?? []).map((u) => `${u.name} (${u.state}, ${u.tools} tools)`).join(", ") || "none";
  console.log(`
  MCP gateway ready: ${mcp}
  API key (from .dev.vars): ${key}
  Admin:   ${devCommand(port, "npm run admin -- --help")}   (ADMIN_TOKEN in .dev.vars)
  Upstreams: ${upstreams}
  OAuth demo upstream: ${oauthDemo}/mcp  (its own sign-in: pick alice or bob; workers/oauth-demo)

  Claude Code:  claude mcp add --transport http code-gateway ${mcp} --header "Authorization: Bearer ${key}"
  Cursor (~/.cursor/mcp.json):  { "mcpServers": { "code-gateway": { "url": "${mcp}", "headers": { "Authorization": "Bearer ${key}" } } } }
  Inspector:    ${devCommand(port, "npm run inspect")}   (or: npx @modelcontextprotocol/inspector@0.21.2 --cli ${mcp} --transport http --header "Authorization: Bearer ${key}" --method tools/list)
  Traces:       npm run trace -- <X-Request-Id of an answer>   (${tracesNote})
  Web connector: paste ${mcp} as a custom connector, sign in with a team API key (docs/oauth.md)
  REST:         curl -s ${url}/v1/execute -H "X-API-Key: ${key}" -H "Content-Type: application/json" -d '{"code":"return 6 * 7"}'
`);
}

/**
 * Team `default`'s upstreams under `npm run dev`: wrangler.toml's MCP_SERVERS plus the OAuth demo
 * (per-user OAuth: each member connects as alice or bob) and the demo's REST twin as an OpenAPI
 * upstream, unless .dev.vars sets MCP_SERVERS itself.
 */
function withOAuthDemo(demoPort) {
  if (readDevVar("MCP_SERVERS") !== undefined) return {};
  const line = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8").match(
    /^MCP_SERVERS = '(.*)'$/m,
  );
  const servers = line ? JSON.parse(line[1]) : {};
  servers["oauth-demo"] = {
    url: `http://127.0.0.1:${demoPort}/mcp`,
    auth: { type: "oauth" },
    description: "OAuth demo: the signed-in user's notes (connect as alice or bob)",
  };
  // The demo desk's REST twin, added by its OpenAPI description (README "Add an API by its OpenAPI description").
  servers["desk-rest"] = {
    service: "DEMO",
    openapi: "/openapi.json",
    description: "Demo support desk REST API (an OpenAPI upstream)",
  };
  return { MCP_SERVERS: JSON.stringify(servers) };
}

let current;
let stopping = false;
// Spans go to a receiver on the gateway's port + 2 that keeps them for `npm run trace`, unless TRACES=off
// or .dev.vars names a collector of its own.
const ownCollector = readDevVar("OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined;
const localTraces =
  process.env.TRACES === "off" || ownCollector ? undefined : await startLocalTraces(port + 2);
const tracesNote = localTraces
  ? `kept in .wrangler/traces.jsonl; TRACES=off to stop`
  : ownCollector
    ? "sent to OTEL_EXPORTER_OTLP_ENDPOINT of .dev.vars"
    : "off: TRACES=off";

async function run() {
  const key = ensureDevKey();
  ensureDevVar("ADMIN_TOKEN", "adm_");
  ensureDevVar("CONNECTIONS_KEY", "ck_");
  for (;;) {
    // wrangler prints a line per request itself; the gateway's own JSON line per request also
    // crosses wrangler's inspector proxy, whose workerd keeps growing with it (npm run soak).
    // Local state is kept across runs (.wrangler/state): upstream tool lists are refreshed after a
    // minute, not a day, so a tool changed in an upstream under development shows up soon.
    const vars = {
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      SCHEMA_CACHE_TTL_SECONDS: process.env.SCHEMA_CACHE_TTL_SECONDS ?? "60",
      ...withOAuthDemo(port + 1),
      ...localTraces?.vars,
    };
    current = await startStack({
      port,
      vars,
      echo: (line) => !PROBE_LOG.test(line),
      // The gateway's port + 1 (8788): a browser opens its sign-in page there.
      oauthDemo: { port: port + 1 },
    });
    await banner(current.url, key, current.oauthDemo.url);
    let misses = 0;
    const child = current.gateway.child;
    const live = liveProbe(current.url);
    while (!stopping && child.exitCode === null && child.signalCode === null) {
      await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
      misses = (await live(3_000)) ? 0 : misses + 1;
      if (misses >= UNRESPONSIVE_AFTER) {
        console.error(
          `\n[dev] the gateway has not answered for ${(misses * WATCH_EVERY_MS) / 1000} s; restarting wrangler dev`,
        );
        break;
      }
    }
    if (stopping) return;
    await current.stop();
    if (child.exitCode !== null && child.exitCode !== 0 && misses === 0) {
      console.error(`[dev] wrangler dev exited with ${child.exitCode}`);
      process.exit(child.exitCode);
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    stopping = true;
    await current?.stop();
    process.exit(0);
  });
}

run().catch((err) => {
  console.error(`[dev] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
