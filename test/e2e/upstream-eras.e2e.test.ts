import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, serveEraUpstreams } from "../../scripts/lib/era-upstreams.mjs";
import { connect, execute, teamWithKey } from "./client";

// The gateway's upstream client against both protocol eras, beside the stack: `modern` speaks MCP
// 2026-07-28 (createMcpHandler of @modelcontextprotocol/server), `old` only 2025-era streamable HTTP
// with sessions (the v1 SDK). Each counts the JSON-RPC methods it receives. (The SSE-only server of the
// stack is reached in federation.e2e.test.ts.)
let upstreams: Awaited<ReturnType<typeof serveEraUpstreams>>;
let client: Client;

beforeAll(async () => {
  upstreams = await serveEraUpstreams();
  const headers = await teamWithKey("e2e-eras", {
    servers: {
      modern: { url: `${upstreams.base}/modern/mcp`, description: "Speaks MCP 2026-07-28" },
      old: { url: `${upstreams.base}/legacy/mcp`, description: "Speaks 2025-era MCP with sessions" },
    },
  });
  ({ client } = await connect(headers));
});
afterAll(async () => {
  await client?.close();
  await upstreams?.close();
});

async function searchNames(): Promise<string[]> {
  const res = await client.callTool({ name: "search_tools", arguments: { detail: "name", limit: 50 } });
  const listed = JSON.parse((res.content as Array<{ text: string }>)[0]!.text) as {
    tools: { name: string }[];
  };
  return listed.tools.map((t) => t.name).sort();
}

describe("a 2026-07-28 upstream", () => {
  it("is discovered and called from code over server/discover, with no initialize and no session", async () => {
    expect(await searchNames()).toEqual(expect.arrayContaining(["modern.add", "modern.shout"]));
    const r = await execute(client, {
      code: `const a = await tools.modern.add({ a: 2, b: 3 });
const b = await tools.modern.add({ a: 10, b: 5 });
const c = await tools.modern.shout({ text: "hi" });
return { a, b, c };`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({ a: { sum: 5 }, b: { sum: 15 }, c: "HI" });
    const wire = upstreams.modern.wire;
    expect(count(wire, "server/discover")).toBeGreaterThanOrEqual(1);
    expect(count(wire, "initialize")).toBe(0);
    expect(count(wire, "notifications/initialized")).toBe(0);
    expect(count(wire, "tools/list")).toBe(1);
    expect(count(wire, "tools/call")).toBe(3);
    expect(wire.sessionHeaders.every((h) => h === "-")).toBe(true);
    // The probe is made once per isolate, not per call.
    expect(count(wire, "server/discover")).toBeLessThan(count(wire, "tools/call"));
  });
});

describe("a 2025-only upstream", () => {
  it("still works: initialize after the refused probe, then one session reused across calls", async () => {
    expect(await searchNames()).toContain("old.add");
    const r = await execute(client, {
      code: `const out = [];
for (let i = 0; i < 4; i++) out.push(await tools.old.add({ a: i, b: 1 }));
return out;`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual([{ sum: 1 }, { sum: 2 }, { sum: 3 }, { sum: 4 }]);
    const wire = upstreams.legacy.wire;
    expect(count(wire, "initialize")).toBe(1);
    expect(wire.sessionsIssued).toBe(1);
    expect(count(wire, "tools/call")).toBe(4);
    const calls = wire.methods.flatMap((m, i) => (m === "tools/call" ? [wire.sessionHeaders[i]] : []));
    expect(new Set(calls).size).toBe(1);
    expect(calls[0]).not.toBe("-");
    // server/discover was tried once (answered 400: no session), then never again.
    expect(count(wire, "server/discover")).toBe(1);
  });
});
