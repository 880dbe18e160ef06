import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { AuditEntry } from "../../workers/gateway/audit";
import { auditLogOf, auditNamespace, sha256Hex } from "../../workers/gateway/audit";
import { recordAudit } from "../../workers/gateway/audit/record";
import { AUTH, request } from "../helpers/app";
import { admin, teamWithKey as withKey } from "../helpers/teams";

const DEMO = { servers: { demo: { service: "DEMO" } } };
const teamWithKey = (team: string) => withKey(team, DEMO);

async function run(key: string, code: string, headers: Record<string, string> = {}) {
  const res = await request("/v1/execute", {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ code }),
  });
  expect(res.status).toBe(200);
  return { requestId: res.headers.get("X-Request-Id")!, body: (await res.json()) as Record<string, unknown> };
}

const audit = (key: string, query = "") => request(`/v1/audit${query}`, { headers: { "X-API-Key": key } });

/** Entries are written in the background (waitUntil, batched): poll until `count` are there. */
async function entriesOf(key: string, count: number, query = ""): Promise<AuditEntry[]> {
  return vi.waitFor(
    async () => {
      const res = await audit(key, query);
      expect(res.status).toBe(200);
      const { entries } = (await res.json()) as { entries: AuditEntry[] };
      expect(entries.length).toBeGreaterThanOrEqual(count);
      return entries;
    },
    { timeout: 30_000, interval: 50 },
  );
}

describe("audit entries", () => {
  it("records one execute entry and one entry per upstream tool call", async () => {
    const { id, key } = await teamWithKey("audit-calls");
    const code = [
      "const a = await tools.demo.list_tickets({ limit: 1 });",
      'const b = await callTool("demo.list_tickets", { status: "open", limit: 2 });',
      "return a.tickets.length + b.tickets.length;",
    ].join("\n");
    const { requestId, body } = await run(key, code);
    expect(body).toMatchObject({ result: 3 });
    const entries = await entriesOf(key, 3);
    expect(entries).toHaveLength(3);
    for (const e of entries) {
      expect(e).toMatchObject({ requestId, team: "audit-calls", keyId: id, status: "ok" });
      expect(e.error).toBeUndefined();
      expect(e.sessionId).toBeUndefined();
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.resultBytes).toBeGreaterThan(0);
    }
    // ts is when each started: the execution first, so it is listed last (newest first)
    const [second, first, execute] = entries;
    expect(execute).toMatchObject({
      kind: "execute",
      tool: "execute",
      argsSha256: await sha256Hex({ code }),
    });
    expect(execute!.resultBytes).toBe(new TextEncoder().encode(JSON.stringify(body)).byteLength);
    expect(first).toMatchObject({
      kind: "tool_call",
      tool: "demo.list_tickets",
      argsSha256: await sha256Hex({ limit: 1 }),
    });
    // key order does not change the hash
    expect(second!.argsSha256).toBe(await sha256Hex({ limit: 2, status: "open" }));
    expect(first!.ts).toBeLessThanOrEqual(second!.ts);
    expect(first!.ts).toBeGreaterThanOrEqual(execute!.ts);
  });

  it("names the user the request acted as on its execution and tool call entries", async () => {
    await teamWithKey("audit-user");
    const made = await admin("POST", "/teams/audit-user/keys", { name: "alice", user: "alice@example.com" });
    const { key } = (await made.json()) as { key: string };
    await run(key, "return (await tools.demo.list_tickets({ limit: 1 })).tickets.length;");
    const entries = await entriesOf(key, 2);
    expect(entries.map((e) => [e.kind, e.user])).toEqual([
      ["tool_call", "alice@example.com"],
      ["execute", "alice@example.com"],
    ]);
  });

  it("sizes a tool call's result as the UTF-8 bytes of its JSON", async () => {
    const { key } = await teamWithKey("audit-size");
    const { body } = await run(key, "return await tools.demo.list_customers({ limit: 5 });");
    const entries = await entriesOf(key, 2);
    const call = entries.find((e) => e.kind === "tool_call");
    expect(call).toMatchObject({ tool: "demo.list_customers", status: "ok" });
    expect(call!.resultBytes).toBe(new TextEncoder().encode(JSON.stringify(body.result)).byteLength);
  });

  it("records failures with the error's name only", async () => {
    const { key } = await teamWithKey("audit-errors");
    const code = [
      "try { await tools.demo.list_tickets({ status: 'not-a-status' }); } catch {}",
      "try { await tools.demo.no_such_tool({}); } catch {}",
      "throw new TypeError('boom with details');",
    ].join("\n");
    const { body } = await run(key, code);
    expect((body.error as { name: string }).name).toBe("TypeError");
    const entries = await entriesOf(key, 3);
    const byTool = Object.fromEntries(entries.map((e) => [e.tool, e]));
    expect(byTool.execute).toMatchObject({ status: "error", error: "TypeError" });
    expect(byTool["demo.list_tickets"]).toMatchObject({
      status: "error",
      error: "ValidationError",
      resultBytes: 0,
    });
    expect(byTool["demo.no_such_tool"]).toMatchObject({ status: "error", error: "UnknownToolError" });
    expect(JSON.stringify(entries)).not.toContain("boom");
  });

  it("stores no raw arguments, code, results or error messages", async () => {
    const { key } = await teamWithKey("audit-secrets");
    const { body } = await run(
      key,
      [
        "// marker-in-code-7f3a",
        "const t = (await tools.demo.list_tickets({ limit: 1, status: 'open' })).tickets[0];",
        "try { await tools.demo.get_ticket({ id: 'marker-in-args-91c2' }); } catch {}",
        "return t.subject;",
      ].join("\n"),
    );
    const subject = body.result as string;
    expect(subject.length).toBeGreaterThan(3);
    await entriesOf(key, 3);
    const ns = auditNamespace(env)!;
    const stored = await runInDurableObject(auditLogOf(ns, "audit-secrets"), (_instance, state) =>
      JSON.stringify(state.storage.sql.exec("SELECT * FROM entries").toArray()),
    );
    expect(stored).toContain("demo.get_ticket");
    for (const secret of ["marker-in-code", "marker-in-args", subject, "not found"]) {
      expect(stored).not.toContain(secret);
    }
  });

  it("records the MCP session an execution belongs to", async () => {
    const { key } = await teamWithKey("audit-session");
    const mcp = {
      "X-API-Key": key,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const init = await request("/mcp", {
      method: "POST",
      headers: mcp,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    const session = init.headers.get("Mcp-Session-Id")!;
    const call = await request("/mcp", {
      method: "POST",
      headers: { ...mcp, "Mcp-Session-Id": session },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "execute",
          arguments: { code: "return (await tools.demo.list_agents({})) !== null" },
        },
      }),
    });
    expect(call.status).toBe(200);
    const entries = await entriesOf(key, 2);
    expect(entries.map((e) => [e.kind, e.sessionId])).toEqual([
      ["tool_call", session],
      ["execute", session],
    ]);
  });
});

describe("GET /v1/audit", () => {
  it("shows a key only its own team's entries", async () => {
    const a = await teamWithKey("audit-team-a");
    const b = await teamWithKey("audit-team-b");
    await run(a.key, "return (await tools.demo.list_tickets({ limit: 1 })).total");
    await run(b.key, "return 1");
    const seenByA = await entriesOf(a.key, 2);
    const seenByB = await entriesOf(b.key, 1);
    expect(new Set(seenByA.map((e) => e.team))).toEqual(new Set(["audit-team-a"]));
    expect(seenByB.map((e) => [e.team, e.tool])).toEqual([["audit-team-b", "execute"]]);
    const seenByDefault = (await (await request("/v1/audit", { headers: AUTH })).json()) as {
      entries: AuditEntry[];
    };
    expect(seenByDefault.entries.filter((e) => e.team !== "default")).toEqual([]);
  });

  it("filters by tool, time and limit, newest first", async () => {
    const { key } = await teamWithKey("audit-filters");
    expect((await run(key, "await tools.demo.list_agents({}); return 1")).body).toMatchObject({ result: 1 });
    const second = await run(
      key,
      "await tools.demo.list_tickets({ limit: 1 }); await tools.demo.list_tickets({ limit: 2 }); return 2",
    );
    expect(second.body).toMatchObject({ result: 2 });
    const all = await entriesOf(key, 5);
    expect(all).toHaveLength(5);
    const times = all.map((e) => e.ts);
    expect(times).toEqual([...times].sort((x, y) => y - x));

    const tickets = await entriesOf(key, 2, "?tool=demo.list_tickets");
    expect(tickets.map((e) => e.argsSha256)).toEqual([
      await sha256Hex({ limit: 2 }),
      await sha256Hex({ limit: 1 }),
    ]);
    const one = await entriesOf(key, 1, "?limit=1");
    expect(one).toEqual([all[0]]);

    const oldest = all[all.length - 1]!.ts;
    const newest = all[0]!.ts;
    expect(await entriesOf(key, 5, `?since=${oldest}&until=${newest}`)).toEqual(all);
    const future = new Date(newest + 60_000).toISOString();
    const none = (await (await audit(key, `?since=${encodeURIComponent(future)}`)).json()) as {
      entries: unknown[];
    };
    expect(none.entries).toEqual([]);
    const before = (await (await audit(key, `?until=${oldest - 1}`)).json()) as { entries: unknown[] };
    expect(before.entries).toEqual([]);
  });

  it.each([
    ["?since=yesterday", /since: expected ms since epoch or an ISO 8601 date-time/],
    ["?until=2026-13-45T00:00:00Z", /until: /],
    ["?limit=0", /limit: must be at least 1/],
    ["?limit=5000", /limit: must be at most 1000/],
    ["?limit=ten", /limit: expected a whole number/],
    ["?since=2000&until=1000", /since: must not be after until/],
    ["?tool=", /tool: /],
  ])("answers %s with 400 naming the field", async (query, message) => {
    const res = await audit(AUTH["X-API-Key"], query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(message);
  });

  it("needs an API key", async () => {
    expect((await request("/v1/audit")).status).toBe(401);
  });

  it("first writes the entries this isolate still holds for the team", async () => {
    const { id, key } = await teamWithKey("audit-unsent");
    const pending: Promise<unknown>[] = [];
    const held: AuditEntry = {
      ts: Date.now(),
      requestId: "req-unsent",
      team: "audit-unsent",
      keyId: id,
      kind: "execute",
      tool: "execute",
      argsSha256: "0".repeat(64),
      status: "ok",
      durationMs: 1,
      resultBytes: 1,
    };
    recordAudit(env, (p) => pending.push(p), [held]);
    await new Promise((r) => setTimeout(r, 0)); // queued, inside the batch window
    const { entries } = (await (await audit(key)).json()) as { entries: AuditEntry[] };
    expect(entries.map((e) => e.requestId)).toEqual(["req-unsent"]);
    await Promise.all(pending);
    expect(await entriesOf(key, 1)).toHaveLength(1);
  });
});
