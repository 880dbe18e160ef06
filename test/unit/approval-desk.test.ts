import { describe, expect, it } from "vitest";
import { PendingApproval } from "../../durable-objects/approvals/approval";
import { deskHost, pending } from "./approval-desk-host";

const { desk, alarmAt } = deskHost("approval-desk-test");

describe("ApprovalDesk decisions", () => {
  it("keeps the first decision: an operator after the client gets the client's", async () => {
    const a = pending("desk-first");
    await desk.open(a);
    const client = await desk.decide(
      a.id,
      { approve: true, by: "client", remember: "session" },
      "desk-first",
    );
    expect(client).toMatchObject({ status: "approved", by: "client", remember: "session" });
    const operator = await desk.decide(a.id, { approve: false, by: "operator" });
    expect(operator).toEqual(client);
    expect((await desk.get(a.id))?.decision).toEqual(client);
  });

  it("answers null to another team, and leaves the approval pending", async () => {
    const a = pending("desk-own");
    await desk.open(a);
    expect(await desk.decide(a.id, { approve: true, by: "client" }, "desk-other")).toBeNull();
    expect((await desk.get(a.id))?.decision).toBeUndefined();
    expect(await desk.decide(a.id, { approve: false, by: "client" }, "desk-own")).toMatchObject({
      status: "denied",
      by: "client",
      remember: "call",
    });
  });

  it("answers null for an unknown id", async () => {
    const unknown = pending("desk-unknown").id;
    expect(await desk.decide(unknown, { approve: true, by: "operator" })).toBeNull();
    expect(await desk.expire(unknown, "timeout")).toBeNull();
    expect(await desk.get(unknown)).toBeNull();
    expect(await desk.wait(unknown, 10_000)).toBeNull();
  });

  it("keeps an operator's decision over a later timeout", async () => {
    const a = pending("desk-expire");
    await desk.open(a);
    const operator = await desk.decide(a.id, { approve: true, by: "operator", remember: "execution" });
    expect(operator).toMatchObject({ status: "approved", by: "operator", remember: "execution" });
    expect(await desk.expire(a.id, "timeout")).toEqual(operator);
  });

  it("closes an undecided approval its execution left as cancelled, by the gateway", async () => {
    const a = pending("desk-expire");
    await desk.open(a);
    expect(await desk.expire(a.id, "cancelled")).toMatchObject({
      status: "cancelled",
      by: "gateway",
      remember: "call",
    });
  });
});

describe("ApprovalDesk wait", () => {
  it("resolves at once when already decided", async () => {
    const a = pending("desk-wait");
    await desk.open(a);
    const decision = await desk.decide(a.id, { approve: false, by: "operator" });
    const started = Date.now();
    expect(await desk.wait(a.id, 60_000)).toEqual(decision);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("hears a decision made while it waits", async () => {
    const a = pending("desk-wait");
    await desk.open(a);
    const waiting = desk.wait(a.id, 60_000);
    const started = Date.now();
    const decision = await desk.decide(a.id, { approve: true, by: "client" }, "desk-wait");
    expect(decision).toMatchObject({ status: "approved" });
    expect(await waiting).toEqual(decision);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("resolves null after maxMs without a decision", async () => {
    const a = pending("desk-wait");
    await desk.open(a);
    const started = Date.now();
    expect(await desk.wait(a.id, 100)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect((await desk.get(a.id))?.decision).toBeUndefined();
  });
});

describe("ApprovalDesk list", () => {
  it("lists pending first (oldest first), then decisions (newest first), of the team asked", async () => {
    const t = Date.now();
    const older = pending("desk-list", { createdAt: t - 2_000 });
    const newer = pending("desk-list", { createdAt: t - 1_000 });
    const decidedFirst = pending("desk-list", { createdAt: t - 5_000 });
    const decidedLast = pending("desk-list", { createdAt: t - 4_000 });
    const foreign = pending("desk-list-other", { createdAt: t - 9_000 });
    for (const a of [decidedFirst, decidedLast, newer, older, foreign]) await desk.open(a);
    await desk.decide(decidedFirst.id, { approve: true, by: "operator" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await desk.decide(decidedLast.id, { approve: false, by: "operator" });

    const listed = await desk.list({ team: "desk-list" });
    expect(listed.map((a) => a.id)).toEqual([older.id, newer.id, decidedLast.id, decidedFirst.id]);
    expect(listed[2]?.decision?.status).toBe("denied");
    expect(listed[0]).toEqual(older);

    const other = await desk.list({ team: "desk-list-other" });
    expect(other.map((a) => a.id)).toEqual([foreign.id]);
    expect((await desk.list({ team: "desk-list", limit: 1 })).map((a) => a.id)).toEqual([older.id]);
  });
});

describe("ApprovalDesk alarm", () => {
  it("closes an orphan past its deadline by more than 30 s as a timeout", async () => {
    const now = Date.now();
    const orphan = pending("desk-alarm", { createdAt: now - 200_000, deadline: now - 31_000 });
    const late = pending("desk-alarm", { createdAt: now - 200_000, deadline: now - 20_000 });
    await desk.open(orphan);
    await desk.open(late);
    // The alarm is due at once (the orphan's deadline + 30 s has passed): workerd may run it before
    // this does; either way it has run after this line.
    await desk.alarm();
    expect((await desk.get(orphan.id))?.decision).toMatchObject({ status: "timeout", by: "gateway" });
    // within the 30 s grace: its execution may still decide it
    expect((await desk.get(late.id))?.decision).toBeUndefined();
    expect(await alarmAt()).toBeGreaterThanOrEqual(Date.now());
  });
});

describe("PendingApproval", () => {
  it.each([
    ["no prefix", "0123456789abcdef01234567"],
    ["upper-case hex", "apr_0123456789ABCDEF01234567"],
    ["23 hex digits", "apr_0123456789abcdef0123456"],
    ["25 hex digits", "apr_0123456789abcdef012345678"],
    ["a non-hex digit", "apr_0123456789abcdef0123456g"],
  ])("refuses an id with %s", async (_name, id) => {
    const bad = pending("desk-parse", { id });
    const parsed = PendingApproval.safeParse(bad);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["id"]);
  });

  it("accepts a well-formed one", () => {
    const good = pending("desk-parse");
    expect(PendingApproval.parse(good)).toEqual(good);
  });
});
