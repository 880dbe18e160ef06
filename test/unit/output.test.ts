import { describe, expect, it } from "vitest";
import type { IsolateReport } from "../../shared/contract/sandbox";
import { shapeOutput } from "../../workers/sandbox/output";

/** A report as the isolate writes it: `result` (when given) as its JSON text. */
const outcome = ({
  result,
  hasResult,
  ...over
}: Partial<IsolateReport> & { hasResult?: boolean; result?: unknown }): IsolateReport => ({
  resultTruncated: false,
  logs: [],
  logsDropped: 0,
  ...(hasResult ? { resultJson: JSON.stringify(result) } : {}),
  ...over,
});

const size = (o: { result?: unknown; logs: string[] }) =>
  (o.result === undefined ? 0 : JSON.stringify(o.result).length) + o.logs.reduce((s, l) => s + l.length, 0);

describe("shapeOutput", () => {
  it("leaves output under the cap alone", () => {
    expect(shapeOutput(outcome({ hasResult: true, result: { a: 1 }, logs: ["[log] x"] }), 1000)).toEqual({
      result: { a: 1 },
      logs: ["[log] x"],
      truncated: false,
    });
  });

  it("omits result when there is none", () => {
    expect(shapeOutput(outcome({ logs: [] }), 1000)).toEqual({ logs: [], truncated: false });
  });

  it("cuts a large result to a marked string and says how much was cut", () => {
    const big = "x".repeat(50_000);
    const shaped = shapeOutput(outcome({ hasResult: true, result: big }), 2_000);
    expect(shaped.truncated).toBe(true);
    expect(typeof shaped.result).toBe("string");
    expect(shaped.result).toMatch(/\[result truncated: \d+ of 50002 characters cut\]$/);
    expect(size(shaped)).toBeLessThanOrEqual(2_000 + 100);
  });

  it("keeps small logs whole when the result is large, and the other way round", () => {
    const logs = ["[log] a", "[log] b"];
    const shaped = shapeOutput(outcome({ hasResult: true, result: "y".repeat(10_000), logs }), 1_000);
    expect(shaped.logs).toEqual(logs);
    const many = Array.from({ length: 500 }, (_, i) => `[log] line ${i}`);
    const shaped2 = shapeOutput(outcome({ hasResult: true, result: 42, logs: many }), 1_000);
    expect(shaped2.result).toBe(42);
    expect(shaped2.logs.at(-1)).toMatch(/^\[truncated\] \d+ log lines affected, \d+ characters cut$/);
    expect(size(shaped2)).toBeLessThanOrEqual(1_000 + 100);
  });

  it("reports log calls the runtime did not keep", () => {
    const shaped = shapeOutput(outcome({ logs: ["[log] a"], logsDropped: 7 }), 1_000);
    expect(shaped.truncated).toBe(true);
    expect(shaped.logs.at(-1)).toBe("[truncated] 7 further log calls were not captured");
  });
});

describe("shapeOutput with a result the isolate had to cut", () => {
  it("keeps the cut JSON text as text and says so", () => {
    const shaped = shapeOutput(
      { resultJson: '{"a":"xxxx', resultTruncated: true, logs: [], logsDropped: 0 },
      1_000,
    );
    expect(shaped).toEqual({
      result: '{"a":"xxxx… [result truncated in the sandbox]',
      logs: [],
      truncated: true,
    });
  });
});

describe("cuts that would split personal data", () => {
  it("move back to before the value, so no half email or phone is left for tokenization to miss", () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i, email: `customer.number${i}@example.com` }));
    const resultJson = JSON.stringify(rows);
    for (let budget = 1_000; budget < 1_200; budget += 7) {
      const shaped = shapeOutput({ resultJson, resultTruncated: false, logs: [], logsDropped: 0 }, budget);
      const head = String(shaped.result).split("… [result truncated")[0] ?? "";
      expect(head).not.toMatch(/"email":"[^"]+$/);
    }
    const line = `[log] call +44 20 7946 0958 now ${"x".repeat(50)}`;
    for (let budget = 90; budget < 115; budget++) {
      const shaped = shapeOutput({ logs: [line], resultTruncated: false, logsDropped: 0 }, budget);
      expect(shaped.logs[0]).not.toMatch(/\+44[\d ]*$/);
    }
  });
});
