import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { GatewayEnv } from "../../workers/gateway/env";
import { ExecutionLedger } from "../../workers/gateway/execution/ledger";
import { createSession } from "../../workers/gateway/sessions/store";
import { AUTH, postJson, request, rpc } from "../helpers/app";
import { bridgeWork, testContext } from "../helpers/context";
import { execute } from "../helpers/execute";

// The gateway side of sessions: which session an execution runs in, what the bridge lets through
// to the session object, and the REST routes. Storage itself: session-storage.test.ts.
const gatewayEnv = env as unknown as GatewayEnv;

describe("which session an execution runs in", () => {
  it("makes a session for an MCP caller without one on first use, and only then", async () => {
    const ctx = { ...testContext(), via: "mcp" as const };
    const untouched = await execute(ctx, { code: "return 1" });
    expect(untouched.sessionId).toBeUndefined();
    const used = await execute(ctx, {
      code: "await state.set('a', 1); await state.set('b', 2); return await state.keys()",
    });
    expect(used).toMatchObject({ result: ["a", "b"], sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const again = await execute(ctx, { code: "return await state.get('a')", sessionId: used.sessionId });
    expect(again).toMatchObject({ result: 1, sessionId: used.sessionId });
  });

  it("gives a REST caller without sessionId a NoSessionError for state, workspace and session", async () => {
    const r = await execute(testContext(), {
      code: `const out = [];
for (const f of [() => state.get("k"), () => workspace.list(), () => session.info()]) {
  try { await f(); } catch (e) { out.push(e.name); }
}
return out;`,
    });
    expect(r.result).toEqual(["NoSessionError", "NoSessionError", "NoSessionError"]);
    expect(r.sessionId).toBeUndefined();
  });

  it("refuses another team's session as not found", async () => {
    const other = await createSession(gatewayEnv, { kind: "api", team: "someone-else", ttlSeconds: 60 });
    await expect(execute(testContext(), { code: "return 1", sessionId: other.id })).rejects.toMatchObject({
      name: "GatewayError",
      code: "session_not_found",
    });
  });
});

describe("session calls through the bridge", () => {
  const inSession = async (code: string, limits = {}) => {
    const session = await createSession(gatewayEnv, { kind: "api", team: "default", ttlSeconds: 60 });
    return execute(testContext(limits), { code, sessionId: session.id });
  };

  it("counts them against EXEC_MAX_SESSION_CALLS", async () => {
    const r = await inSession(
      "const out = []; for (let i = 0; i < 4; i++) { try { await state.set('k' + i, i); out.push('ok'); } catch (e) { out.push(e.name); } } return out;",
      { maxSessionCalls: 2 },
    );
    expect(r.result).toEqual(["ok", "ok", "LimitError", "LimitError"]);
  });

  it("checks keys, values and paths, in the isolate and again at the gateway", async () => {
    const r = await inSession(`const out = [];
const tries = [
  () => state.set("", 1),
  () => state.set("k".repeat(513), 1),
  () => state.set("k", undefined),
  () => state.set("k", "x".repeat(1_000_001)),
  () => workspace.write("a/./b", "x"),
  () => workspace.write("ok.txt", 42),
];
for (const t of tries) { try { await t(); out.push("ok"); } catch (e) { out.push(e.name); } }
return out;`);
    expect(r.result).toEqual([
      "TypeError",
      "TypeError",
      "TypeError",
      "QuotaError",
      "InvalidPathError",
      "TypeError",
    ]);
  });

  it("validates every call at the gateway too, whatever the runtime sent", async () => {
    const ctx = testContext();
    const work = await bridgeWork(ctx, new ExecutionLedger(ctx.config.limits));
    const forged = [
      { op: "nope" },
      { op: "workspace.write", path: "a", data: "not bytes" },
      { op: "state.set", key: "k", json: "x".repeat(1_000_001) },
      { op: "state.get", key: 7 },
      "state.get",
    ];
    for (const call of forged) {
      expect(await work.session(call)).toMatchObject({ ok: false, error: { name: "TypeError" } });
    }
  });

  it("keeps data written as a string and read as bytes consistent (UTF-8)", async () => {
    const r = await inSession(
      "await workspace.write('t.txt', 'héllo ✓'); const b = await workspace.readBytes('t.txt'); return [b.length, await workspace.read('t.txt')];",
    );
    expect(r.result).toEqual([10, "héllo ✓"]);
  });
});

describe("times that code and clients read", () => {
  it("are ISO 8601 text in UTC: files, session info and history, skills, REST", async () => {
    const before = Date.now() - 1_000;
    const made = (await (await postJson("/v1/sessions", {})).json()) as { sessionId: string };
    const sessionId = made.sessionId;
    const run = async (code: string) =>
      ((await (await postJson("/v1/execute", { code, sessionId })).json()) as { result: unknown }).result;
    await run("return 1");
    const skill = `iso_time_${crypto.randomUUID().slice(0, 8)}`;
    const seen = (await run(`const written = await workspace.write("t.txt", "x");
await skills.save({ name: "${skill}", description: "times", code: "return 1;" });
const info = await session.info();
return [written.modifiedAt, (await workspace.list())[0].modifiedAt, info.createdAt, info.lastSeenAt,
  (await session.history())[0].at, (await skills.list()).find((s) => s.name === "${skill}").updatedAt,
  (await skills.get("${skill}")).updatedAt];`)) as string[];
    const rest = (await (await request(`/v1/sessions/${sessionId}`, { headers: AUTH })).json()) as {
      createdAt: string;
    };
    const listed = (await (await request("/v1/skills", { headers: AUTH })).json()) as {
      skills: Array<{ name: string; updatedAt: string }>;
    };
    const times = [...seen, rest.createdAt, listed.skills.find((s) => s.name === skill)?.updatedAt];
    expect(times).toHaveLength(9);
    for (const time of times) {
      expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(time as string)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(time as string)).toBeLessThanOrEqual(Date.now());
    }
  });
});

describe("REST sessions", () => {
  it("POST makes one, GET tells its info, DELETE ends it (then 404)", async () => {
    const made = await postJson("/v1/sessions", {});
    expect(made.status).toBe(201);
    const { sessionId } = (await made.json()) as { sessionId: string };
    const info = await request(`/v1/sessions/${sessionId}`, { headers: AUTH });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ id: sessionId, bytesUsed: 0, files: 0 });
    const del = await request(`/v1/sessions/${sessionId}`, { method: "DELETE", headers: AUTH });
    expect(del.status).toBe(204);
    expect((await request(`/v1/sessions/${sessionId}`, { method: "DELETE", headers: AUTH })).status).toBe(
      404,
    );
    expect((await request("/v1/sessions/not-a-session", { headers: AUTH })).status).toBe(404);
  });

  it("is not accepted as an Mcp-Session-Id (it is a state container, not an MCP session)", async () => {
    const made = (await (await postJson("/v1/sessions", {})).json()) as { sessionId: string };
    const res = await rpc("tools/list", {}, { "Mcp-Session-Id": made.sessionId });
    expect(res.status).toBe(404);
  });
});

describe("session.history()", () => {
  const open = async () =>
    ((await (await postJson("/v1/sessions", {})).json()) as { sessionId: string }).sessionId;
  const run = async (code: string, sessionId: string) =>
    (await (await postJson("/v1/execute", { code, sessionId })).json()) as {
      result?: unknown;
      error?: { name: string };
    };

  it("lists the session's own executions, newest first, from the audit log", async () => {
    const id = await open();
    const other = await open();
    await run("return 1", id);
    await run("const { tickets } = await tools.demo.list_tickets({ limit: 2 }); return tickets.length", id);
    await run("throw new TypeError('not this text')", id);
    await run("return 'elsewhere'", other);
    const { result } = await run("return await session.history()", id);
    const history = result as Array<{ at: string; toolCalls: number; error?: string; resultBytes: number }>;
    expect(history.map((h) => [h.toolCalls, h.error ?? null])).toEqual([
      [0, "TypeError"],
      [1, null],
      [0, null],
    ]);
    expect(Date.parse(history[0]!.at)).toBeGreaterThanOrEqual(Date.parse(history[1]!.at));
    expect(history[2]!.resultBytes).toBeGreaterThan(0);
    expect(JSON.stringify(history)).not.toContain("not this text");
    const { result: theirs } = await run("return await session.history()", other);
    expect(theirs).toHaveLength(1);
  });

  it("is gone with its session", async () => {
    const id = await open();
    await run("return 1", id);
    expect((await request(`/v1/sessions/${id}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
    expect(
      (await postJson("/v1/execute", { code: "return await session.history()", sessionId: id })).status,
    ).toBe(404);
  });
});

describe("PII tokens in a session", () => {
  it("tokenizes the result and puts the real value back in a later tool call's arguments", async () => {
    const session = await createSession(gatewayEnv, { kind: "api", team: "default", ttlSeconds: 60 });
    const base = testContext();
    const ctx = { ...base, config: { ...base.config, pii: "tokenize" as const } };
    const first = await execute(ctx, {
      sessionId: session.id,
      code: `const { customers } = await tools.demo.search_customers({ query: "garcia", limit: 1 });
console.log(customers[0].email);
return { id: customers[0].id, email: customers[0].email, seen: customers[0].email.includes("@") };`,
    });
    const row = first.result as { id: string; email: string; seen: boolean };
    expect(row).toMatchObject({ email: "[EMAIL_1]", seen: true });
    expect(first.logs).toEqual(["[log] [EMAIL_1]"]);
    const second = await execute(ctx, {
      sessionId: session.id,
      code: `const found = await tools.demo.search_customers({ query: "[EMAIL_1]" });
return found.customers.map((c) => c.id);`,
    });
    expect(second.result).toEqual([row.id]);
    // without the session, the token means nothing: it reaches the upstream as it is
    const elsewhere = await execute(ctx, {
      code: `return (await tools.demo.search_customers({ query: "[EMAIL_1]" })).total;`,
    });
    expect(elsewhere.result).toBe(0);
  });
});
