import { describe, expect, it } from "vitest";
import type { Customer } from "../../workers/demo-upstream/schemas";
import { type CustomerPage, demo } from "../helpers/demo-mcp";

// Tools over MCP: the customer and agent read tools.
// Read-only tests share one store.
const shared = demo();

describe("demo upstream: MCP over streamable HTTP", () => {
  it("list_customers: plan, country and company filters with pagination", async () => {
    const first = await shared.ok<CustomerPage>("list_customers", {
      plan: "enterprise",
      country: "de",
      limit: 5,
    });
    const expected = shared.store.customers.filter((c) => c.plan === "enterprise" && c.country === "DE");
    expect(first.total).toBe(expected.length);
    expect(first.customers.map((c) => c.id)).toEqual(expected.slice(0, 5).map((c) => c.id));
    const second = await shared.ok<CustomerPage>("list_customers", {
      plan: "enterprise",
      country: "DE",
      limit: 5,
      cursor: first.nextCursor,
    });
    expect(second.customers.map((c) => c.id)).toEqual(expected.slice(5, 10).map((c) => c.id));

    const acme = await shared.ok<CustomerPage>("list_customers", { company: "ACME", limit: 100 });
    expect(acme.total).toBeGreaterThan(0);
    for (const c of acme.customers) expect(c.company).toMatch(/^Acme /);
    expect(await shared.fails("list_customers", { country: "Germany" })).toMatch(/country/);
  });

  it("get_customer: ticket counts by status and recent tickets", async () => {
    const id = shared.store.tickets[9000]!.customerId;
    const result = await shared.ok<{
      customer: Customer;
      ticketCounts: Record<string, number>;
      recentTickets: Array<{ id: string }>;
    }>("get_customer", { id });
    const tickets = shared.store.ticketsOf(id);
    expect(result.customer.id).toBe(id);
    expect(result.ticketCounts.total).toBe(tickets.length);
    const { open = 0, pending = 0, resolved = 0, closed = 0 } = result.ticketCounts;
    expect(open + pending + resolved + closed).toBe(tickets.length);
    expect(result.recentTickets[0]!.id).toBe(tickets.at(-1)!.id);
    expect(await shared.fails("get_customer", { id: "cus_00000" })).toMatch(
      /No customer with id "cus_00000"/,
    );
  });

  it("search_customers: name, email or company substring", async () => {
    const target = shared.store.customers[321]!;
    const byEmail = await shared.ok<CustomerPage>("search_customers", { query: target.email.toUpperCase() });
    expect(byEmail.customers[0]!.id).toBe(target.id);
    const byName = await shared.ok<CustomerPage>("search_customers", { query: "garcia", limit: 3 });
    expect(byName.customers).toHaveLength(3);
    expect(byName.total).toBeGreaterThan(3);
    for (const c of byName.customers)
      expect(`${c.name} ${c.email} ${c.company}`.toLowerCase()).toContain("garcia");
    expect(await shared.fails("search_customers", { query: "a" })).toMatch(/query/);
  });

  it("list_agents: teams and workload", async () => {
    const { agents } = await shared.ok<{
      agents: Array<{ name: string; team: string; activeTickets: number }>;
    }>("list_agents");
    expect(agents).toHaveLength(25);
    const active = shared.store.tickets.filter(
      (t) => t.assignee !== null && (t.status === "open" || t.status === "pending"),
    ).length;
    expect(agents.reduce((n, a) => n + a.activeTickets, 0)).toBe(active);
    const billing = await shared.ok<{ agents: Array<{ team: string }> }>("list_agents", { team: "billing" });
    expect(billing.agents.length).toBeGreaterThan(0);
    expect(billing.agents.every((a) => a.team === "billing")).toBe(true);
  });
});
