// Starts `wrangler dev` as a child in its own process group, waits until GET /live answers, and
// stops it (SIGTERM, then SIGKILL for the group: a workerd stuck in native code ignores SIGTERM).
// Used by `npm run dev`, `npm run bench` and the end-to-end tests; which wrangler, and where its
// state goes, is scripts/lib/toolchain.mjs's choice.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { positiveNumberEnv } from "./env-number.mjs";
import { LOCAL_STACK_ENV } from "./plain-wrangler-dev.mjs";
import { root } from "./root.mjs";
import { localStateDir, wranglerBin } from "./toolchain.mjs";

/** Also here for the e2e tests that import it from this module. */
export { root };

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * envFile: secrets/vars for the primary worker (`--env-file`, e.g. the repo's .dev.vars when the config is generated elsewhere).
 * @param {{ configs?: string[], port?: number, vars?: Record<string, string>, env?: Record<string, string>,
 *   persist?: "temp" | "default", stateDir?: string, echo?: (line: string) => boolean, startupMs?: number,
 *   envFile?: string }} options
 *   vars: `--var` values (the primary worker only); env: extra process environment;
 *   persist "temp": a fresh state directory, removed on stop; otherwise the state is kept under
 *   `stateDir` (default: the first config's directory, as wrangler does), in the toolchain's
 *   localStateDir; echo: lines of wrangler's output to show.
 *   Its answer's `stateDir` is where the worker's local state (KV, D1, Durable Objects) is kept.
 */
export async function startWranglerDev(options = {}) {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const persistDir = options.persist === "temp" ? mkdtempSync(join(tmpdir(), "code-mcp-")) : undefined;
  const stateDir =
    persistDir ??
    localStateDir(options.stateDir ?? resolve(root, dirname(options.configs?.[0] ?? "wrangler.toml")));
  const args = ["dev"];
  for (const config of options.configs ?? ["wrangler.toml"]) args.push("-c", config);
  const inspectorPort = await freePort();
  args.push("--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort));
  args.push("--persist-to", stateDir);
  if (options.envFile) args.push("--env-file", options.envFile);
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
  // A dev registry of its own unless the caller shares one (scripts/lib/stack.mjs): nothing of ours
  // is listed in the user's global one, where an entry left by a killed process reads as
  // "connected" to their plain `wrangler dev` for five minutes.
  const ownRegistry = options.env?.WRANGLER_REGISTRY_PATH
    ? undefined
    : mkdtempSync(join(tmpdir(), "code-mcp-registry-"));
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CI: "true",
    ...options.env,
    ...(ownRegistry && { WRANGLER_REGISTRY_PATH: ownRegistry }),
    [LOCAL_STACK_ENV]: "1",
  };
  const stdio = ["ignore", "pipe", "pipe"];
  const child = spawn(process.execPath, [wranglerBin(), ...args], {
    cwd: root,
    env,
    detached: true,
    stdio,
  });
  const tail = [];
  const keep = (out) => (chunk) => {
    const lines = chunk.toString().split("\n").filter(Boolean);
    for (const line of lines) if (options.echo?.(line)) out.write(`${line}\n`);
    tail.push(...lines.filter((l) => !/"msg":"request"|\[wrangler:info\] [A-Z]+ \//.test(l)));
    tail.splice(0, Math.max(0, tail.length - 60));
  };
  child.stdout.on("data", keep(process.stdout));
  child.stderr.on("data", keep(process.stderr));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    }
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
    for (const dir of [persistDir, ownRegistry]) if (dir) rmSync(dir, { recursive: true, force: true });
  };

  const startupMs = options.startupMs ?? startupSeconds() * 1000;
  const deadline = Date.now() + startupMs;
  const live = liveProbe(url);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `wrangler dev exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail.join("\n")}`,
      );
    }
    if (await live(deadline - Date.now())) return { url, port, inspectorPort, child, stop, tail, stateDir };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(
    `wrangler dev did not answer GET /live within ${startupMs / 1000} s (DEV_STARTUP_SECONDS to wait longer):\n${tail.join("\n")}`,
  );
}

/**
 * How long a stack may take to answer: DEV_STARTUP_SECONDS, else 240 s. About 20 s on a quiet
 * 2-core machine; several minutes on a starved one (seen on shared CI machines).
 */
export function startupSeconds() {
  return positiveNumberEnv("DEV_STARTUP_SECONDS", 240);
}

/**
 * Probes GET /live: `await probe(ms)` says whether it answered 200 within `ms`. A probe that is late
 * is not given up but waited for by the next call (one at a time): workerd would log its answer to a
 * closed socket as an error ("Broken pipe", "Connection reset by peer"), and wrangler holds requests
 * until the Worker is ready. A refused connection fails at once.
 */
export function liveProbe(url) {
  let pending;
  return (ms) => {
    pending ??= fetch(`${url}/live`)
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status === 200;
      })
      .catch(() => false)
      .finally(() => {
        pending = undefined;
      });
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(resolve, ms, false);
    });
    return Promise.race([pending, late]).finally(() => clearTimeout(timer));
  };
}
