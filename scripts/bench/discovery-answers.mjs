// Sizes of the discovery answers an agent reads, without a gateway: the demo upstream
// (workers/demo-upstream) and the gateway's discovery code (workers/gateway/discovery/service.ts)
// bundled with esbuild and run in Node. Prints, in characters of the JSON text an MCP client gets
// (the same as the REST body), `get_tool_definition` for every demo tool (default, and with
// `schema: true`) and `search_tools` at its defaults for a few queries; and the cl100k tokens of
// the gateway's tier-1 tools/list (execute, search_tools, get_tool_definition).
//
//   node scripts/bench/discovery-answers.mjs              the working tree
//   node scripts/bench/discovery-answers.mjs --ref HEAD~1 that git revision instead (to compare)
//   node scripts/bench/discovery-answers.mjs --json       the figures as JSON (tier 1's tools included)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { treeAt } from "../lib/git-tree.mjs";
import { root } from "../lib/root.mjs";
import { countTokens } from "../lib/tokens.mjs";
import { int, table } from "./stats.mjs";

/** Queries an agent sends the demo (the first is the issue's: every tool of the server matched). */
export const QUERIES = [
  "tickets customers",
  "close ticket",
  "open tickets by priority",
  "customer email",
  "",
];

const ENTRY = `
export { createDemoApp } from "./workers/demo-upstream/app";
export { createStore } from "./workers/demo-upstream/data/store";
export { searchTools, toolDefinition } from "./workers/gateway/discovery/service";
export { createMcpServer } from "./workers/gateway/mcp/server";
`;

const workersStub = {
  name: "cloudflare-workers-stub",
  setup(b) {
    b.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export class DurableObject {} export class WorkerEntrypoint {} export class RpcTarget {}",
      loader: "js",
    }));
    // The sandbox's build outputs, absent from a `git archive` tree and never run on this path.
    b.onResolve({ filter: /(^|\/)generated$|\/dist\/manifest\.mjs$/ }, (args) => ({
      path: args.path,
      namespace: "built",
    }));
    b.onLoad({ filter: /.*/, namespace: "built" }, () => ({
      contents: "export const RUNTIME_MODULES = {}; export const PYTHON_MODULES = {};",
      loader: "js",
    }));
  },
};

/** The modules of the tree at `base` (the working tree, or `ref` from `git archive`), bundled and imported. */
async function loadModules(ref) {
  const dir = mkdtempSync(join(tmpdir(), "discovery-answers-"));
  try {
    const base = ref === undefined ? root : treeAt(ref, dir, ["workers", "shared", "durable-objects"]);
    const bundled = await build({
      stdin: { contents: ENTRY, resolveDir: base, loader: "ts" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      // What the tools/list path never runs: the Workers runtime's classes, the sandbox's built modules.
      plugins: [workersStub],
      loader: { ".bin": "empty", ".wasm": "empty" },
      nodePaths: [join(root, "node_modules")],
      logLevel: "silent",
    });
    const file = join(dir, "answers.mjs");
    writeFileSync(file, bundled.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rpc(app, method, params) {
  const res = await app.fetch(
    new Request("http://demo/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The demo's tools as the gateway's catalog holds them (server `demo`, as `npm run dev` names it). */
async function demoCatalog(modules) {
  const store = modules.createStore({ customers: 20, tickets: 50 });
  const app = modules.createDemoApp(() => store);
  const { tools } = await rpc(app, "tools/list", {});
  return {
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      server: "demo",
      qualifiedName: `demo.${name}`,
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      inputSchema,
      ...(outputSchema !== undefined && { outputSchema }),
      ...(annotations !== undefined && { annotations }),
    })),
    servers: [{ name: "demo", state: "ok", tools: tools.length }],
  };
}

/** The gateway's tools/list as an MCP client gets it (registration reads nothing of the context). */
async function tier1(modules) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
  const server = modules.createMcpServer({});
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "1" });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  await client.close();
  return { chars: JSON.stringify(tools).length, tokens: countTokens(JSON.stringify(tools)), tools };
}

export async function measureAnswers(ref) {
  const modules = await loadModules(ref);
  const catalog = await demoCatalog(modules);
  const definitions = catalog.tools.map((tool) => {
    const plain = JSON.stringify(modules.toolDefinition(catalog, tool.qualifiedName));
    const withSchema = JSON.stringify(modules.toolDefinition(catalog, tool.qualifiedName, { schema: true }));
    return { tool: tool.qualifiedName, chars: plain.length, withSchema: withSchema.length };
  });
  const searches = QUERIES.map((query) => {
    const result = modules.searchTools(catalog, query ? { query } : {});
    return { query, chars: JSON.stringify(result).length, tools: result.tools.length, total: result.total };
  });
  return { definitions, searches, tier1: await tier1(modules) };
}

export function printAnswers({ definitions, searches, tier1: t1 }, label) {
  console.log(`\n== Discovery answers (${label}): characters of the JSON text an agent reads`);
  const sum = (list, key) => list.reduce((n, row) => n + row[key], 0);
  console.log(
    table(
      ["get_tool_definition", "chars", "schema: true"],
      [
        ...definitions.map((d) => [d.tool, int(d.chars), int(d.withSchema)]),
        ["all demo tools", int(sum(definitions, "chars")), int(sum(definitions, "withSchema"))],
      ],
    ),
  );
  console.log(
    table(
      ["search_tools (defaults)", "chars", "tools", "total"],
      searches.map((s) => [s.query ? JSON.stringify(s.query) : "(no query)", int(s.chars), s.tools, s.total]),
    ),
  );
  console.log(`tier-1 tools/list: ${int(t1.chars)} chars, ${int(t1.tokens)} tokens (cl100k)`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { ref: { type: "string" }, json: { type: "boolean" } } });
  const figures = await measureAnswers(values.ref);
  if (values.json) console.log(JSON.stringify(figures, null, 2));
  else printAnswers(figures, values.ref ?? "working tree");
}
