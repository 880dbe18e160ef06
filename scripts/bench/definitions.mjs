// Section 1: what a client loads up front. The gateway's tier-1 `tools/list` (three tools, whatever
// the upstreams hold) against the tool definitions a client would load from the upstreams directly.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../lib/root.mjs";
import { countTokens } from "../lib/tokens.mjs";
import { QUERIES } from "./discovery-answers.mjs";
import { listAllTools } from "./everything.mjs";
import { int, pct, table } from "./stats.mjs";

const CORPUS = "bench/fixtures/mcp-tool-corpus.json";
const tokensOf = (tools) => countTokens(JSON.stringify(tools));

/** The gateway's own tools/list, as an MCP client gets it. */
export async function tier1Tools(gw, session) {
  const listed = await gw.rpc(session, "tools/list", {});
  return listed.tools;
}

/**
 * The demo upstream's tools as its own tools/list gives them, rebuilt from the gateway's catalog
 * (`detail=full` carries every field the gateway keeps: title, description, schemas, annotations).
 * The catalog drops `execution`, which the SDK's McpServer.registerTool (the demo's) always lists as
 * `{ taskSupport: "forbidden" }`, so it is put back. Keys in the order the SDK writes them.
 */
export async function demoDefinitions(gw) {
  const found = await gw.get("/v1/tools?server=demo&detail=full&limit=100");
  if (found.warnings?.length) throw new Error(`demo catalog warnings: ${found.warnings.join("; ")}`);
  if (found.tools.length === 0 || found.tools.length !== found.total)
    throw new Error(`GET /v1/tools?server=demo listed ${found.tools.length} of ${found.total} tools`);
  return found.tools.map((t) => ({
    name: t.name.replace(/^demo\./, ""),
    ...(t.title !== undefined && { title: t.title }),
    ...(t.description !== undefined && { description: t.description }),
    inputSchema: t.inputSchema,
    ...(t.annotations !== undefined && { annotations: t.annotations }),
    execution: { taskSupport: "forbidden" },
    ...(t.outputSchema !== undefined && { outputSchema: t.outputSchema }),
  }));
}

function corpusServers() {
  const corpus = JSON.parse(readFileSync(join(root, CORPUS), "utf8"));
  if (!Array.isArray(corpus.servers) || corpus.servers.length === 0) throw new Error(`${CORPUS}: no servers`);
  return corpus.servers;
}

/** Prints the table; resolves to what later sections reuse and the corpus figures the README quotes. */
export async function runDefinitions({ gw, session, everythingClient }) {
  const tier1 = await tier1Tools(gw, session);
  const tier1Tokens = tokensOf(tier1);
  const demo = await demoDefinitions(gw);
  const everything = await listAllTools(everythingClient);
  const servers = corpusServers();
  const corpus = servers.flatMap((s) => s.tools);

  const sources = [
    ["demo upstream (workers/demo-upstream)", demo],
    ["server-everything", everything],
    ["demo + everything (this gateway's upstreams)", [...demo, ...everything]],
    [`corpus: ${servers.length} npm MCP servers`, corpus],
  ];
  const rows = sources.map(([name, tools]) => {
    const all = tokensOf(tools);
    return [
      name,
      tools.length,
      int(all),
      int(tier1Tokens),
      `${(all / tier1Tokens).toFixed(1)}x`,
      pct(tier1Tokens, all),
    ];
  });

  console.log("\n== 2. Tool definitions a client loads up front (cl100k tokens of the JSON tools array)");
  console.log(
    `gateway tier-1 tools/list: ${tier1.map((t) => t.name).join(", ")}: ${int(JSON.stringify(tier1).length)} chars, ${int(tier1Tokens)} tokens`,
  );
  console.log(table(["source", "tools", "all defs", "tier-1", "ratio", "saving"], rows));
  const perServer = servers
    .map((s) => ({ name: `${s.package}@${s.version}`, tools: s.tools.length, tokens: tokensOf(s.tools) }))
    .sort((a, b) => a.tokens - b.tokens);
  const median = perServer[Math.floor((perServer.length - 1) / 2)];
  const max = perServer.at(-1);
  console.log(
    `corpus per server: median ${int(median.tokens)} tokens (${median.name}, ${median.tools} tools); ` +
      `largest ${int(max.tokens)} (${max.name}, ${max.tools} tools); ` +
      `${perServer.filter((s) => s.tokens > tier1Tokens).length} of ${perServer.length} servers alone exceed tier-1`,
  );
  await printAnswerSizes(gw, demo);
  return {
    tier1Tokens,
    demo,
    corpus: { servers: servers.length, tools: corpus.length, tokens: tokensOf(corpus) },
  };
}

/**
 * What an agent reads when it looks tools up, through the gateway: the characters of the
 * `get_tool_definition` answer of every demo tool and of `search_tools` at its defaults (the JSON text an
 * MCP client gets is the REST body). Without a gateway, and against another revision:
 * `node scripts/bench/discovery-answers.mjs [--ref <rev>]`.
 */
async function printAnswerSizes(gw, demo) {
  const size = async (path) => JSON.stringify(await gw.get(path)).length;
  const definitions = [];
  for (const tool of demo) definitions.push([`demo.${tool.name}`, await size(`/v1/tools/demo.${tool.name}`)]);
  const searches = [];
  for (const query of QUERIES)
    searches.push([
      query || "(no query)",
      await size(`/v1/tools${query ? `?q=${encodeURIComponent(query)}` : ""}`),
    ]);
  const total = definitions.reduce((n, [, chars]) => n + chars, 0);
  console.log(
    `get_tool_definition answers (chars): ${definitions.map(([name, chars]) => `${name} ${int(chars)}`).join(", ")}; all ${int(total)}`,
  );
  console.log(
    `search_tools answers at the defaults (chars): ${searches.map(([q, c]) => `"${q}" ${int(c)}`).join(", ")}`,
  );
}
