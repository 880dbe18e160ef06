import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { limiter } from "../../workers/gateway/admission/limiter";
import { createApp } from "../../workers/gateway/app";
import { auditLogOf } from "../../workers/gateway/audit/store";
import worker from "../../workers/gateway/index";
import { type StorageCalls, storageCalls } from "../../workers/gateway/timing/storage-meter";
import { MCP_HEADERS, request } from "../helpers/app";
import { admin, teamWithKey } from "../helpers/teams";

type Result = { result?: unknown; error?: { name: string } };
const SLOW = "await new Promise((r) => setTimeout(r, 300)); return 1";

function restExecute(key: string, body: unknown): Promise<Response> {
  return request("/v1/execute", {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function mcpSession(key: string): Promise<Record<string, string>> {
  const headers = { ...MCP_HEADERS, "X-API-Key": key };
  const res = await request("/mcp", {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  expect(res.status).toBe(200);
  return {
    ...headers,
    "Mcp-Session-Id": res.headers.get("Mcp-Session-Id")!,
    "MCP-Protocol-Version": "2025-11-25",
  };
}

let rpcId = 1;
function mcpExecute(headers: Record<string, string>, args: Record<string, unknown>): Promise<Response> {
  return request("/mcp", {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: rpcId++,
      method: "tools/call",
      params: { name: "execute", arguments: args },
    }),
  });
}

const structured = async (res: Response): Promise<Result> =>
  ((await res.json()) as { result: { structuredContent: Result } }).result.structuredContent;

describe("one limiter call per request: key's credits and the team's execution lease together", () => {
  it("refuses a revoked key on the very next request", async () => {
    const { id, key } = await teamWithKey("adm-revoke");
    expect((await restExecute(key, { code: "return 1" })).status).toBe(200);
    expect((await admin("DELETE", `/keys/${id}`)).status).toBe(204);
    expect((await restExecute(key, { code: "return 1" })).status).toBe(401);
  });

  it("keeps the rate limit exact for concurrent executions over REST and MCP", async () => {
    const { key } = await teamWithKey("adm-exact", { limits: { requestsPerMinute: 8, maxConcurrent: 100 } });
    const session = await mcpSession(key); // one credit
    const calls = [
      ...Array.from({ length: 6 }, () => restExecute(key, { code: "return 1" })),
      ...Array.from({ length: 6 }, () => mcpExecute(session, { code: "return 1" })),
    ];
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("keeps the concurrency cap exact for lone MCP execute calls", async () => {
    const { key } = await teamWithKey("adm-cap", { limits: { maxConcurrent: 2 } });
    const session = await mcpSession(key);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => mcpExecute(session, { code: SLOW }).then(structured)),
    );
    expect(results.filter((r) => r.result === 1)).toHaveLength(2);
    expect(results.filter((r) => r.error?.name === "ConcurrencyLimitError")).toHaveLength(3);
    expect((await structured(await mcpExecute(session, { code: "return 2" }))).result).toBe(2);
  });

  it("releases the lease when the request fails before, during or after the execution", async () => {
    const { key } = await teamWithKey("adm-release", { limits: { maxConcurrent: 1 } });
    const session = await mcpSession(key);
    expect((await restExecute(key, "{ not json")).status).toBe(400);
    expect((await restExecute(key, { code: 1 })).status).toBe(400);
    const unknown = { ...session, "Mcp-Session-Id": crypto.randomUUID() };
    expect((await mcpExecute(unknown, { code: "return 1" })).status).toBe(404);
    const thrown = await structured(await mcpExecute(session, { code: "throw new Error('x')" }));
    expect(thrown.error?.name).toBe("Error");
    const missing = await structured(
      await mcpExecute(session, { code: "return 1", sessionId: crypto.randomUUID() }),
    );
    expect(missing.error?.name).toBe("SessionNotFoundError");
    const ok = (await (await restExecute(key, { code: "return 3" })).json()) as Result;
    expect(ok.result).toBe(3);
    expect((await structured(await mcpExecute(session, { code: "return 4" }))).result).toBe(4);
  });

  it("RateLimiter.admit takes credits and leases atomically under concurrent calls", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("unit:admit"));
    const lease = { max: 3, ttlMs: 60_000 };
    const admitted = await Promise.all(Array.from({ length: 8 }, () => stub.admit("k1", 5, 1, lease)));
    expect(admitted.filter((a) => a.allowed)).toHaveLength(5);
    expect(admitted.filter((a) => !a.allowed).every((a) => a.lease === undefined)).toBe(true);
    const held = admitted.flatMap((a) => (a.lease ? [a.lease] : []));
    expect(held).toHaveLength(3);
    expect(admitted.filter((a) => a.allowed && a.lease === null)).toHaveLength(2);
    expect((await stub.admit("k2", 5, 1, lease)).lease).toBeNull();
    await stub.release([held[0]!]);
    expect(typeof (await stub.admit("k2", 5, 1, lease)).lease).toBe("string");
  });

  it("RateLimiter.admit returns the leases it is handed before it takes one", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("unit:admit-released"));
    const one = { max: 1, ttlMs: 60_000 };
    const first = (await stub.admit("k", 100, 1, one)).lease;
    expect(typeof first).toBe("string");
    expect((await stub.admit("k", 100, 1, one)).lease).toBeNull();
    const next = (await stub.admit("k", 100, 1, one, [first!, "not-a-lease"])).lease;
    expect(typeof next).toBe("string");
    expect(next).not.toBe(first);
  });

  it("returns an ended execution's lease with the next request, or on its own shortly after", async () => {
    const { key } = await teamWithKey("adm-piggyback", { limits: { maxConcurrent: 1 } });
    const app = createApp();
    const send = (n: number) => {
      const ctx = createExecutionContext();
      const res = app.request(
        "/v1/execute",
        {
          method: "POST",
          headers: { "X-API-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify({ code: `return ${n}` }),
        },
        env,
        ctx,
      );
      return { res, ctx };
    };
    // Back to back, before the first request's lease could be returned on its own (RELEASE_WINDOW_MS):
    // the second admit carries it.
    const a = send(1);
    expect(((await (await a.res).json()) as Result).result).toBe(1);
    const b = send(2);
    expect(((await (await b.res).json()) as Result).result).toBe(2);
    await Promise.all([waitOnExecutionContext(a.ctx), waitOnExecutionContext(b.ctx)]);
    // Nothing came after the second: its lease went back by itself.
    const lease = await limiter(env, "adm-piggyback").acquire(1, 60_000);
    expect(typeof lease).toBe("string");
    await limiter(env, "adm-piggyback").release([lease!]);
  });

  it("returns a lone execution's lease in the call that appends its audit entry: two Durable Object requests", async () => {
    const { key } = await teamWithKey("adm-with-audit", { limits: { maxConcurrent: 1 } });
    const ctx = createExecutionContext();
    const timing: Record<string, string> = { PHASE_TIMING: "on" };
    const before: StorageCalls = storageCalls();
    const res = await worker.fetch(
      new Request<unknown, IncomingRequestCfProperties>("http://gateway/v1/execute", {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({ code: "return 5" }),
      }),
      { ...env, ...timing },
      ctx,
    );
    expect(((await res.json()) as Result).result).toBe(5);
    await waitOnExecutionContext(ctx);
    // the admit (credits and lease), then the lease's return with the audit append
    expect(storageCalls().doRequest - before.doRequest).toBe(2);
    const entries = await auditLogOf(env.AUDIT, "adm-with-audit").query({ kind: "execute" });
    expect(entries.map((e) => e.status)).toEqual(["ok"]);
    const lease = await limiter(env, "adm-with-audit").acquire(1, 60_000);
    expect(typeof lease).toBe("string");
  });
});

describe("the direct MCP execute path", () => {
  it("answers as the SDK does: same result object, and unusual calls still go through the SDK", async () => {
    const { key } = await teamWithKey("adm-direct");
    const session = await mcpSession(key);
    const direct = await mcpExecute(session, { code: "console.log('hi'); return { a: 1 }" });
    expect(direct.status).toBe(200);
    expect(direct.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await direct.json()) as { jsonrpc: string; id: number; result: Record<string, unknown> };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.result.isError).toBe(false);
    const content = body.result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content[0]!.text)).toEqual(body.result.structuredContent);
    expect(body.result.structuredContent).toMatchObject({ result: { a: 1 }, logs: ["[log] hi"] });

    const invalid = await mcpExecute(session, { code: "return 1", timeoutMs: -5 });
    const refused = (await invalid.json()) as {
      result: { isError: boolean; content: Array<{ text: string }> };
    };
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0]!.text).toMatch(/Input validation error/);

    const noAccept = await mcpExecute({ ...session, Accept: "application/json" }, { code: "return 1" });
    expect(noAccept.status).toBe(406);
  });
});
