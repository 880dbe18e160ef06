import { describe, expect, it } from "vitest";
import type { IsolateReport } from "../../shared/contract/sandbox";
import { fitJson } from "../../shared/output/fit";
import { shapeOutput } from "../../shared/output/shape";
import { cutOutsidePii } from "../../shared/privacy/cut";
import { outcomeOf } from "../../workers/sandbox/output";

const size = (o: { resultJson?: string; logs: string[] }) =>
  (o.resultJson?.length ?? 0) + o.logs.reduce((s, l) => s + l.length, 0);

const tickets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i,
    subject: `Ticket ${i} about the printer`,
    tags: ["a", "b"],
  }));

describe("fitJson: a value cut to a budget keeps its JSON type", () => {
  it("leaves a value that fits alone", () => {
    const fitted = fitJson({ a: [1, 2] }, 100);
    expect(fitted).toEqual({
      value: { a: [1, 2] },
      json: '{"a":[1,2]}',
      totalChars: 11,
      cuts: [],
      moreCuts: 0,
    });
  });

  it("keeps an array's first items that fit whole and says how many of how many", () => {
    const list = tickets(10_000);
    const whole = JSON.stringify(list).length;
    const fitted = fitJson(list, 5_000);
    expect(Array.isArray(fitted.value)).toBe(true);
    const kept = fitted.value as unknown[];
    expect(kept).toEqual(list.slice(0, kept.length));
    expect(fitted.json.length).toBeLessThanOrEqual(5_000);
    expect(JSON.stringify(list.slice(0, kept.length + 1)).length).toBeGreaterThan(5_000);
    expect(fitted.totalChars).toBe(whole);
    expect(fitted.cuts).toEqual([{ path: "result", kept: kept.length, of: 10_000, unit: "items" }]);
  });

  it("keeps an object's keys and shares the budget out: small values whole, big ones cut", () => {
    const value = {
      total: 10_000,
      note: "all open tickets",
      tickets: tickets(1_000),
      other: "z".repeat(5_000),
    };
    const fitted = fitJson(value, 4_000);
    const out = fitted.value as typeof value;
    expect(Object.keys(out)).toEqual(["total", "note", "tickets", "other"]);
    expect(out.total).toBe(10_000);
    expect(out.note).toBe("all open tickets");
    expect(out.tickets.length).toBeGreaterThan(5);
    expect(out.other.length).toBeGreaterThan(1_000);
    expect(fitted.json.length).toBeLessThanOrEqual(4_000);
    expect(fitted.cuts.map((c) => [c.path, c.of, c.unit])).toEqual([
      ["result.other", 5_000, "characters"],
      ["result.tickets", 1_000, "items"],
    ]);
  });

  it("cuts the first item when not even one fits, and a string to its head", () => {
    const fitted = fitJson([{ body: "x".repeat(10_000) }, { body: "y" }], 500);
    expect(fitted.json.length).toBeLessThanOrEqual(500);
    expect((fitted.value as Array<{ body: string }>)[0]?.body).toMatch(/^x+$/);
    expect(fitted.cuts).toEqual([
      { path: "result", kept: 1, of: 2, unit: "items" },
      { path: "result[0].body", kept: expect.any(Number), of: 10_000, unit: "characters" },
    ]);
  });

  it("counts escaped characters, never splits a surrogate pair and stays within budget at every size", () => {
    const value = { text: 'a"\\\n😀'.repeat(500), list: Array.from({ length: 300 }, (_, i) => `é${i}😀`) };
    for (let budget = 40; budget < 3_000; budget += 97) {
      const fitted = fitJson(value, budget);
      expect(fitted.json.length).toBeLessThanOrEqual(budget);
      expect(JSON.parse(fitted.json)).toEqual(fitted.value);
      expect(fitted.json).not.toMatch(/\\ud[89ab]/i);
    }
  });

  it("lists at most five cuts and counts the rest; paths of odd keys are quoted and bounded", () => {
    const value = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`key with space ${i} ${"k".repeat(60)}`, "v".repeat(1_000)]),
    );
    const fitted = fitJson(value, 3_000);
    expect(fitted.cuts).toHaveLength(5);
    expect(fitted.moreCuts).toBeGreaterThan(0);
    for (const cut of fitted.cuts) expect(cut.path.length).toBeLessThanOrEqual(130);
    expect(fitted.cuts[0]?.path).toMatch(/^result\["key with space/);
  });
});

describe("shapeOutput: result and logs within the budget together", () => {
  it("leaves output under the cap alone", () => {
    expect(shapeOutput({ result: { a: 1 }, logs: ["[log] x"], logsDropped: 0 }, 1_000)).toEqual({
      resultJson: '{"a":1}',
      logs: ["[log] x"],
      logsCut: false,
    });
    expect(shapeOutput({ result: undefined, logs: [], logsDropped: 0 }, 1_000)).toEqual({
      logs: [],
      logsCut: false,
    });
  });

  it("keeps small logs whole when the result is large, and the other way round", () => {
    const logs = ["[log] a", "[log] b"];
    const shaped = shapeOutput({ result: tickets(500), logs, logsDropped: 0 }, 1_000);
    expect(shaped.logs).toEqual(logs);
    expect(size(shaped)).toBeLessThanOrEqual(1_000);
    expect(shaped.truncation?.cuts[0]).toMatchObject({ path: "result", of: 500, unit: "items" });
    const many = Array.from({ length: 500 }, (_, i) => `[log] line ${i}`);
    const shaped2 = shapeOutput({ result: 42, logs: many, logsDropped: 0 }, 1_000);
    expect(shaped2.resultJson).toBe("42");
    expect(shaped2.logs.at(-1)).toMatch(/^\[truncated\] \d+ log lines affected, \d+ characters cut$/);
    expect(size(shaped2)).toBeLessThanOrEqual(1_000 + 100);
  });

  it("reports log calls the runtime did not keep", () => {
    const shaped = shapeOutput({ result: undefined, logs: ["[log] a"], logsDropped: 7 }, 1_000);
    expect(shaped.logsCut).toBe(true);
    expect(shaped.logs.at(-1)).toBe("[truncated] 7 further log calls were not captured");
  });
});

describe("outcomeOf: the host checks what the isolate shaped", () => {
  const report = (over: Partial<IsolateReport>): IsolateReport => ({ logs: [], logsCut: false, ...over });

  it("passes an honest report through", () => {
    const truncation = { totalChars: 9_000, keptChars: 900, cuts: [] };
    expect(outcomeOf(report({ resultJson: "[1,2]", truncation, warnings: ["w"] }), 1_000, false)).toEqual({
      result: [1, 2],
      truncation,
      warnings: ["w"],
      logs: [],
      truncated: true,
    });
  });

  it("cuts again what is over the budget, and refuses a result that is not JSON", () => {
    const over = outcomeOf(report({ resultJson: JSON.stringify(tickets(200)) }), 1_000, false);
    expect(JSON.stringify(over.result).length).toBeLessThanOrEqual(1_000);
    expect(over.truncation?.cuts[0]).toMatchObject({ path: "result", of: 200 });
    expect(() => outcomeOf(report({ resultJson: '{"a":' }), 1_000, false)).toThrow(/not JSON/);
  });
});

describe("cuts that would split personal data", () => {
  it("move back to before the value, so no half email or phone is left for tokenization to miss", () => {
    const text = Array.from({ length: 400 }, (_, i) => `customer.number${i}@example.com`).join(" ");
    for (let budget = 1_000; budget < 1_200; budget += 7) {
      const fitted = fitJson({ text }, budget, { cutText: cutOutsidePii });
      const kept = (fitted.value as { text: string }).text;
      expect(kept.trimEnd()).toMatch(/(^|\.com)$/);
    }
    const line = `[log] call +44 20 7946 0958 now ${"x".repeat(50)}`;
    for (let budget = 90; budget < 115; budget++) {
      const shaped = shapeOutput({ result: undefined, logs: [line], logsDropped: 0 }, budget, cutOutsidePii);
      expect(shaped.logs[0]).not.toMatch(/\+44[\d ]*$/);
    }
  });
});
