import { describe, expect, it } from "vitest";
import type { Comment, Ticket } from "../../workers/demo-upstream/schemas";
import { demo, type RpcResponse, type TicketPage } from "../helpers/demo-mcp";

// Tools over MCP: the handshake, the tool list, argument validation and the ticket read tools.
// Read-only tests share one store.
const shared = demo();

describe("demo upstream: MCP over streamable HTTP", () => {
  it("initializes statelessly (no session id)", async () => {
    const res = await shared.post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    const body = (await res.json()) as RpcResponse;
    expect(body.result).toMatchObject({
      protocolVersion: "2025-11-25",
      serverInfo: { name: "demo-support-desk" },
      capabilities: { tools: {} },
    });
    expect(String(body.result?.instructions)).toMatch(/not persisted/);
  });

  it("lists eleven described tools with input and output schemas and annotations", async () => {
    const res = await shared.rpc("tools/list");
    const tools = (res.result as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools.map((t) => t.name)).toEqual([
      "list_tickets",
      "get_ticket",
      "search_tickets",
      "ticket_stats",
      "create_ticket",
      "update_ticket",
      "add_ticket_comment",
      "list_customers",
      "get_customer",
      "search_customers",
      "list_agents",
    ]);
    for (const tool of tools) {
      expect(String(tool.description).length).toBeGreaterThan(40);
      const input = tool.inputSchema as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(input.type).toBe("object");
      expect(input).toMatchObject({ additionalProperties: false });
      for (const [name, property] of Object.entries(input.properties)) {
        expect(property.description, `${String(tool.name)}.${name}`).toBeTruthy();
      }
      expect(tool.outputSchema).toMatchObject({ type: "object" });
      const annotations = tool.annotations as { readOnlyHint: boolean };
      if (annotations.readOnlyHint) expect(String(tool.description)).not.toMatch(/not persisted/);
      else expect(String(tool.description)).toMatch(/not persisted/);
    }
  });

  it("list_tickets: newest first, 20 by default, cursor pages without overlap", async () => {
    const first = await shared.ok<TicketPage>("list_tickets");
    expect(first.tickets).toHaveLength(20);
    expect(first.total).toBe(10000);
    expect(first.tickets[0]!.id).toBe("tkt_010000");
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await shared.ok<TicketPage>("list_tickets", { cursor: first.nextCursor });
    expect(second.tickets[0]!.id).toBe("tkt_009980");
    const ids = [...first.tickets, ...second.tickets].map((t) => t.id);
    expect(new Set(ids).size).toBe(40);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("list_tickets: filters combine, and walking every page yields exactly the total", async () => {
    const filters = { status: "open", priority: "urgent" };
    const expected = shared.store.tickets.filter((t) => t.status === "open" && t.priority === "urgent");
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page: TicketPage = await shared.ok<TicketPage>("list_tickets", { ...filters, limit: 7, cursor });
      expect(page.total).toBe(expected.length);
      for (const t of page.tickets) expect([t.status, t.priority]).toEqual(["open", "urgent"]);
      seen.push(...page.tickets.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(expected.length);
    expect(seen.length).toBe(expected.length);
  });

  it("list_tickets: assignee, tag, customer and date filters", async () => {
    const agent = shared.store.agents[3]!.name;
    const byAgent = await shared.ok<TicketPage>("list_tickets", {
      assignee: agent.toUpperCase(),
      limit: 100,
    });
    expect(byAgent.total).toBe(shared.store.tickets.filter((t) => t.assignee === agent).length);
    for (const t of byAgent.tickets) expect(t.assignee).toBe(agent);

    const unassigned = await shared.ok<TicketPage>("list_tickets", { assignee: "unassigned" });
    expect(unassigned.total).toBe(shared.store.tickets.filter((t) => t.assignee === null).length);
    expect(unassigned.total).toBeGreaterThan(0);

    const vip = await shared.ok<TicketPage>("list_tickets", { tag: "VIP", limit: 100 });
    expect(vip.total).toBeGreaterThan(0);
    for (const t of vip.tickets) expect(t.tags).toContain("vip");

    const customerId = shared.store.tickets[42]!.customerId;
    const mine = await shared.ok<TicketPage>("list_tickets", { customerId, limit: 100 });
    expect(mine.total).toBe(shared.store.ticketsOf(customerId).length);

    const march = await shared.ok<TicketPage>("list_tickets", {
      createdAfter: "2026-03-01",
      createdBefore: "2026-03-08T00:00:00Z",
      limit: 100,
    });
    expect(march.total).toBe(
      shared.store.tickets.filter((t) => t.createdAt >= "2026-03-01" && t.createdAt < "2026-03-08").length,
    );
    for (const t of march.tickets) expect(t.createdAt.slice(0, 10) >= "2026-03-01").toBe(true);
  });

  it("list_tickets: bad cursors, unknown agents and bad ranges are clear errors", async () => {
    const page = await shared.ok<TicketPage>("list_tickets", { status: "open" });
    expect(await shared.fails("list_tickets", { status: "closed", cursor: page.nextCursor })).toMatch(
      /other filters/,
    );
    expect(await shared.fails("list_tickets", { cursor: "not-a-cursor" })).toMatch(/Invalid cursor/);
    expect(await shared.fails("list_tickets", { assignee: "Nobody Here" })).toMatch(
      /No agent named "Nobody Here"/,
    );
    expect(await shared.fails("list_tickets", { customerId: "cus_99999" })).toMatch(/cus_99999/);
    expect(
      await shared.fails("list_tickets", { createdAfter: "2026-03-02", createdBefore: "2026-03-01" }),
    ).toMatch(/must be earlier/);
  });

  it("rejects invalid arguments with the field named", async () => {
    expect(await shared.fails("list_tickets", { limit: 500 })).toMatch(/Input validation error[\s\S]*limit/);
    expect(await shared.fails("list_tickets", { status: "bogus" })).toMatch(/status/);
    expect(await shared.fails("list_tickets", { statuses: ["open"] })).toMatch(/statuses/);
    expect(await shared.fails("list_tickets", { createdAfter: "last tuesday" })).toMatch(/createdAfter/);
    expect(await shared.fails("list_tickets", { createdAfter: "2026-02-30" })).toMatch(
      /"2026-02-30" is not a valid date/,
    );
    expect(await shared.fails("ticket_stats", { groupBy: "tag", createdBefore: "2026-13-01" })).toMatch(
      /not a valid/,
    );
    expect(await shared.fails("get_ticket", {})).toMatch(/id/);
    expect(await shared.fails("search_tickets", { query: 42 })).toMatch(/query/);
    expect(await shared.fails("no_such_tool", {})).toMatch(/no_such_tool not found/);
  });

  it("get_ticket: the ticket, its customer and conversation; unknown ids name the id", async () => {
    const { ticket, customer, comments } = await shared.ok<{
      ticket: Ticket;
      customer: Record<string, unknown>;
      comments: Comment[];
    }>("get_ticket", { id: "tkt_000123" });
    expect(ticket.id).toBe("tkt_000123");
    expect(customer).toMatchObject({
      id: ticket.customerId,
      name: expect.any(String),
      plan: expect.any(String),
    });
    expect(comments).toHaveLength(ticket.commentCount);
    expect(comments.map((c) => c.createdAt)).toEqual(comments.map((c) => c.createdAt).sort());

    const open = shared.store.tickets.find((t) => t.commentCount >= 3)!;
    const publicOnly = await shared.ok<{ comments: Comment[] }>("get_ticket", {
      id: open.id,
      includeInternal: false,
    });
    expect(publicOnly.comments.every((c) => !c.internal)).toBe(true);

    expect(await shared.fails("get_ticket", { id: "tkt_999999" })).toMatch(/No ticket with id "tkt_999999"/);
  });

  it("search_tickets: every word must match, best matches first", async () => {
    const { tickets, total } = await shared.ok<TicketPage>("search_tickets", {
      query: "Refund INVOICE",
      limit: 5,
    });
    expect(tickets).toHaveLength(5);
    expect(total).toBeGreaterThan(5);
    for (const t of tickets) {
      const text = `${t.subject} ${t.body}`.toLowerCase();
      expect(text).toContain("refund");
      expect(text).toContain("invoice");
    }
    const none = await shared.ok<TicketPage>("search_tickets", { query: "xylophone" });
    expect(none).toEqual({ tickets: [], total: 0 });
    expect(await shared.fails("search_tickets", { query: "!!!" })).toMatch(/no words/);
  });

  it("ticket_stats: groups add up, and filters narrow them", async () => {
    const byStatus = await shared.ok<{ total: number; groups: Array<{ key: string; count: number }> }>(
      "ticket_stats",
      { groupBy: "status" },
    );
    expect(byStatus.total).toBe(10000);
    expect(byStatus.groups.reduce((n, g) => n + g.count, 0)).toBe(10000);
    expect(byStatus.groups.map((g) => g.count)).toEqual(
      byStatus.groups.map((g) => g.count).sort((a, b) => b - a),
    );

    const openByAssignee = await shared.ok<{ total: number; groups: Array<{ key: string; count: number }> }>(
      "ticket_stats",
      { groupBy: "assignee", status: "open", createdAfter: "2026-01-01" },
    );
    const expected = shared.store.tickets.filter((t) => t.status === "open" && t.createdAt >= "2026-01-01");
    expect(openByAssignee.total).toBe(expected.length);
    expect(openByAssignee.groups.find((g) => g.key === "unassigned")?.count).toBe(
      expected.filter((t) => t.assignee === null).length,
    );

    const byTag = await shared.ok<{ groups: Array<{ key: string }> }>("ticket_stats", { groupBy: "tag" });
    expect(byTag.groups.map((g) => g.key)).toEqual(expect.arrayContaining(["billing", "bug", "vip"]));
    expect(await shared.fails("ticket_stats", { groupBy: "weather" })).toMatch(/groupBy/);
  });
});
