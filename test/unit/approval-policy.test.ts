import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { approvalNote, approvalRule } from "../../workers/gateway/approvals/policy";
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, deploymentApprovals } from "../../workers/gateway/config";
import { ProgressMeter } from "../../workers/gateway/execution/progress";
import { teamApprovals } from "../../workers/gateway/teams/resolve";

const destructive = { destructiveHint: true };

describe("approval policy", () => {
  it("APPROVALS=destructive waits on destructive tools for 120 s; off asks for nothing", () => {
    expect(deploymentApprovals("destructive")).toEqual({
      require: [],
      skip: [],
      destructive: true,
      timeoutSeconds: 120,
    });
    expect(DEFAULT_APPROVAL_TIMEOUT_SECONDS).toBe(120);
    expect(deploymentApprovals("off")).toBeNull();
  });

  it("fills a team's approvals with the defaults; null when it asks for nothing", () => {
    expect(teamApprovals({})).toEqual(deploymentApprovals("destructive"));
    expect(teamApprovals({ destructive: false })).toBeNull();
    expect(teamApprovals({ destructive: false, skip: ["demo.*"] })).toBeNull();
    expect(teamApprovals({ destructive: false, require: ["github.*"], timeoutSeconds: 30 })).toEqual({
      require: ["github.*"],
      skip: [],
      destructive: false,
      timeoutSeconds: 30,
    });
  });

  it("says why a call waits: a require glob first, then destructiveHint", () => {
    const rule = approvalRule({
      require: ["github.*", "*.delete_*"],
      skip: [],
      destructive: true,
      timeoutSeconds: 60,
    });
    expect(rule({ qualifiedName: "github.create_issue" })).toBe('require "github.*"');
    expect(rule({ qualifiedName: "demo.delete_ticket", annotations: destructive })).toBe(
      'require "*.delete_*"',
    );
    expect(rule({ qualifiedName: "demo.update_ticket", annotations: destructive })).toBe("destructiveHint");
    expect(
      rule({ qualifiedName: "demo.update_ticket", annotations: { destructiveHint: false } }),
    ).toBeUndefined();
    expect(rule({ qualifiedName: "demo.list_tickets", annotations: { readOnlyHint: true } })).toBeUndefined();
    expect(rule({ qualifiedName: "skills.close_all" })).toBeUndefined();
    // a glob matches the whole name
    expect(rule({ qualifiedName: "my.github.create_issue" })).toBeUndefined();
  });

  it("lets skip win over require and destructiveHint", () => {
    const rule = approvalRule({
      require: ["demo.*"],
      skip: ["demo.update_*"],
      destructive: true,
      timeoutSeconds: 60,
    });
    expect(rule({ qualifiedName: "demo.update_ticket", annotations: destructive })).toBeUndefined();
    expect(rule({ qualifiedName: "demo.create_ticket" })).toBe('require "demo.*"');
  });

  it("ignores destructiveHint when the policy does, and everything without a policy", () => {
    const off = approvalRule({ require: ["github.*"], skip: [], destructive: false, timeoutSeconds: 60 });
    expect(off({ qualifiedName: "demo.update_ticket", annotations: destructive })).toBeUndefined();
    expect(off({ qualifiedName: "github.merge" })).toBe('require "github.*"');
    const none = approvalRule(null);
    expect(none({ qualifiedName: "github.merge", annotations: destructive })).toBeUndefined();
  });

  it("notes the rule and the timeout for search results", () => {
    const note = approvalNote(deploymentApprovals("destructive"));
    expect(note({ qualifiedName: "demo.update_ticket", annotations: destructive })).toBe(
      "waits for a person's approval (destructiveHint), up to 120 s",
    );
    expect(note({ qualifiedName: "demo.list_tickets" })).toBeUndefined();
    const team = approvalNote(teamApprovals({ require: ["skills.*"], timeoutSeconds: 45 }));
    expect(team({ qualifiedName: "skills.close_all" })).toBe(
      'waits for a person\'s approval (require "skills.*"), up to 45 s',
    );
    expect(approvalNote(null)({ qualifiedName: "x.y", annotations: destructive })).toBeUndefined();
  });
});

describe("ProgressMeter", () => {
  let reports: Array<[number, string]>;
  let meter: ProgressMeter;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    reports = [];
    meter = new ProgressMeter((progress, message) => reports.push([progress, message]));
  });
  afterEach(() => {
    meter.close();
    vi.useRealTimers();
  });

  it("reports the first event at once, then at most once per 250 ms, the latest state winning", () => {
    meter.callFinished("demo.a", 1);
    expect(reports).toEqual([[1, "demo.a finished"]]);
    vi.advanceTimersByTime(100);
    meter.callFinished("demo.b", 2);
    meter.callFinished("demo.c", 3);
    expect(reports).toHaveLength(1);
    vi.advanceTimersByTime(149);
    expect(reports).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual([
      [1, "demo.a finished"],
      [3, "demo.c finished"],
    ]);
    vi.advanceTimersByTime(1_000);
    expect(reports).toHaveLength(2);
    meter.callFinished("demo.d", 4);
    expect(reports.at(-1)).toEqual([4, "demo.d finished"]);
  });

  it("moves halfway to the next whole number on a note, and never backwards", () => {
    meter.callFinished("demo.a", 1);
    vi.advanceTimersByTime(250);
    meter.note("waiting for approval of demo.b");
    vi.advanceTimersByTime(250);
    meter.note("[log] hello");
    vi.advanceTimersByTime(250);
    // a call count below what was reported does not go back, and says nothing new
    meter.callFinished("demo.c", 1);
    vi.advanceTimersByTime(250);
    meter.callFinished("demo.d", 2);
    expect(reports).toEqual([
      [1, "demo.a finished"],
      [1.5, "waiting for approval of demo.b"],
      [1.75, "[log] hello"],
      [2, "demo.d finished"],
    ]);
    const sent = reports.map(([progress]) => progress);
    for (let i = 1; i < sent.length; i++) expect(sent[i]).toBeGreaterThan(sent[i - 1] ?? Infinity);
  });

  it("drops what is pending when closed, and reports nothing after", () => {
    meter.note("started");
    meter.callFinished("demo.a", 1);
    meter.close();
    vi.advanceTimersByTime(1_000);
    meter.callFinished("demo.b", 2);
    meter.note("late");
    vi.advanceTimersByTime(1_000);
    expect(reports).toEqual([[0.5, "started"]]);
  });

  it("clips a long message to 200 characters", () => {
    meter.note("x".repeat(500));
    expect(reports[0]?.[1]).toBe(`${"x".repeat(199)}…`);
  });
});
