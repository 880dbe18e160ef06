import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRequest, connect, execute, gatewayUrl, restExecute, teamWithKey } from "./client";

// PII tokenization (contract "PII tokenization") on the demo data, for a team with pii tokenize:
// what the client receives never holds an email or phone number; a token passed back in a later
// execution reaches the upstream as the real value.
const TEAM = "e2e-pii";
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const E164 = /\+\d{8,15}/;
let auth: Record<string, string>;
let mcp: { client: Client; transport: StreamableHTTPClientTransport };

beforeAll(async () => {
  auth = await teamWithKey(TEAM, { servers: { demo: { service: "DEMO" } }, pii: { mode: "tokenize" } });
  mcp = await connect(auth);
});
afterAll(async () => {
  await mcp?.client.close();
});

describe("PII tokenization on the demo data", () => {
  let first: { id: string; email: string; phone: string };

  it("returns customers with tokens instead of emails and phones, in result and logs", async () => {
    const r = await execute(mcp.client, {
      code: `const { customers } = await tools.demo.search_customers({ query: "garcia", limit: 5 });
console.log("first contact", customers[0].email, customers[0].phone);
return customers.map((c) => ({ id: c.id, email: c.email, phone: c.phone, seen: c.email.includes("@") }));`,
    });
    const text = JSON.stringify(r);
    expect(r.error).toBeUndefined();
    expect(text).not.toMatch(EMAIL);
    expect(text).not.toMatch(E164);
    const rows = r.result as Array<{ id: string; email: string; phone: string; seen: boolean }>;
    expect(rows.length).toBeGreaterThan(1);
    // code itself saw the real values
    expect(rows.every((row) => row.seen)).toBe(true);
    expect(rows[0]!.email).toMatch(/^\[EMAIL_\d+\]$/);
    expect(rows[0]!.phone).toMatch(/^\[PHONE_\d+\]$/);
    expect(new Set(rows.map((row) => row.email)).size).toBe(rows.length);
    expect(r.logs[0]).toBe(`[log] first contact ${rows[0]!.email} ${rows[0]!.phone}`);
    first = rows[0]!;
  });

  it("gives the same value the same token in a later execution", async () => {
    const r = await execute(mcp.client, {
      code: `const { customer } = await tools.demo.get_customer({ id: ${JSON.stringify(first.id)} }); return customer.email;`,
    });
    expect(r.result).toBe(first.email);
  });

  it("restores a token passed back in a tool call's arguments, alone or inside a longer string", async () => {
    const r = await execute(mcp.client, {
      code: `const alone = await tools.demo.search_customers({ query: ${JSON.stringify(first.email)} });
const { tickets } = await tools.demo.list_tickets({ limit: 1 });
const added = await tools.demo.add_ticket_comment({ ticketId: tickets[0].id, body: "Call ${first.phone} or write to ${first.email} today" });
const body = JSON.stringify(added);
const unknown = await tools.demo.search_customers({ query: "[EMAIL_999999]" });
return { alone: alone.customers.map((c) => c.id), upstreamGotRealValues: body.includes("@") && !body.includes("[EMAIL_"), unknown: unknown.total };`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({ alone: [first.id], upstreamGotRealValues: true, unknown: 0 });
  });

  it("tokenizes text workspace files read as resources", async () => {
    await execute(mcp.client, {
      code: `const { customer } = await tools.demo.get_customer({ id: ${JSON.stringify(first.id)} });
await workspace.write("contacts.csv", "id,email\\n" + customer.id + "," + customer.email);`,
    });
    const read = await mcp.client.readResource({ uri: "workspace://contacts.csv" });
    expect(read.contents[0]).toMatchObject({ text: `id,email\n${first.id},${first.email}` });
  });

  it("never writes the raw values into the audit log", async () => {
    const res = await fetch(`${gatewayUrl()}/v1/audit?limit=50`, {
      headers: auth,
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toMatch(EMAIL);
    expect(text).toContain("demo.search_customers");
  });

  it("tokenizes REST results too (no session: tokens for this execution only)", async () => {
    const r = await restExecute(
      {
        code: `const { customers } = await tools.demo.search_customers({ query: "garcia", limit: 3 }); return customers.map((c) => c.email);`,
      },
      auth,
    );
    expect(JSON.stringify(r.body)).not.toMatch(EMAIL);
    expect(r.body.result).toEqual(["[EMAIL_1]", "[EMAIL_2]", "[EMAIL_3]"]);
  });

  it("leaves other teams' results alone (PII_MODE is off by default)", async () => {
    const r = await restExecute({
      code: `const { customers } = await tools.demo.search_customers({ query: "garcia", limit: 1 }); return customers[0].email;`,
    });
    expect(r.body.result).toMatch(EMAIL);
  });

  afterAll(async () => {
    await adminRequest("DELETE", `/teams/${TEAM}`);
  });
});
