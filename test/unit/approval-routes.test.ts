import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ApprovalView } from "../../durable-objects/approvals/approval";
import { createApp } from "../../workers/gateway/app";
import { answerApprovals } from "../../workers/gateway/mcp/approval-questions";
import type { RequestContext } from "../../workers/gateway/request/context";
import { adminVia, teamWithKey } from "../helpers/teams";
import { deskHost, pending } from "./approval-desk-host";

// The gateway reaches the instance named "desk" (workers/gateway/approvals/desk.ts).
const host = deskHost("desk");
const { desk } = host;
const app = createApp();

async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.request(path, init, host.env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const admin = adminVia(request);

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

const approvePage = (id: string, form: Record<string, string>) =>
  request(`/approve/${id}`, { method: "POST", body: new URLSearchParams(form) });

describe("admin approvals", () => {
  it("needs the admin token", async () => {
    expect((await request("/admin/approvals")).status).toBe(401);
    const wrong = await request("/admin/approvals", { headers: { Authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
  });

  it("lists a team's pending approvals with how long they wait", async () => {
    const a = pending("routes-list", { createdAt: Date.now() - 5_000 });
    await desk.open(a);
    await desk.open(pending("routes-list-other"));
    const res = await admin("GET", "/approvals?team=routes-list");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { pending: Array<ApprovalView & { waitingMs: number }>; decided: [] };
    expect(body.pending.map((p) => p.id)).toEqual([a.id]);
    expect(body.pending[0]?.waitingMs).toBeGreaterThanOrEqual(5_000);
    expect(body.decided).toEqual([]);
  });

  it("answers a malformed or unknown id with 404", async () => {
    for (const id of ["apr_XYZ", "apr_0123", "../teams"]) {
      const res = await admin("POST", `/approvals/${id}`, { approve: true });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
    }
    expect((await admin("POST", `/approvals/${pending("routes-none").id}`, { approve: true })).status).toBe(
      404,
    );
  });

  it.each([
    ["approve as text", { approve: "yes" }, /approve/],
    ["no approve", { remember: "call" }, /approve/],
    ["a bad remember", { approve: true, remember: "forever" }, /remember/],
    ["an unknown field", { approve: true, reason: "ok" }, /reason/],
  ])("answers a body with %s with 400 naming the field", async (_name, body, field) => {
    const a = pending("routes-body");
    await desk.open(a);
    const res = await admin("POST", `/approvals/${a.id}`, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(field);
    expect((await desk.get(a.id))?.decision).toBeUndefined();
  });

  it("decides as the operator, and answers a second decision with 409 naming the first", async () => {
    const a = pending("routes-decide");
    await desk.open(a);
    const res = await admin("POST", `/approvals/${a.id}`, { approve: false, remember: "session" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: a.id,
      status: "denied",
      by: "operator",
      remember: "session",
    });
    const again = await admin("POST", `/approvals/${a.id}`, { approve: true });
    expect(again.status).toBe(409);
    const error = await errorOf(again);
    expect(error.code).toBe("already_decided");
    expect(error.message).toContain("denied by operator");
    // The same decision again is no new decision either.
    const same = await admin("POST", `/approvals/${a.id}`, { approve: false, remember: "session" });
    expect(same.status).toBe(409);

    const b = pending("routes-decide");
    await desk.open(b);
    await desk.decide(b.id, { approve: true, by: "client" }, "routes-decide");
    const late = await admin("POST", `/approvals/${b.id}`, { approve: false });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toContain("approved by client");
  });
});

describe("approval page", () => {
  it("shows no call details before sign-in, and may not be framed or run script", async () => {
    const a = pending("routes-page", { tool: "demo.secret_tool", args: '{"token":"visible-args"}' });
    await desk.open(a);
    const res = await request(`/approve/${a.id}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('name="key"');
    expect(page).not.toContain("secret_tool");
    expect(page).not.toContain("visible-args");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none'(;|$)/);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("answers an invalid key with 401, and a key of another team with 404", async () => {
    const a = pending("someone-else");
    await desk.open(a);
    const invalid = await approvePage(a.id, { key: "cmk_not-a-real-key" });
    expect(invalid.status).toBe(401);
    expect(await invalid.text()).toContain("That API key is not valid.");

    const { key } = await teamWithKey("routes-page-own");
    const foreign = await approvePage(a.id, { key, decision: "approve" });
    expect(foreign.status).toBe(404);
    const page = await foreign.text();
    expect(page).toContain("No such approval");
    expect(page).not.toContain("demo.update_ticket");
    expect((await desk.get(a.id))?.decision).toBeUndefined();
  });

  it("shows the call escaped to its team, and decides it as the client", async () => {
    const { key } = await teamWithKey("routes-page-team");
    const a = pending("routes-page-team", { args: '{"note":"<img src=x onerror=alert(1)>"}' });
    await desk.open(a);
    const shown = await approvePage(a.id, { key });
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain("demo.update_ticket");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).not.toContain("<img");
    expect((await desk.get(a.id))?.decision).toBeUndefined();

    const decided = await approvePage(a.id, { key, decision: "approve", remember: "execution" });
    expect(decided.status).toBe(200);
    expect(await decided.text()).toContain("Decided: <strong>approved</strong> by client");
    expect((await desk.get(a.id))?.decision).toMatchObject({
      status: "approved",
      by: "client",
      remember: "execution",
    });
  });
});

describe("answerApprovals", () => {
  // The smallest context answerApprovals reads (env and team); not a whole RequestContext.
  const ctx = (team: string) => ({ env: host.env, team }) as unknown as RequestContext;
  const answer = (id: unknown, result: unknown) => ({ jsonrpc: "2.0", id, result });

  it("gives an accepted form to the desk as the client's decision", async () => {
    const a = pending("answers");
    await desk.open(a);
    const rest = await answerApprovals(ctx("answers"), [
      answer(a.id, { action: "accept", content: { approve: true, remember: "session" } }),
    ]);
    expect(rest).toEqual([]);
    expect((await desk.get(a.id))?.decision).toMatchObject({
      status: "approved",
      by: "client",
      remember: "session",
    });
  });

  it("passes other messages through untouched", async () => {
    const a = pending("answers");
    await desk.open(a);
    const foreign = [
      answer(7, { action: "accept", content: { approve: true } }),
      answer("apr_not-an-approval", { action: "accept", content: { approve: true } }),
      { jsonrpc: "2.0", id: a.id, method: "tools/call", params: {} },
      null,
    ];
    const rest = await answerApprovals(ctx("answers"), foreign);
    expect(rest).toHaveLength(foreign.length);
    for (const [i, message] of rest.entries()) expect(message).toBe(foreign[i]);
    expect((await desk.get(a.id))?.decision).toBeUndefined();
  });

  it.each([
    ["a garbage result", { action: "maybe" }],
    ["a decline", { action: "decline" }],
    ["approve: false", { action: "accept", content: { approve: false } }],
    ["approve as text", { action: "accept", content: { approve: "true" } }],
  ])("denies on %s", async (_name, result) => {
    const a = pending("answers");
    await desk.open(a);
    expect(await answerApprovals(ctx("answers"), [answer(a.id, result)])).toEqual([]);
    expect((await desk.get(a.id))?.decision).toMatchObject({
      status: "denied",
      by: "client",
      remember: "call",
    });
  });

  it("makes no decision on an accept without content, an error answer, or another team's", async () => {
    const accepted = pending("answers");
    const failed = pending("answers");
    const foreign = pending("answers-elsewhere");
    for (const a of [accepted, failed, foreign]) await desk.open(a);
    const rest = await answerApprovals(ctx("answers"), [
      answer(accepted.id, { action: "accept" }),
      { jsonrpc: "2.0", id: failed.id, error: { code: -32601, message: "no elicitation" } },
      answer(foreign.id, { action: "accept", content: { approve: true } }),
    ]);
    expect(rest).toEqual([]);
    for (const a of [accepted, failed, foreign]) expect((await desk.get(a.id))?.decision).toBeUndefined();
  });
});
