// @modelcontextprotocol/server-everything (the MCP reference server) over streamable HTTP on a free
// port, as a second upstream for the gateway, and an SDK client that talks to it directly.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { root } from "../lib/root.mjs";
import { freePort } from "../lib/wrangler-dev.mjs";

const SCRIPT = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** Starts the server; resolves once it answers HTTP. `stop()` kills it (idempotent). */
export async function startEverything({ startupMs = 30_000 } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [SCRIPT, "streamableHttp"], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const tail = [];
  child.stderr.on("data", (chunk) => {
    tail.push(...chunk.toString().split("\n").filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + startupMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) }).catch(() => undefined);
    if (res) return { url, pid: child.pid, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server-everything did not start on port ${port}:\n${tail.join("\n")}`);
}

/** A connected SDK client (one session, reused for every call). */
export async function connectClient(url) {
  const client = new Client({ name: "edge-code-mcp-bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Every tool the server lists, following `nextCursor`. */
export async function listAllTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
