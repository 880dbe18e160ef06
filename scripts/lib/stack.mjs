// The local stack: the sandbox host in one `wrangler dev` process and the gateway (+ demo upstream) in
// another, joined by a private dev registry (WRANGLER_REGISTRY_PATH) through the gateway's
// SANDBOX_HOST service binding; on request (`oauthDemo`), the OAuth demo upstream in a third, since a
// browser must reach its sign-in page at an address of its own. Local workerd ignores CPU limits, so
// code stuck in one native call (a catastrophic regex) or a memory bomb stalls or kills only the sandbox
// host; a supervisor here restarts it, and the gateway answers meanwhile. Used by `npm run dev`
// and the end-to-end tests.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { positiveNumberEnv } from "./env-number.mjs";
import { writeGatewayConfig } from "./gateway-config.mjs";
import { root } from "./root.mjs";
import { liveProbe, startupSeconds, startWranglerDev } from "./wrangler-dev.mjs";

const HOST_CONFIG = "workers/sandbox-host/wrangler.toml";
const OAUTH_DEMO_CONFIG = "workers/oauth-demo/wrangler.toml";
const WATCH_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_500;
/**
 * The sandbox host's one thread answers no probe while code computes without awaiting (on a starved machine
 * each Python execution restoring its snapshot is seconds of that), and not even when idle now and
 * then. So a silent sandbox host is restarted only once the gateway has seen it miss an execution's deadline
 * (`sandboxHost.overdueSince` in the gateway's GET /live, later than its start), after this
 * many missed probes in a row (SANDBOX_HOST_MISSES). A hang whose request was cancelled is found by
 * the next execution sent to the sandbox host, which then misses its own deadline.
 */
const UNRESPONSIVE_AFTER = positiveNumberEnv("SANDBOX_HOST_MISSES", 3);
/**
 * A sandbox host makes CPython's memory snapshot, and runs its first TypeScript execution, slowly
 * (~2.5 s on a quiet machine, a minute on a starved one): the supervisor has both done (POST /warm)
 * after each start, before the gateway starts or probing does, so no first execution pays for them.
 * It may take as long as a start (DEV_STARTUP_SECONDS).
 */
const WARM_TIMEOUT_MS = startupSeconds() * 1000;

/**
 * @param {{ port?: number, vars?: Record<string, string>, env?: Record<string, string>, persist?: "temp" | "default",
 *   echo?: (line: string, from: "sandbox-host" | "gateway" | "oauth-demo") => boolean, envFile?: string | null,
 *   log?: (line: string) => void, oauthDemo?: { port?: number } }} options
 *   echo: a line of any wrangler's output; true shows it on this process's stdout.
 *   oauthDemo: also run workers/oauth-demo (on `port`, else a free one); its address is `oauthDemo.url`.
 */
export async function startStack(options = {}) {
  const log = options.log ?? ((line) => console.error(line));
  const registry = mkdtempSync(join(tmpdir(), "code-mcp-registry-"));
  const env = { ...options.env, WRANGLER_REGISTRY_PATH: registry };
  let gateway;
  const sandboxHost = superviseSandboxHost({
    env,
    echo: options.echo && ((line) => options.echo(line, "sandbox-host")),
    log,
    gatewayUrl: () => gateway?.url,
  });
  const gatewayConfig = writeGatewayConfig({
    services: [{ binding: "SANDBOX_HOST", service: "code-mcp-sandbox-host", entrypoint: "SandboxHost" }],
  });
  const oauthDemo = options.oauthDemo
    ? startWranglerDev({
        configs: [OAUTH_DEMO_CONFIG],
        port: options.oauthDemo.port,
        env,
        persist: options.persist,
        echo: options.echo && ((line) => options.echo(line, "oauth-demo")),
      })
    : undefined;
  // Awaited below; a failure meanwhile (while the host starts) is not an unhandled rejection.
  oauthDemo?.catch(() => {});
  try {
    await sandboxHost.started;
    // The config is generated elsewhere, so the repo's .dev.vars is passed explicitly (null: none).
    const devVars = existsSync(join(root, ".dev.vars")) ? join(root, ".dev.vars") : undefined;
    const envFile = options.envFile === null ? undefined : (options.envFile ?? devVars);
    gateway = await startWranglerDev({
      configs: [gatewayConfig.path, "workers/demo-upstream/wrangler.toml"],
      port: options.port,
      vars: options.vars,
      env,
      persist: options.persist,
      // The gateway's config is written to a temporary directory: its state is kept in the repo's.
      stateDir: root,
      echo: options.echo && ((line) => options.echo(line, "gateway")),
      envFile,
    });
    await oauthDemo;
  } catch (err) {
    await Promise.all([
      sandboxHost.stop(),
      gateway?.stop(),
      oauthDemo?.then(
        (d) => d.stop(),
        () => {},
      ),
    ]);
    rmSync(gatewayConfig.dir, { recursive: true, force: true });
    rmSync(registry, { recursive: true, force: true });
    throw err;
  }
  const demo = await oauthDemo;
  const stop = async () => {
    await Promise.all([gateway.stop(), sandboxHost.stop(), demo?.stop()]);
    rmSync(gatewayConfig.dir, { recursive: true, force: true });
    rmSync(registry, { recursive: true, force: true });
  };
  return { url: gateway.url, port: gateway.port, gateway, sandboxHost, registry, oauthDemo: demo, stop };
}

/**
 * Runs the sandbox host and restarts it when it exits or stops answering. `restarts` counts them;
 * `current()` is the running wrangler dev (its `child.pid`, `url`).
 */
function superviseSandboxHost({ env, echo, log, gatewayUrl }) {
  let current;
  let stopping = false;
  let restarts = 0;
  const start = () => startWranglerDev({ configs: [HOST_CONFIG], env, echo });
  // Started means warm too: the gateway starts after, so the two do not contend for the CPU.
  let startedAt = 0;
  const started = start().then(async (h) => {
    current = h;
    startedAt = Date.now();
    await warm(h.url, log);
  });
  const loop = (async () => {
    await started.catch(() => {});
    while (!stopping && current) {
      let misses = 0;
      let silentSince = 0;
      const live = liveProbe(current.url);
      while (!stopping && current.child.exitCode === null && current.child.signalCode === null) {
        await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
        if (await live(PROBE_TIMEOUT_MS)) {
          misses = 0;
          continue;
        }
        if (misses++ === 0) silentSince = Date.now();
        if (misses < UNRESPONSIVE_AFTER) continue;
        if (await gatewaySaysOverdue(gatewayUrl(), startedAt)) break;
      }
      if (stopping) return;
      const silentFor = `${Math.round((Date.now() - silentSince) / 1000)} s`;
      const why =
        current.child.exitCode !== null || current.child.signalCode !== null
          ? `exited (${current.child.exitCode ?? current.child.signalCode})`
          : `missed an execution's deadline and has not answered for ${silentFor} (code stuck in a native call?)`;
      log(`[stack] the sandbox host ${why}; restarting it`);
      await current.stop();
      for (;;) {
        try {
          current = await start();
          startedAt = Date.now();
          restarts++;
          await warm(current.url, log);
          log(`[stack] sandbox host restarted (${restarts} so far)`);
          break;
        } catch (err) {
          if (stopping) return;
          log(
            `[stack] sandbox host failed to start: ${err instanceof Error ? err.message.split("\n")[0] : err}`,
          );
          await new Promise((r) => setTimeout(r, 1_000));
        }
      }
    }
  })();
  return {
    started,
    current: () => current,
    get restarts() {
      return restarts;
    },
    stop: async () => {
      stopping = true;
      await started.catch(() => {});
      await current?.stop();
      await loop.catch(() => {});
    },
  };
}

/** Has the sandbox host make its Python snapshot and run a first execution; says why not if it could not. */
async function warm(url, log) {
  try {
    const res = await fetch(`${url}/warm`, { method: "POST", signal: AbortSignal.timeout(WARM_TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok) log(`[stack] the sandbox host did not warm up: ${text.slice(0, 300)}`);
  } catch (err) {
    log(
      `[stack] the sandbox host did not finish warming up within ${WARM_TIMEOUT_MS / 1000} s (${err instanceof Error ? err.message : err}); probing it anyway`,
    );
  }
}

/** Whether the gateway saw this sandbox host (started at `since`) miss an execution's deadline. */
async function gatewaySaysOverdue(url, since) {
  if (!url) return false;
  try {
    const res = await fetch(`${url}/live`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS * 2) });
    const body = await res.json();
    const at = Date.parse(body?.sandboxHost?.overdueSince ?? "");
    return at >= since;
  } catch {
    return false;
  }
}
