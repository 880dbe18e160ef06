import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_QUERY_SETS,
  intentProblems,
  loadAgentQueries,
  loadIntents,
} from "../../bench/discovery/servers.mjs";
import { startCorpusUpstream } from "../../scripts/bench/corpus-upstream.mjs";
import { countTokens } from "../../scripts/lib/tokens.mjs";
import { adminRequest, connect, teamWithKey } from "./client";

// The 297-tool corpus (22 real npm MCP servers' tool lists) served on loopback by
// scripts/bench/corpus-upstream.mjs, as the upstreams of a team of their own.
const TEAM = "e2e-corpus";
const CORPUS_TOOLS = 297;

let upstream: Awaited<ReturnType<typeof startCorpusUpstream>>;
let client: Client;

type Listed = { tools: Array<{ name: string }>; total: number; warnings?: string[] };

async function searchTools(args: Record<string, unknown>): Promise<Listed> {
  const res = await client.callTool({ name: "search_tools", arguments: args });
  return JSON.parse((res.content as Array<{ text: string }>)[0]!.text) as Listed;
}

beforeAll(async () => {
  upstream = await startCorpusUpstream();
  const servers = Object.fromEntries(
    upstream.servers.map((s) => [s.name, { url: upstream.url(s.name), description: s.description }]),
  );
  const headers = await teamWithKey(TEAM, { servers });
  ({ client } = await connect(headers));
});

afterAll(async () => {
  await client?.close();
  await adminRequest("DELETE", `/teams/${TEAM}`);
  await upstream?.stop();
});

describe("discovery over the 297-tool corpus as upstreams", () => {
  it("federates all 22 servers' tools", async () => {
    const listed = await searchTools({ detail: "name", limit: 100 });
    expect(listed.warnings).toBeUndefined();
    expect(listed.total).toBe(CORPUS_TOOLS);
  });

  it("keeps tier 1 at three tools, ≤ 1,000 tokens (cl100k)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["execute", "get_tool_definition", "search_tools"]);
    expect(countTokens(JSON.stringify(tools))).toBeLessThanOrEqual(1_000);
  });

  it("knows every tool the labeled intents accept", async () => {
    const known = new Set<string>();
    for (const server of upstream.servers) {
      const listed = await searchTools({ server: server.name, detail: "name", limit: 100 });
      for (const tool of listed.tools) known.add(tool.name);
    }
    const accepted = new Set(loadIntents().flatMap((intent) => intent.accept));
    expect([...accepted].filter((name) => !known.has(name))).toEqual([]);
  });

  it("says who wrote each labeled intent, and names one whose author is not one of the three", () => {
    const intents = loadIntents();
    expect(new Set(intents.map((intent) => intent.author))).toEqual(new Set([1, 2, 3]));
    const [first, ...rest] = intents;
    expect(intentProblems([{ ...first, author: 4 }, ...rest])).toEqual([
      `intent ${first!.id}: author must be 1, 2, 3`,
    ]);
  });

  it("has, in each agent's set, the query it sent for every labeled intent, labels and the intent's own text kept", () => {
    const intents = loadIntents();
    for (const file of AGENT_QUERY_SETS) {
      const searched = loadAgentQueries(intents, file);
      expect(searched.map(({ task, ...labels }) => ({ ...labels, intent: task }))).toEqual(intents);
      expect(searched.filter((s) => s.intent.trim() === "")).toEqual([]);
    }
  });

  it('finds filesystem.create_directory in the top 5 for "make a new folder"', async () => {
    const found = await searchTools({ query: "make a new folder", detail: "name", limit: 5 });
    expect(found.total).toEqual(expect.any(Number));
    expect(found.total).toBeGreaterThan(0);
    expect(found.tools.map((t) => t.name)).toContain("filesystem.create_directory");
  });
});
