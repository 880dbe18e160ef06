// Everything `npm run bench` runs: server-everything, and ONE `wrangler dev` holding bench-codemode
// (primary: the only worker with a port), the gateway and the demo upstream.
//
// Configuring the gateway when it is not the primary: `--var` and `--env-file` only reach the primary,
// and a secondary worker takes its secrets from the `.dev.vars` next to its config when that file
// exists (`npm run dev` writes one in the repo root) and only otherwise from the process environment
// (CLOUDFLARE_INCLUDE_PROCESS_ENV=true). So the gateway runs from a copy of wrangler.toml written as
// JSON to a temporary directory, with absolute paths and the bench's [vars] (MCP_SERVERS, ...); no
// .dev.vars there, so DEV_API_KEY arrives from the process environment. /health and /ready confirm it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { root, startWranglerDev } from "../lib/wrangler-dev.mjs";
import { startEverything } from "./everything.mjs";

/** Keys of a wrangler config holding paths this copy does not rewrite: refuse rather than break them. */
const UNHANDLED_PATH_KEYS = ["assets", "site", "rules", "base_dir", "tsconfig", "alias"];

/** The gateway's wrangler.toml, as written (not normalized). */
function readGatewayConfig() {
  const script = join(root, "scripts/bench/read-wrangler-config.mjs");
  const out = execFileSync(process.execPath, [script, join(root, "wrangler.toml")], { encoding: "utf8" });
  return JSON.parse(out);
}

/** `rawConfig` as JSON in a fresh directory, with paths that still lead to the repo and `vars` merged in. */
function writeGatewayConfig(withEnvs, vars) {
  // Per-team deployment environments ([env.*]) are not part of what the bench runs.
  const { env: _teams, ...rawConfig } = withEnvs;
  const unhandled = UNHANDLED_PATH_KEYS.filter((key) => rawConfig[key] !== undefined);
  if (unhandled.length > 0)
    throw new Error(`scripts/bench/stack.mjs does not relocate wrangler.toml's ${unhandled.join(", ")}`);
  const dir = mkdtempSync(join(tmpdir(), "code-mcp-bench-config-"));
  const abs = (p) => resolve(root, p);
  // wrangler joins build.watch_dir onto the config's directory even when it is absolute
  const rel = (p) => relative(dir, abs(p));
  const build = rawConfig.build && {
    ...rawConfig.build,
    cwd: abs(rawConfig.build.cwd ?? "."),
    ...(rawConfig.build.watch_dir !== undefined && {
      watch_dir: [rawConfig.build.watch_dir].flat().map(rel),
    }),
  };
  const config = {
    ...rawConfig,
    main: abs(rawConfig.main),
    ...(build && { build }),
    vars: { ...rawConfig.vars, ...vars },
  };
  const path = join(dir, "wrangler.json");
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return { path, dir };
}

/**
 * Starts the whole stack. Calls `track(stop)` at once: stop() made during startup lets the step under
 * way finish, starts nothing more, and ends what is up. Resolves to { wrangler, everything, base,
 * upstreams, stop }; on failure everything started is stopped before the error is thrown.
 * @param {{ apiKey: string, vars?: Record<string, string | undefined>, track: (stop: () => Promise<void>) => void }} options
 */
export async function startStack({ apiKey, vars = {}, track }) {
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
    const gateway = writeGatewayConfig(rawConfig, { ...defined, MCP_SERVERS: JSON.stringify(servers) });
    parts.configDir = gateway.dir;
    checkpoint();
    // DEV_API_KEY as a process-env secret reaches every worker that has no .dev.vars of its own; the
    // child gets a minimal environment so nothing else leaks in.
    const env = { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", DEV_API_KEY: apiKey };
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
