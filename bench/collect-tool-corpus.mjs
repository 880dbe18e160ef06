#!/usr/bin/env node
/**
 * Collects a corpus of real MCP tool definitions from MCP servers published on npm.
 *
 * Each server is started over stdio with the official SDK client, `tools/list` is called
 * (following `nextCursor`), and the Tool objects are written as listed to
 * bench/fixtures/mcp-tool-corpus.json:
 *
 *   { "collectedAt": ISO date,
 *     "servers": [ { "package": npm name, "version": installed version, "tools": [Tool, ...] } ] }
 *
 * The servers are not installed into this repo. Prepare a scratch dir once (nothing needs a
 * browser, a database or network access: all credentials below are dummies):
 *
 *   mkdir -p /tmp/mcp-corpus && cd /tmp/mcp-corpus && npm init -y
 *   PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --ignore-scripts \
 *     @modelcontextprotocol/server-everything@2026.8.31 \
 *     @modelcontextprotocol/server-filesystem@2026.8.31 \
 *     @modelcontextprotocol/server-memory@2026.8.31 \
 *     @modelcontextprotocol/server-sequential-thinking@2026.8.31 \
 *     @modelcontextprotocol/server-github@2025.4.8 \
 *     @modelcontextprotocol/server-gitlab@2025.4.25 \
 *     @modelcontextprotocol/server-slack@2025.4.25 \
 *     @modelcontextprotocol/server-puppeteer@2025.5.12 \
 *     @modelcontextprotocol/server-postgres@0.6.2 \
 *     @modelcontextprotocol/server-redis@2025.4.25 \
 *     @modelcontextprotocol/server-brave-search@0.6.2 \
 *     @modelcontextprotocol/server-google-maps@0.6.2 \
 *     @notionhq/notion-mcp-server@2.5.2 \
 *     @playwright/mcp@0.0.83 \
 *     chrome-devtools-mcp@1.11.0 \
 *     @wonderwhy-er/desktop-commander@0.2.52 \
 *     firecrawl-mcp@3.26.0 \
 *     tavily-mcp@0.2.22 \
 *     exa-mcp-server@3.4.1 \
 *     @upstash/context7-mcp@4.1.1 \
 *     mcp-server-kubernetes@4.1.7 \
 *     @supabase/mcp-server-supabase@0.13.0
 *
 * Then, from the repo root (the SDK client comes from this repo's node_modules):
 *
 *   node bench/collect-tool-corpus.mjs [scratch-dir]     # or CORPUS_DIR=...; default /tmp/mcp-corpus
 *
 * Re-runnable: the fixture is rewritten each run. A server that is not installed, fails to
 * start or times out is reported and left out; the exit code is 1 only if no server answered.
 * Every server runs with HOME and its working directory in a fresh temp dir, which is removed
 * afterwards, and its process is killed when its listing is done.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..");
const outFile = join(here, "fixtures", "mcp-tool-corpus.json");
const corpusDir = resolve(process.argv[2] ?? process.env.CORPUS_DIR ?? "/tmp/mcp-corpus");
const SERVER_TIMEOUT_MS = Number(process.env.CORPUS_SERVER_TIMEOUT_MS ?? 60_000);
const DEAD_URL = "http://127.0.0.1:9"; // discard port: nothing listens, nothing is ever sent out

/**
 * The servers, in output order. `version` is the one the install command above pins (a
 * different installed version is used anyway, with a warning). `args`/`env` get the run's
 * temp dir `work` and, for redis, the port of a local stub (see startRedisStub).
 */
const SERVERS = [
  { package: "@modelcontextprotocol/server-everything", version: "2026.8.31", args: () => ["stdio"] },
  {
    package: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    args: ({ work }) => [mkdirp(join(work, "fs-root"))],
  },
  {
    package: "@modelcontextprotocol/server-memory",
    version: "2026.8.31",
    env: ({ work }) => ({ MEMORY_FILE_PATH: join(work, "memory.jsonl") }),
  },
  { package: "@modelcontextprotocol/server-sequential-thinking", version: "2026.8.31" },
  {
    package: "@modelcontextprotocol/server-github",
    version: "2025.4.8",
    env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: "dummy" }),
  },
  {
    package: "@modelcontextprotocol/server-gitlab",
    version: "2025.4.25",
    env: () => ({ GITLAB_PERSONAL_ACCESS_TOKEN: "dummy", GITLAB_API_URL: `${DEAD_URL}/api/v4` }),
  },
  {
    package: "@modelcontextprotocol/server-slack",
    version: "2025.4.25",
    env: () => ({ SLACK_BOT_TOKEN: "xoxb-dummy", SLACK_TEAM_ID: "T00000000" }),
  },
  {
    package: "@modelcontextprotocol/server-puppeteer",
    version: "2025.5.12",
    env: () => ({ PUPPETEER_SKIP_DOWNLOAD: "1" }), // the browser is only launched by a tool call
  },
  {
    package: "@modelcontextprotocol/server-postgres",
    version: "0.6.2",
    args: () => ["postgresql://dummy:dummy@127.0.0.1:9/dummy"], // only resources/tool calls connect
  },
  {
    package: "@modelcontextprotocol/server-redis",
    version: "2025.4.25",
    // It connects before serving MCP at all, so it gets a local stub that answers +OK.
    args: ({ redisPort }) => [`redis://127.0.0.1:${redisPort}`],
  },
  {
    package: "@modelcontextprotocol/server-brave-search",
    version: "0.6.2",
    env: () => ({ BRAVE_API_KEY: "dummy" }),
  },
  {
    package: "@modelcontextprotocol/server-google-maps",
    version: "0.6.2",
    env: () => ({ GOOGLE_MAPS_API_KEY: "dummy" }),
  },
  {
    package: "@notionhq/notion-mcp-server",
    version: "2.5.2",
    env: () => ({ NOTION_TOKEN: "ntn_dummy" }), // tools come from the OpenAPI spec it ships
  },
  {
    package: "@playwright/mcp",
    version: "0.0.83",
    args: ({ work }) => ["--headless", "--isolated", "--output-dir", join(work, "playwright-output")],
    env: () => ({ PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" }),
  },
  {
    package: "chrome-devtools-mcp",
    version: "1.11.0",
    bin: "chrome-devtools-mcp",
    args: () => ["--headless", "--isolated", "--no-usage-statistics", "--no-performance-crux"],
    // Otherwise it spawns a detached `npm config get registry` + fetch that outlives the server.
    env: () => ({ CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: "1" }),
  },
  { package: "@wonderwhy-er/desktop-commander", version: "0.2.52", bin: "desktop-commander" },
  {
    package: "firecrawl-mcp",
    version: "3.26.0",
    env: () => ({ FIRECRAWL_API_KEY: "fc-dummy", FIRECRAWL_API_URL: DEAD_URL }),
  },
  { package: "tavily-mcp", version: "0.2.22", env: () => ({ TAVILY_API_KEY: "tvly-dummy" }) },
  { package: "exa-mcp-server", version: "3.4.1", env: () => ({ EXA_API_KEY: "dummy" }) },
  { package: "@upstash/context7-mcp", version: "4.1.1" },
  {
    package: "mcp-server-kubernetes",
    version: "4.1.7",
    env: ({ work }) => ({ KUBECONFIG: writeDummyKubeconfig(work) }), // read at startup, never contacted
  },
  {
    package: "@supabase/mcp-server-supabase",
    version: "0.13.0",
    // The default feature groups minus "docs": search_docs is described from the live docs
    // GraphQL schema, which tools/list would fetch from the network.
    args: () => [
      "--access-token",
      "sbp_dummy",
      `--api-url=${DEAD_URL}`,
      "--features=account,database,debugging,development,functions,branching",
    ],
  },
];

/** Loose on purpose: keeps every field of every Tool exactly as the server sent it. */
const RawListToolsResult = z
  .object({ tools: z.array(z.looseObject({ name: z.string() })), nextCursor: z.string().optional() })
  .loose();

function mkdirp(dir) {
  mkdirSync(dir, { recursive: true });
  return dir;
}

function readInstalled(pkg, binName) {
  const pkgDir = join(corpusDir, "node_modules", ...pkg.split("/"));
  const manifestPath = join(pkgDir, "package.json");
  if (!existsSync(manifestPath)) throw new Error(`not installed in ${corpusDir}`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  let bin = manifest.bin;
  if (bin && typeof bin === "object") bin = binName ? bin[binName] : Object.values(bin)[0];
  if (typeof bin !== "string") throw new Error("package has no bin to start");
  return { version: manifest.version, binPath: join(pkgDir, bin) };
}

function writeDummyKubeconfig(work) {
  const file = join(work, "kubeconfig.yaml");
  writeFileSync(
    file,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters: [{ name: dummy, cluster: { server: 'https://127.0.0.1:9' } }]",
      "users: [{ name: dummy, user: { token: dummy } }]",
      "contexts: [{ name: dummy, context: { cluster: dummy, user: dummy } }]",
      "current-context: dummy",
      "",
    ].join("\n"),
  );
  return file;
}

/** Minimal RESP stub: answers +OK to every command, which is all node-redis needs to connect. */
async function startRedisStub() {
  const server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const consumed = parseRespCommand(buf);
        if (consumed === 0) break;
        buf = buf.subarray(consumed);
        socket.write("+OK\r\n");
      }
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return server;
}

/** Length of the first complete RESP array command in buf, or 0 if it is not complete yet. */
function parseRespCommand(buf) {
  const lineEnd = (from) => buf.indexOf("\r\n", from);
  let end = lineEnd(0);
  if (end < 0) return 0;
  if (buf[0] !== 0x2a /* '*' */) return end + 2; // inline command: one line
  const count = Number(buf.subarray(1, end).toString());
  let pos = end + 2;
  for (let i = 0; i < count; i++) {
    end = lineEnd(pos);
    if (end < 0) return 0;
    const len = Number(buf.subarray(pos + 1, end).toString());
    pos = end + 2 + len + 2;
    if (pos > buf.length) return 0;
  }
  return pos;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function collectOne(spec, ctx) {
  const { version, binPath } = readInstalled(spec.package, spec.bin);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, ...(spec.args?.(ctx) ?? [])],
    env: { HOME: ctx.home, NO_COLOR: "1", ...(spec.env?.(ctx) ?? {}) },
    cwd: ctx.work,
    stderr: "pipe",
  });
  let stderrTail = "";
  transport.stderr?.on("data", (chunk) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  const client = new Client({ name: "mcp-tool-corpus-collector", version: "1.0.0" });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${SERVER_TIMEOUT_MS} ms`)), SERVER_TIMEOUT_MS);
  });
  try {
    const listing = (async () => {
      await client.connect(transport);
      const tools = [];
      let cursor;
      do {
        const page = await client.request(
          { method: "tools/list", params: cursor ? { cursor } : {} },
          RawListToolsResult,
          { timeout: SERVER_TIMEOUT_MS },
        );
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    })();
    const tools = await Promise.race([listing, timeout]);
    const invalid = tools.filter((t) => !ToolSchema.safeParse(t).success).map((t) => t.name);
    return { version, tools, invalid, serverInfo: client.getServerVersion() };
  } catch (err) {
    const tail = stderrTail.trim().split("\n").slice(-3).join(" | ");
    throw new Error(`${err instanceof Error ? err.message : err}${tail ? ` — stderr: ${tail}` : ""}`);
  } finally {
    clearTimeout(timer);
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid && isAlive(pid)) process.kill(pid, "SIGKILL");
  }
}

function formatWithBiome(file) {
  const biome = join(repoRoot, "node_modules", ".bin", "biome");
  if (!existsSync(biome)) return false;
  try {
    execFileSync(biome, ["format", "--write", file], { cwd: repoRoot, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function main() {
  if (!existsSync(join(corpusDir, "node_modules"))) {
    console.error(`No node_modules in ${corpusDir}: prepare it as described at the top of this script.`);
    process.exit(1);
  }
  const started = Date.now();
  const redisStub = await startRedisStub();
  const servers = [];
  const failures = [];
  const workDirs = [];
  console.log(`Collecting tool definitions from ${SERVERS.length} servers in ${corpusDir}\n`);
  for (const spec of SERVERS) {
    const work = mkdtempSync(join(tmpdir(), "mcp-corpus-run-"));
    const ctx = { work, home: mkdirp(join(work, "home")), redisPort: redisStub.address().port };
    const t0 = Date.now();
    try {
      const { version, tools, invalid, serverInfo } = await collectOne(spec, ctx);
      const ms = Date.now() - t0;
      const pin = version === spec.version ? "" : ` (pinned ${spec.version})`;
      const who = serverInfo ? ` [${serverInfo.name} ${serverInfo.version}]` : "";
      console.log(
        `ok    ${spec.package}@${version}${pin}: ${tools.length} tools in ${ms} ms${who}` +
          (invalid.length ? ` — not valid per SDK ToolSchema: ${invalid.join(", ")}` : ""),
      );
      if (tools.length > 0) servers.push({ package: spec.package, version, tools });
    } catch (err) {
      failures.push(spec.package);
      console.log(`FAIL  ${spec.package}: ${err instanceof Error ? err.message : err}`);
    } finally {
      workDirs.push(work);
    }
  }
  redisStub.close();
  await new Promise((ok) => setTimeout(ok, 500)); // let stray grandchildren finish writing
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });

  const total = servers.reduce((n, s) => n + s.tools.length, 0);
  const corpus = { collectedAt: new Date().toISOString(), servers };
  mkdirp(dirname(outFile));
  writeFileSync(outFile, `${JSON.stringify(corpus, null, 2)}\n`);
  const formatted = formatWithBiome(outFile);
  const bytes = readFileSync(outFile).length;
  console.log(
    `\n${total} tools from ${servers.length} servers` +
      (failures.length ? ` (${failures.length} failed: ${failures.join(", ")})` : "") +
      `; wrote ${outFile} (${(bytes / 1024).toFixed(1)} KiB${formatted ? ", biome-formatted" : ""})` +
      ` in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (servers.length === 0) process.exit(1);
}

await main();
