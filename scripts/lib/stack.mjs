// The local stack: the sandbox host in one `wrangler dev` process and the gateway (+ demo upstream) in
// another, joined by a private dev registry (WRANGLER_REGISTRY_PATH) through the gateway's
// SANDBOX_HOST service binding. Local workerd ignores CPU limits, so code stuck in one native call (a
// catastrophic regex) or a memory bomb stalls or kills only the host process; a supervisor here
// restarts it, and the gateway answers meanwhile. Used by `npm run dev` and the end-to-end tests.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeGatewayConfig } from "./gateway-config.mjs";
import { isLive, root, startWranglerDev } from "./wrangler-dev.mjs";

const HOST_CONFIG = "workers/sandbox-host/wrangler.toml";
const WATCH_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_500;
/**
 * Missed probes in a row after which the host counts as hung. Three, not two: a host's first Python
 * execution makes CPython's memory snapshot without answering probes (~2.5 s on a quiet machine,
 * about twice that on a loaded 2-core one), and a restart then would lose the snapshot and fail it.
 */
const UNRESPONSIVE_AFTER = 3;

/**
 * @param {{ port?: number, vars?: Record<string, string>, env?: Record<string, string>, persist?: "temp" | "default",
 *   echo?: (line: string) => boolean, envFile?: string | null, log?: (line: string) => void }} options
 */
export async function startStack(options = {}) {
  const log = options.log ?? ((line) => console.error(line));
  const registry = mkdtempSync(join(tmpdir(), "code-mcp-registry-"));
  const env = { ...options.env, WRANGLER_REGISTRY_PATH: registry };
  const host = superviseHost({ env, echo: options.echo, log });
  const gatewayConfig = writeGatewayConfig({
    services: [{ binding: "SANDBOX_HOST", service: "code-mcp-sandbox-host", entrypoint: "SandboxHost" }],
  });
  let gateway;
  try {
    await host.started;
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
      echo: options.echo,
      envFile,
    });
  } catch (err) {
    await host.stop();
    rmSync(gatewayConfig.dir, { recursive: true, force: true });
    rmSync(registry, { recursive: true, force: true });
    throw err;
  }
  const stop = async () => {
    await Promise.all([gateway.stop(), host.stop()]);
    rmSync(gatewayConfig.dir, { recursive: true, force: true });
    rmSync(registry, { recursive: true, force: true });
  };
  return { url: gateway.url, port: gateway.port, gateway, host, registry, stop };
}

/**
 * Runs the sandbox host and restarts it when it exits or stops answering. `restarts` counts them;
 * `current()` is the running wrangler dev (its `child.pid`, `url`).
 */
function superviseHost({ env, echo, log }) {
  let current;
  let stopping = false;
  let restarts = 0;
  const start = () => startWranglerDev({ configs: [HOST_CONFIG], env, echo });
  const started = start().then((h) => {
    current = h;
  });
  const loop = (async () => {
    await started.catch(() => {});
    while (!stopping && current) {
      let misses = 0;
      while (!stopping && current.child.exitCode === null && current.child.signalCode === null) {
        await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
        misses = (await isLive(current.url, PROBE_TIMEOUT_MS)) ? 0 : misses + 1;
        if (misses >= UNRESPONSIVE_AFTER) break;
      }
      if (stopping) return;
      const why =
        current.child.exitCode !== null || current.child.signalCode !== null
          ? `exited (${current.child.exitCode ?? current.child.signalCode})`
          : `stopped answering for ${(misses * WATCH_EVERY_MS) / 1000} s (code stuck in a native call?)`;
      log(`[stack] the sandbox host ${why}; restarting it`);
      await current.stop();
      for (;;) {
        try {
          current = await start();
          restarts++;
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
