import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_OVERHEAD_CHARS } from "../../shared/contract/caps";
import { connect, execute, teamWithKey } from "./client";

// What the agent sees (issue 33), through the SDK client against the running stack: nothing started
// is dropped without a word, a huge result comes back as valid JSON of its type within the cap with
// exact figures, stats stay small, tokenized results say so.
let mcp: { client: Client; transport: StreamableHTTPClientTransport };
let pii: { client: Client; transport: StreamableHTTPClientTransport };
const MAX_OUTPUT = 24_000;

beforeAll(async () => {
  mcp = await connect();
  pii = await connect(
    await teamWithKey("e2e-answers-pii", {
      servers: { demo: { service: "DEMO" } },
      pii: { mode: "tokenize" },
    }),
  );
});
afterAll(async () => {
  await mcp?.client.close();
  await pii?.client.close();
});

describe("the execute answer", () => {
  it("runs a write the code did not await, and says so", async () => {
    const body = `e2e not awaited ${Date.now()}`;
    const r = await execute(mcp.client, {
      code: `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 50 });
const ticket = tickets.find((t) => t.assignee);
tools.demo.add_ticket_comment({ ticketId: ticket.id, body: ${JSON.stringify(body)} });
return ticket.id;`,
    });
    expect(r.warnings).toEqual(["tools.demo.add_ticket_comment() was not awaited; it completed"]);
    const check = await execute(mcp.client, {
      code: `return (await tools.demo.get_ticket({ id: ${JSON.stringify(r.result)} })).comments.some((c) => c.body === ${JSON.stringify(body)});`,
    });
    expect(check.result).toBe(true);
  });

  it("turns page.total on an un-awaited call into an error saying to await", async () => {
    const r = await execute(mcp.client, {
      code: "const page = tools.demo.list_tickets({ limit: 5 }); return { total: page.total };",
    });
    expect(r.isError).toBe(true);
    expect(r.error?.message).toMatch(/missing await\?/);
  });

  it("brings 10,000 tickets (3.7 MB of JSON) back as a valid array within the cap, with exact counts", {
    timeout: 150_000,
  }, async () => {
    const r = await execute(mcp.client, {
      code: `const all = [];
let cursor;
do {
  const page = await tools.demo.list_tickets({ limit: 100, cursor });
  all.push(...page.tickets);
  cursor = page.nextCursor;
} while (cursor);
return all;`,
      timeoutMs: 120_000,
    });
    expect(r.error).toBeUndefined();
    const kept = r.result as unknown[];
    expect(Array.isArray(kept)).toBe(true);
    expect(r.truncation?.cuts[0]).toEqual({ path: "result", kept: kept.length, of: 10_000, unit: "items" });
    expect(r.truncation?.totalChars).toBeGreaterThan(3_000_000);
    expect(r.truncation?.keptChars).toBe(JSON.stringify(kept).length);
    expect(r.truncation?.keptChars).toBeLessThanOrEqual(MAX_OUTPUT);
    expect(r.stats.calls).toEqual([
      { name: "demo.list_tickets", count: 100, errors: 0, ms: expect.any(Number) },
    ]);
    const { isError: _, ...answer } = r;
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(MAX_OUTPUT + ANSWER_OVERHEAD_CHARS);
    // an MCP session: the whole result is kept in the workspace
    expect(r.truncation?.file).toMatch(/^results\//);
    expect(r.warnings?.[0]).toMatch(/^Result cut to \d+ of \d+ characters/);
  });

  it("says once that personal data was tokenized", async () => {
    const r = await execute(pii.client, {
      code: "const r = await tools.demo.list_customers({ limit: 3 }); return r.customers.map((c) => c.email);",
    });
    expect((r.result as string[]).every((e) => /^\[EMAIL_\d+\]$/.test(e))).toBe(true);
    expect(r.warnings).toEqual([
      "Personal data in this answer is replaced by tokens ([EMAIL_n]); pass a token as it is in a tool call of this session and the gateway restores the real value",
    ]);
  });

  it("reports a Python call that was never awaited after running it", async () => {
    const r = await execute(mcp.client, {
      language: "python",
      code: 'tools.demo.ticket_stats(groupBy="status")\n"done"',
    });
    expect(r.result).toBe("done");
    expect(r.warnings).toEqual([
      "tools.demo.ticket_stats() was not awaited; it ran after the code returned and completed",
    ]);
    expect(r.stats.toolCalls).toBe(1);
  });
});
