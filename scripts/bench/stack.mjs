// Everything `npm run bench` runs: server-everything, and ONE `wrangler dev` holding bench-codemode
// (primary: the only worker with a port), the gateway and the demo upstream.
//
// Configuring the gateway when it is not the primary: `--var` and `--env-file` only reach the primary,
// and a secondary worker takes its secrets from the `.dev.vars` next to its config when that file
// exists (`npm run dev` writes one in the repo root) and only otherwise from the process environment
// (CLOUDFLARE_INCLUDE_PROCESS_ENV=true). So the gateway runs from a copy of wrangler.toml written as
// JSON to a temporary directory, with absolute paths and the bench's [vars] (MCP_SERVERS, ...); no
// .dev.vars there, so DEV_API_KEY arrives from the process environment. /health and /ready confirm it.
import { rmSync } from "node:fs";
import { readGatewayConfig, writeGatewayConfig } from "../lib/gateway-config.mjs";
import { startWranglerDev } from "../lib/wrangler-dev.mjs";
import { startEverything } from "./everything.mjs";

/**
 * Starts the whole stack. Calls `track(stop)` at once: stop() made during startup lets the step under
 * way finish, starts nothing more, and ends what is up. Resolves to { wrangler, everything, base,
 * upstreams, stop }; on failure everything started is stopped before the error is thrown.
 * @param {{ apiKey: string, adminToken?: string, vars?: Record<string, string | undefined>, track: (stop: () => Promise<void>) => void }} options
 */
export async function startStack({ apiKey, adminToken, vars = {}, track }) {
  const parts = { everything: undefined, wrangler: undefined, configDir: undefined };
  let stopRequested = false;
  const checkpoint = () => {
    if (stopRequested) throw new Error("stopped during startup");
  };
  const cleanup = async () => {
    await parts.wrangler?.stop().catch(() => {});
    await parts.everything?.stop().catch(() => {});
    if (parts.configDir) rmSync(parts.configDir, { recursive: true, force: true });
  };

  const startup = (async () => {
    parts.everything = await startEverything();
    checkpoint();
    const rawConfig = readGatewayConfig();
    const servers = {
      ...JSON.parse(rawConfig.vars?.MCP_SERVERS ?? "{}"), // the default: the demo upstream
      everything: { url: parts.everything.url, description: "MCP reference server (server-everything)" },
    };
    const defined = Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined));
    const gateway = writeGatewayConfig({
      raw: rawConfig,
      vars: { ...defined, MCP_SERVERS: JSON.stringify(servers) },
    });
    parts.configDir = gateway.dir;
    checkpoint();
    // DEV_API_KEY as a process-env secret reaches every worker that has no .dev.vars of its own; the
    // child gets a minimal environment so nothing else leaks in.
    const env = { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", DEV_API_KEY: apiKey, ADMIN_TOKEN: adminToken };
    for (const key of Object.keys(process.env)) {
      if (!["PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME"].includes(key)) env[key] = undefined;
    }
    const configs = [
      "workers/bench-codemode/wrangler.toml",
      gateway.path,
      "workers/demo-upstream/wrangler.toml",
    ];
    parts.wrangler = await startWranglerDev({ configs, env, persist: "temp" });
    checkpoint();
    const upstreams = await checkUpstreams(parts.wrangler.url, Object.keys(servers));
    return { wrangler: parts.wrangler, everything: parts.everything, base: parts.wrangler.url, upstreams };
  })();

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      stopRequested = true;
      await startup.catch(() => {});
      await cleanup();
    })();
    return stopping;
  };
  track(stop);
  try {
    return { ...(await startup), stop };
  } catch (err) {
    if (parts.wrangler?.tail.length) err.wranglerTail = [...parts.wrangler.tail];
    await cleanup();
    throw err;
  }
}

/** /health must name every configured upstream and /ready must see each one with its tools. */
async function checkUpstreams(base, expected) {
  const health = await (await fetch(`${base}/health`)).json();
  const names = [...(health.upstreams ?? [])].sort();
  if (health.config !== "valid" || names.join() !== [...expected].sort().join()) {
    throw new Error(
      `the gateway did not get the bench's MCP_SERVERS (expected ${expected.join(", ")}): /health ${JSON.stringify(health)}`,
    );
  }
  const ready = await (await fetch(`${base}/ready`)).json();
  const states = ready.upstreams ?? [];
  const bad = expected.filter((n) => !states.some((s) => s.name === n && s.state === "ok" && s.tools > 0));
  if (ready.status !== "ready" || bad.length > 0) {
    throw new Error(`upstream(s) ${bad.join(", ") || "?"} not usable: /ready ${JSON.stringify(ready)}`);
  }
  return { health, ready };
}
