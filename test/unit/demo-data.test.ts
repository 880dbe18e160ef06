import { describe, expect, it } from "vitest";
import { generateDataset } from "../../workers/demo-upstream/data/generate";
import { createStore } from "../../workers/demo-upstream/data/store";

// Made at import, so this is the first (cold) generation in the isolate.
const coldStart = performance.now();
createStore();
const coldMs = performance.now() - coldStart;

describe("demo upstream: dataset", () => {
  it("is large and deterministic (generation time printed, not asserted: a loaded CI machine is no stopwatch)", () => {
    const timings: number[] = [];
    let data = generateDataset();
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      data = generateDataset();
      timings.push(performance.now() - start);
    }
    console.log(
      `first store (cold): ${coldMs.toFixed(0)} ms; generateDataset: ${timings.map((t) => `${t.toFixed(0)} ms`).join(", ")}`,
    );

    expect(data.customers).toHaveLength(2000);
    expect(data.tickets).toHaveLength(10000);
    expect(data.agents).toHaveLength(25);
    expect(data.customers.length + data.tickets.length + data.agents.length).toBeGreaterThanOrEqual(10000);
    expect(data.commentTotal).toBeGreaterThan(15000);

    const again = generateDataset();
    expect(JSON.stringify(again.tickets)).toBe(JSON.stringify(data.tickets));
    expect(JSON.stringify(again.customers)).toBe(JSON.stringify(data.customers));
    expect(again.conversation(1234)).toEqual(data.conversation(1234));
    expect(JSON.stringify(generateDataset({ seed: 7 }).tickets.slice(0, 50))).not.toBe(
      JSON.stringify(data.tickets.slice(0, 50)),
    );
  });

  it("looks like a real desk: formats, ordering and relations hold", () => {
    const data = generateDataset();
    const customers = new Map(data.customers.map((c) => [c.id, c]));
    const agentNames = new Set(data.agents.map((a) => a.name));
    const isIso = (s: string) => new Date(s).toISOString() === s;
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok && problems.length < 10) problems.push(what);
    };

    for (const [i, c] of data.customers.entries()) {
      const what = JSON.stringify(c);
      check(c.id === `cus_${String(i + 1).padStart(5, "0")}`, `id ${what}`);
      check(/^[a-z0-9.]+@[a-z0-9.-]+\.[a-z]+$/.test(c.email), `email ${what}`);
      check(/^\+[1-9]\d{9,13}$/.test(c.phone), `phone ${what}`);
      check(/^\S+ \S+$/.test(c.name), `name ${what}`);
      check(/^[A-Z]{2}$/.test(c.country), `country ${what}`);
      check(isIso(c.createdAt), `createdAt ${what}`);
    }
    expect(new Set(data.customers.map((c) => c.email)).size).toBe(data.customers.length);

    let previous = "";
    for (const [i, t] of data.tickets.entries()) {
      const what = JSON.stringify(t);
      const customer = customers.get(t.customerId);
      check(t.id === `tkt_${String(i + 1).padStart(6, "0")}`, `id ${what}`);
      check(customer !== undefined && t.createdAt >= customer.createdAt, `customer ${what}`);
      check(isIso(t.createdAt) && isIso(t.updatedAt) && t.updatedAt >= t.createdAt, `times ${what}`);
      check(t.createdAt >= previous, `order ${what}`);
      check(!/[{}]/.test(t.subject + t.body), `placeholder left ${what}`);
      check(new Set(t.tags).size === t.tags.length && t.tags.length > 0, `tags ${what}`);
      check(t.assignee === null || agentNames.has(t.assignee), `assignee ${what}`);
      previous = t.createdAt;
    }
    expect(problems).toEqual([]);
    const statuses = new Set(data.tickets.map((t) => t.status));
    expect([...statuses].sort()).toEqual(["closed", "open", "pending", "resolved"]);

    let numbered = 0;
    for (const index of [0, 17, 4999, 9999]) {
      const ticket = data.tickets[index]!;
      const comments = data.conversation(index);
      expect(comments).toHaveLength(ticket.commentCount);
      for (const c of comments) {
        expect(c.ticketId).toBe(ticket.id);
        expect(c.createdAt >= ticket.createdAt && c.createdAt <= ticket.updatedAt).toBe(true);
        expect(c.body).not.toMatch(/[{}]/);
      }
      numbered += comments.length;
    }
    expect(numbered).toBeGreaterThan(0);
  });
});
