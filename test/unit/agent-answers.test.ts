import { describe, expect, it } from "vitest";
import { ANSWER_OVERHEAD_CHARS } from "../../shared/contract/caps";
import { postJson } from "../helpers/app";
import { testContext } from "../helpers/context";
import { execute } from "../helpers/execute";
import { sandboxOn, TEST_ENGINES } from "../helpers/sandbox";

// What the agent sees (issue 33): nothing the code starts is dropped without a word, a cut result
// keeps its JSON type with exact figures, and the whole answer stays within the stated bound.

describe.each(TEST_ENGINES)("on %s", (engine) => {
  const { run } = sandboxOn(engine);
  const context = () => testContext({}, {}, engine);

  describe("calls the code did not await", () => {
    it("are awaited before the answer, and the write happens", async () => {
      const body = `not awaited ${Date.now()}`;
      const first = await execute(context(), {
        code: `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 50 });
  const ticket = tickets.find((t) => t.assignee);
  tools.demo.add_ticket_comment({ ticketId: ticket.id, body: ${JSON.stringify(body)} });
  return ticket.id;`,
      });
      expect(first.error).toBeUndefined();
      expect(first.warnings).toEqual(["tools.demo.add_ticket_comment() was not awaited; it completed"]);
      expect(first.stats.toolCalls).toBe(2);
      const second = await execute(context(), {
        code: `const t = await tools.demo.get_ticket({ id: ${JSON.stringify(first.result)} });
  return t.comments.map((c) => c.body);`,
      });
      expect(second.result).toContain(body);
    });

    it("say when one failed, grouped per call", async () => {
      const r = await execute(context(), {
        code: `for (let i = 0; i < 3; i++) tools.demo.get_ticket({ id: "tkt_nope" + i });
  return "done";`,
      });
      expect(r.result).toBe("done");
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings?.[0]).toMatch(
        /^tools\.demo\.get_ticket\(\) was not awaited \(3 calls\): 0 completed, 3 failed \(first: \w+: /,
      );
    });

    it("turn a property read on the promise into an error that says to await", async () => {
      const r = await execute(context(), {
        code: "const page = tools.demo.list_tickets({ limit: 5 }); return { total: page.total };",
      });
      expect(r.result).toBeUndefined();
      expect(r.error?.name).toBe("TypeError");
      expect(r.error?.message).toMatch(
        /^Read \.total of the Promise that tools\.demo\.list_tickets\(\) returns: missing await\?/,
      );
      expect(r.warnings?.[0]).toMatch(/list_tickets\(\) was not awaited; it completed/);
    });

    it("a Promise in the returned value is an error naming its path", async () => {
      const r = await execute(context(), {
        code: 'return { ok: true, stats: { total: tools.demo.ticket_stats({ groupBy: "status" }) } };',
      });
      expect(r.error).toEqual({
        name: "TypeError",
        message: "result.stats.total is a Promise: missing await? Await each call before returning its value",
      });
    });

    it("await, then, Promise.all and returning the promise all count as using it", async () => {
      const r = await execute(context(), {
        code: `const a = await tools.demo.ticket_stats({ groupBy: "status" });
  const [b] = await Promise.all([tools.demo.ticket_stats({ groupBy: "status" })]);
  const c = await tools.demo.ticket_stats({ groupBy: "status" }).then((x) => x);
  return tools.demo.ticket_stats({ groupBy: "status" }).then(() => [a, b, c].length);`,
      });
      expect(r.error).toBeUndefined();
      expect(r.result).toBe(3);
      expect(r.warnings).toBeUndefined();
    });
  });

  describe("a result over the cap", () => {
    it("comes back as a valid array within the cap, with exact counts and sizes", async () => {
      const code =
        'return Array.from({ length: 10_000 }, (_, i) => ({ id: "tkt_" + i, subject: "Printer on floor " + i + " jams", tags: ["hw", "p2"] }));';
      const whole = JSON.stringify(
        Array.from({ length: 10_000 }, (_, i) => ({
          id: `tkt_${i}`,
          subject: `Printer on floor ${i} jams`,
          tags: ["hw", "p2"],
        })),
      ).length;
      const r = await execute(context(), { code });
      expect(r.error).toBeUndefined();
      const kept = r.result as Array<{ id: string }>;
      expect(Array.isArray(kept)).toBe(true);
      expect(kept[0]?.id).toBe("tkt_0");
      expect(JSON.stringify(kept).length).toBeLessThanOrEqual(24_000);
      expect(r.truncation).toEqual({
        totalChars: whole,
        keptChars: JSON.stringify(kept).length,
        cuts: [{ path: "result", kept: kept.length, of: 10_000, unit: "items" }],
      });
      expect(r.stats.truncated).toBe(true);
      expect(r.warnings?.[0]).toMatch(
        new RegExp(`^Result cut to ${JSON.stringify(kept).length} of ${whole} characters`),
      );
      expect(JSON.stringify(r).length).toBeLessThanOrEqual(24_000 + ANSWER_OVERHEAD_CHARS);
    });

    it("is a lower bound beyond what the sandbox converts, and the answer stays bounded with logs and an error", async () => {
      const r = await run(
        "for (let i = 0; i < 5000; i++) console.log('line', i, 'x'.repeat(50)); return Array.from({ length: 1_000_000 }, (_, i) => i);",
        {},
        { maxOutputChars: 2_000 },
      );
      expect(r.error).toBeUndefined();
      expect(Array.isArray(r.result)).toBe(true);
      expect(JSON.stringify(r.result).length + r.logs.reduce((s, l) => s + l.length, 0)).toBeLessThanOrEqual(
        2_200,
      );
      expect(r.truncation?.lowerBound).toBe(true);
      const failed = await run(
        "for (let i = 0; i < 5000; i++) console.log('x'.repeat(100)); throw new Error('y'.repeat(100_000));",
        {},
        { maxOutputChars: 2_000 },
      );
      expect(failed.error?.message.length).toBeLessThanOrEqual(1_000);
      expect(JSON.stringify(failed).length).toBeLessThanOrEqual(2_000 + ANSWER_OVERHEAD_CHARS);
    });
  });

  describe("a cut result in a session", () => {
    it("is kept whole as a workspace file that the truncation and the warning name", async () => {
      const { sessionId } = (await (await postJson("/v1/sessions", {})).json()) as { sessionId: string };
      const r = await execute(context(), {
        code: 'return Array.from({ length: 5_000 }, (_, i) => ({ id: i, text: "row " + i }));',
        sessionId,
      });
      const file = r.truncation?.file ?? "";
      expect(file).toMatch(/^results\/[\w-]+\.json$/);
      expect(r.warnings?.[0]).toContain(`The whole result is in workspace file ${file}.`);
      const read = await execute(context(), {
        code: `const rows = JSON.parse(await workspace.read(${JSON.stringify(file)})); return [rows.length, rows[4999].text];`,
        sessionId,
      });
      expect(read.result).toEqual([5_000, "row 4999"]);
    });
  });

  describe("stats.calls", () => {
    it("aggregates per tool and stays small whatever the number of calls", async () => {
      const r = await execute(context(), {
        code: `await Promise.all(Array.from({ length: 40 }, () => tools.demo.ticket_stats({ groupBy: "status" })));
  try { await tools.demo.get_ticket({ id: "tkt_nope" }); } catch {}
  return 1;`,
      });
      expect(r).toMatchObject({ result: 1 });
      expect(r.stats.toolCalls).toBe(41);
      expect(r.stats.calls).toEqual([
        { name: "demo.ticket_stats", count: 40, errors: 0, ms: expect.any(Number) },
        { name: "demo.get_ticket", count: 1, errors: 1, ms: expect.any(Number) },
      ]);
      expect(JSON.stringify(r.stats).length).toBeLessThan(300);
    });
  });
});
