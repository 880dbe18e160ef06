import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { startStack } from "../../scripts/lib/stack.mjs";
import { freePort, root } from "../../scripts/lib/wrangler-dev.mjs";
import { DEFAULT_ENGINE, ENGINES, type Engine } from "../../shared/contract/engine";
import { TEST_ADMIN_TOKEN, TEST_API_KEY, TEST_CONNECTIONS_KEY } from "../helpers/keys";

declare module "vitest" {
  export interface ProvidedContext {
    gatewayUrl: string;
    /** pid of the sandbox host's wrangler dev (another process than the gateway's) */
    sandboxHostPid: number;
    /** the stack's private dev registry, for extra workers a test starts beside it */
    registryPath: string;
    everythingUrl: string;
    everythingPid: number;
    /** the OAuth demo upstream (workers/oauth-demo): its origin, MCP at `/mcp` */
    oauthDemoUrl: string;
    /** the engine the stack runs code with (E2E_ENGINE, default the deployment's: DEFAULT_ENGINE) */
    engine: Engine;
    /** where the stack keeps its local state (KV, D1, Durable Objects): the gateway's, the sandbox host's */
    stateDirs: string[];
    /** the file the stack's wrangler output goes to */
    stackLogPath: string;
    /**
     * where the gateway sends traces (OTLP/HTTP JSON): a port on 127.0.0.1 nothing listens on until a
     * test starts its receiver there; only requests whose caller's traceparent is sampled are traced
     */
    otlpPort: number;
  }
}

/** A real upstream: the reference `server-everything` (streamable HTTP or legacy SSE), on a free port. */
async function startEverything(
  transport: "streamableHttp" | "sse",
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [script, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}/${transport === "sse" ? "sse" : "mcp"}`;
  for (let i = 0; i < 100; i++) {
    const res = await fetch(url, { method: "GET" }).catch(() => undefined);
    if (res) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("server-everything did not start");
}

/**
 * The local stack as `npm run dev` runs it (scripts/lib/stack.mjs): the sandbox host in its own
 * supervised `wrangler dev`, gateway + demo upstream in another, the OAuth demo upstream in a third,
 * with server-everything as two more upstreams: one
 * over streamable HTTP, one that only speaks the legacy SSE transport (found by fallback).
 * The e2e tests drive it over HTTP as a client would.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const named = process.env.E2E_ENGINE;
  const engine = named ? ENGINES.find((name) => name === named) : DEFAULT_ENGINE;
  if (!engine) throw new Error(`E2E_ENGINE is "${named}"; expected one of: ${ENGINES.join(", ")}`);
  const everything = await startEverything("streamableHttp");
  const legacy = await startEverything("sse");
  const servers = {
    demo: { service: "DEMO", description: "Demo support desk" },
    everything: { url: everything.url, description: "MCP reference server" },
    legacy: { url: legacy.url, description: "The reference server over the legacy SSE transport only" },
  };
  // Both wrangler processes' output goes to a file (scripts/lib/test-suites.mjs prints its tail when
  // the suite fails); the supervisor's lines (a host restarted, and why) also to stderr.
  const logPath = process.env.E2E_STACK_LOG ?? join(root, "node_modules/.cache/e2e-stack.log");
  mkdirSync(dirname(logPath), { recursive: true });
  const stackLog = createWriteStream(logPath);
  const stamped = (line: string) => `${new Date().toISOString().slice(11, 23)} ${line}`;
  const otlpPort = await freePort();
  const wrangler = await startStack({
    vars: {
      DEV_API_KEY: TEST_API_KEY,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      CONNECTIONS_KEY: TEST_CONNECTIONS_KEY,
      MCP_SERVERS: JSON.stringify(servers),
      // The maximum as the default: on a starved machine an honest execution can outlast 30 s, and a
      // host that misses a deadline is restarted (tests of timeouts pass their own timeoutMs).
      EXEC_TIMEOUT_MS: "120000",
      SANDBOX_ENGINE: engine,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_TRACES_SAMPLER: "parentbased_always_off",
    },
    persist: "temp",
    envFile: null,
    oauthDemo: {},
    echo: (line, from) => {
      stackLog.write(`${stamped(`[${from}] ${line}`)}\n`);
      return false;
    },
    log: (line) => {
      stackLog.write(`${stamped(line)}\n`);
      console.error(stamped(line));
    },
  });
  project.provide("gatewayUrl", wrangler.url);
  project.provide("engine", engine);
  project.provide("sandboxHostPid", wrangler.sandboxHost.current()?.child.pid ?? 0);
  project.provide("registryPath", wrangler.registry);
  project.provide("everythingUrl", everything.url);
  project.provide("everythingPid", everything.child.pid ?? 0);
  project.provide("oauthDemoUrl", wrangler.oauthDemo?.url ?? "");
  const hostState = wrangler.sandboxHost.current()?.stateDir;
  project.provide("stateDirs", [wrangler.gateway.stateDir, ...(hostState ? [hostState] : [])]);
  project.provide("stackLogPath", logPath);
  project.provide("otlpPort", otlpPort);
  return async () => {
    await wrangler.stop();
    everything.child.kill("SIGKILL");
    legacy.child.kill("SIGKILL");
    stackLog.end();
  };
}
