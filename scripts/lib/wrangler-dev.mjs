// Starts `wrangler dev` as a child in its own process group, waits until GET /live answers, and
// stops it (SIGTERM, then SIGKILL for the group: a workerd stuck in native code ignores SIGTERM).
// Used by `npm run dev`, `npm run bench` and the end-to-end tests.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { TOOLCHAIN } from "./node22.mjs";
import { root } from "./root.mjs";

export { root };

/** The Node 22 toolchain's wrangler (scripts/node22, installed by scripts/lib/node22.mjs). */
const CURRENT_WRANGLER = join(TOOLCHAIN, "node_modules/wrangler");

/**
 * The wrangler that `wrangler dev` runs: the repo's pinned one (4.86, the newest that runs on Node
 * 20), or with WRANGLER_TOOLCHAIN=current the current one of the Node 22 toolchain, which
 * `npm run test:node22` and `npm run conformance` use. Returns its package directory.
 */
export function wranglerPackage() {
  const choice = process.env.WRANGLER_TOOLCHAIN ?? "pinned";
  if (choice === "pinned") return join(root, "node_modules/wrangler");
  if (choice !== "current")
    throw new Error(`WRANGLER_TOOLCHAIN must be "pinned" or "current", got "${choice}"`);
  if (Number(process.versions.node.split(".")[0]) < 22) {
    throw new Error(`WRANGLER_TOOLCHAIN=current needs Node >= 22 (this is ${process.version})`);
  }
  if (!existsSync(CURRENT_WRANGLER)) {
    throw new Error(
      `${CURRENT_WRANGLER} is missing: the Node 22 toolchain is installed by scripts/lib/node22.mjs`,
    );
  }
  return CURRENT_WRANGLER;
}

/**
 * For scripts whose default is the wrangler users get today (the bench, the Node 22 suites,
 * conformance): WRANGLER_TOOLCHAIN is "current" unless the caller set it ("pinned": the repo's).
 * Returns the choice.
 */
export function preferCurrentWrangler() {
  process.env.WRANGLER_TOOLCHAIN ??= "current";
  return process.env.WRANGLER_TOOLCHAIN;
}

/** The version of the wrangler that `wrangler dev` runs (wranglerPackage). */
export function wranglerVersion() {
  return JSON.parse(readFileSync(join(wranglerPackage(), "package.json"), "utf8")).version;
}

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
 *   persist "temp": a fresh state directory, removed on stop; otherwise the state is kept in
 *   `<stateDir>/.wrangler/state` (default: the first config's directory, as wrangler does), or
 *   `state-current` under current wrangler, whose local storage the pinned one cannot read (a Durable
 *   Object's alarm table has another shape there); echo: lines of wrangler's output to show.
 */
export async function startWranglerDev(options = {}) {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const persistDir = options.persist === "temp" ? mkdtempSync(join(tmpdir(), "code-mcp-")) : undefined;
  const args = ["dev"];
  for (const config of options.configs ?? ["wrangler.toml"]) args.push("-c", config);
  const inspectorPort = await freePort();
  args.push("--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort));
  const stateDir = options.stateDir ?? resolve(root, dirname(options.configs?.[0] ?? "wrangler.toml"));
  const kept = join(
    stateDir,
    ".wrangler",
    process.env.WRANGLER_TOOLCHAIN === "current" ? "state-current" : "state",
  );
  args.push("--persist-to", persistDir ?? kept);
  if (options.envFile) args.push("--env-file", options.envFile);
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", ...options.env };
  const stdio = ["ignore", "pipe", "pipe"];
  const child = spawn(process.execPath, [join(wranglerPackage(), "bin/wrangler.js"), ...args], {
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
    if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.startupMs ?? 90_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `wrangler dev exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail.join("\n")}`,
      );
    }
    if (await isLive(url, 2_000)) return { url, port, inspectorPort, child, stop, tail };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer GET /live within the startup time:\n${tail.join("\n")}`);
}

export async function isLive(url, timeoutMs) {
  const res = await fetch(`${url}/live`, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
  return res?.status === 200;
}
