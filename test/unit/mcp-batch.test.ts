import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MCP_HEADERS, request } from "../helpers/app";
import { teamWithKey } from "../helpers/teams";

interface RpcMessage {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { code?: string } };
}

let nextId = 1;
const call = (method: string, params: unknown = {}) => ({ jsonrpc: "2.0", id: nextId++, method, params });
const notify = (method: string, params: unknown = {}) => ({ jsonrpc: "2.0", method, params });
const execute = (code: string) => call("tools/call", { name: "execute", arguments: { code } });
const cancel = (requestId: number | string) =>
  notify("notifications/cancelled", { requestId, reason: "test" });

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return request("/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

/** Headers of a new session negotiated at `protocolVersion` (and `headers`, e.g. another team's key). */
async function open(protocolVersion: string, headers: Record<string, string> = {}) {
  const res = await post(
    call("initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "batch-test", version: "1" },
    }),
    headers,
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ result: { protocolVersion } });
  const id = res.headers.get("Mcp-Session-Id");
  expect(id).toBeTruthy();
  return { ...headers, "Mcp-Session-Id": id!, "MCP-Protocol-Version": protocolVersion };
}

/** The JSON-RPC error of a refused POST, checked against its HTTP status and JSON-RPC code. */
async function refused(res: Response, status: number, code: number): Promise<RpcMessage["error"]> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as RpcMessage;
  expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
  return body.error;
}

async function servedNormally(headers: Record<string, string>): Promise<void> {
  const res = await post(call("tools/list"), headers);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { tools: Array<{ name: string }> } };
  expect(body.result.tools.map((t) => t.name)).toContain("execute");
}

describe("MCP batches: initialize and sessions", () => {
  it("refuses initialize batched with a tool call (400, -32600) and opens no session", async () => {
    for (const init of [
      call("initialize", {}),
      call("initialize", {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      }),
    ]) {
      const res = await post([init, execute("return 6 * 7")]);
      expect(res.headers.get("Mcp-Session-Id")).toBeNull();
      const error = await refused(res, 400, -32600);
      expect(error?.message).toBe(
        "Invalid Request: initialize must be sent alone, never in a JSON-RPC batch",
      );
      expect(error?.data?.code).toBe("initialize_in_batch");
    }
    await servedNormally(await open("2025-11-25"));
  });

  it("refuses initialize alone in a batch (400, -32600)", async () => {
    const error = await refused(
      await post([
        call("initialize", {
          protocolVersion: "2025-03-26",
          capabilities: {},
          clientInfo: { name: "x", version: "1" },
        }),
      ]),
      400,
      -32600,
    );
    expect(error?.message).toMatch(/initialize must be sent alone/);
  });

  it("needs the session for batched messages: 400 without, 404 unknown or another team's", async () => {
    const batch = () => [call("tools/list"), execute("return 1")];
    const missing = await refused(await post(batch()), 400, -32600);
    expect(missing?.message).toMatch(/Mcp-Session-Id header is required/);
    await refused(await post(batch(), { "Mcp-Session-Id": crypto.randomUUID() }), 404, -32001);
    const { key } = await teamWithKey("batch-other");
    const theirs = await open("2025-03-26", { "X-API-Key": key });
    await refused(await post(batch(), { "Mcp-Session-Id": theirs["Mcp-Session-Id"] }), 404, -32001);
    const res = await post(batch(), theirs);
    expect(res.status).toBe(200);
  });

  it("answers an empty batch with 400 invalid request, with or without a session", async () => {
    expect((await refused(await post([]), 400, -32600))?.message).toBe(
      "Invalid Request: the JSON-RPC batch is empty",
    );
    const session = await open("2025-03-26");
    expect((await refused(await post([], session), 400, -32600))?.data?.code).toBe("empty_batch");
    await servedNormally(session);
  });

  it("refuses a batch that uses one request id twice (400, -32600)", async () => {
    const session = await open("2025-03-26");
    const error = await refused(
      await post(
        [
          { jsonrpc: "2.0", id: "dup", method: "ping" },
          { jsonrpc: "2.0", id: "dup", method: "tools/list" },
        ],
        session,
      ),
      400,
      -32600,
    );
    expect(error?.message).toBe('Invalid Request: request id "dup" appears more than once in the batch');
    await servedNormally(session);
  });
});

describe("MCP batches: protocol versions", () => {
  for (const version of ["2025-11-25", "2025-06-18"]) {
    it(`refuses batches on a ${version} session (400, -32600, naming the version)`, async () => {
      const session = await open(version);
      const error = await refused(await post([call("tools/list"), call("ping")], session), 400, -32600);
      expect(error?.message).toBe(
        `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${version} (removed in 2025-06-18); send one message per request`,
      );
      expect(error?.data?.code).toBe("batch_not_supported");
      await refused(await post([notify("notifications/initialized")], session), 400, -32600);
      await servedNormally(session);
    });
  }

  it("refuses a batch on a 2025-03-26 session that declares MCP-Protocol-Version 2025-11-25", async () => {
    const session = await open("2025-03-26");
    const error = await refused(
      await post([call("ping"), call("ping")], { ...session, "MCP-Protocol-Version": "2025-11-25" }),
      400,
      -32600,
    );
    expect(error?.message).toMatch(/protocol version 2025-11-25/);
  });

  it("serves batches on a 2025-03-26 session, one response per request", async () => {
    const session = await open("2025-03-26");
    const list = call("tools/list");
    const run = execute("return 6 * 7");
    const res = await post([list, run, notify("notifications/initialized")], session);
    expect(res.status).toBe(200);
    const responses = (await res.json()) as RpcMessage[];
    expect(responses.map((r) => r.id).sort()).toEqual([list.id, run.id].sort());
    expect(responses.find((r) => r.id === run.id)?.result).toMatchObject({
      structuredContent: { result: 42 },
    });
  });

  it("caps 2025-03-26 batches at 20 messages (400, -32600 above)", async () => {
    const session = await open("2025-03-26");
    const pings = (n: number) => Array.from({ length: n }, () => call("ping"));
    const error = await refused(await post(pings(21), session), 400, -32600);
    expect(error?.message).toBe("Invalid Request: a JSON-RPC batch may hold at most 20 messages (got 21)");
    expect(error?.data?.code).toBe("batch_too_large");
    const ok = await post(pings(20), session);
    expect(ok.status).toBe(200);
    expect((await ok.json()) as RpcMessage[]).toHaveLength(20);
  });

  it("answers a batch of only notifications and responses with 202", async () => {
    const session = await open("2025-03-26");
    const res = await post(
      [notify("notifications/initialized"), cancel(123_456), { jsonrpc: "2.0", id: 99, result: {} }],
      session,
    );
    expect(res.status).toBe(202);
    await servedNormally(session);
  });
});

describe("MCP batches: cancellation", () => {
  it("runs a request to completion when its cancellation comes in the same batch, before or after it", async () => {
    const session = await open("2025-03-26");
    for (const order of ["after", "before"]) {
      const run = execute("return 6 * 7");
      const res = await post(order === "after" ? [run, cancel(run.id)] : [cancel(run.id), run], session);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: run.id, result: { structuredContent: { result: 42 } } });
    }
    await servedNormally(session);
  });

  it("answers a cancellation of an unknown request in its own POST with 202", async () => {
    for (const version of ["2025-11-25", "2025-03-26"]) {
      const session = await open(version);
      expect((await post(cancel(987_654), session)).status).toBe(202);
      await servedNormally(session);
    }
  });
});

describe("rate limits per JSON-RPC message", () => {
  const keyFor = async (team: string, requestsPerMinute: number) =>
    (await teamWithKey(team, { limits: { requestsPerMinute } })).key;
  const pings = (n: number) => Array.from({ length: n }, () => call("ping"));

  it("takes one credit per message of a batch, all or none, then serves the next request", async () => {
    const key = await keyFor("rl-batch", 6);
    const session = await open("2025-03-26", { "X-API-Key": key });
    const four = await post(pings(4), session);
    expect(four.status).toBe(200);
    expect(four.headers.get("RateLimit-Remaining")).toBe("1");

    const limited = await post(pings(2), session);
    const error = await refused(limited, 429, -32000);
    expect(error?.message).toMatch(
      /^Too many requests: this batch of 2 messages counts as 2 requests \(one per message\)/,
    );
    expect(error?.data?.code).toBe("rate_limited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("RateLimit-Limit")).toBe("6");
    expect(limited.headers.get("RateLimit-Remaining")).toBe("1");

    const one = await post(call("ping"), session);
    expect(one.status).toBe(200);
    expect(one.headers.get("RateLimit-Remaining")).toBe("0");
  });

  it("refuses a batch of tool calls larger than what is left, running none of them", async () => {
    const key = await keyFor("rl-batch-calls", 10);
    const session = await open("2025-03-26", { "X-API-Key": key });
    const calls = Array.from({ length: 15 }, () => execute("return 1"));
    const limited = await post(calls, session);
    expect((await refused(limited, 429, -32000))?.message).toMatch(/more than this key's 10 per minute/);
    expect(limited.headers.get("RateLimit-Remaining")).toBe("9");
    const nine = Array.from({ length: 9 }, () => execute("return 1"));
    expect((await post(nine, session)).status).toBe(200);
  });

  it("says when a batch needs more credits than the key's limit per minute", async () => {
    const key = await keyFor("rl-batch-over", 3);
    const res = await post(pings(5), { "X-API-Key": key });
    const error = await refused(res, 429, -32000);
    expect(error?.message).toBe(
      "Too many requests: this batch of 5 messages counts as 5 requests (one per message), more than this key's 3 per minute; send smaller batches",
    );
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
  });

  it("still charges a credit for a body that is not JSON", async () => {
    const key = await keyFor("rl-batch-bad", 1);
    const bad = await request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, "X-API-Key": key },
      body: "[",
    });
    await refused(bad, 400, -32700);
    await refused(await post(call("ping"), { "X-API-Key": key }), 429, -32000);
  });

  it("RateLimiter.take(perMinute, n) is atomic under concurrent takes", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("unit:take-n"));
    const started = Date.now();
    const results = await Promise.all([stub.take(10, 4), stub.take(10, 4), stub.take(10, 4)]);
    const elapsedSeconds = Math.ceil((Date.now() - started) / 1000);
    expect(results.filter((r) => r.allowed)).toHaveLength(2);
    const denied = results.find((r) => !r.allowed)!;
    expect(denied.remaining).toBe(2);
    // 2 credits short at 10 a minute: 12 s, less what refilled while the takes ran (over 1 s on a
    // starved machine).
    expect(denied.retryAfterSeconds).toBeLessThanOrEqual(12);
    expect(denied.retryAfterSeconds).toBeGreaterThanOrEqual(12 - elapsedSeconds);
    expect((await stub.take(10, 2)).allowed).toBe(true);
  });
});
