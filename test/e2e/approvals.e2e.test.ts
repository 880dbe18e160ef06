import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import type { SearchResult, ToolDefinition } from "../../shared/contract/discovery";
import type { ExecuteResult } from "../../shared/contract/execute";
import { AUTH, adminRequest, execute, gatewayUrl, teamWithKey } from "./client";

// Approvals as a person meets them (contract "Approvals, progress, cancellation"): a call from code
// to a tool the team's policy names waits until the MCP client's person or an operator decides it.
// The demo's update_ticket is annotated destructiveHint: true, so the default APPROVALS asks for it.

type Asked = ElicitRequest["params"];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

/** An MCP client; with `answer`, one that declares form elicitation and answers each question so. */
async function client(
  headers: Record<string, string> = AUTH,
  answer?: (asked: Asked) => ElicitResult,
): Promise<{ client: Client; asked: Asked[] }> {
  const asked: Asked[] = [];
  const c = new Client(
    { name: "e2e-approvals", version: "1.0.0" },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer) {
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { requestInit: { headers } }),
  );
  clients.push(c);
  return { client: c, asked };
}

const approve =
  (remember = "call") =>
  () => ({ action: "accept" as const, content: { approve: true, remember } });
const deny = () => ({ action: "decline" as const });

/** Code that sets an open ticket to `pending` and returns its status before and after (or the error). */
const UPDATE = `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 1 });
const id = tickets[0].id;
let error = null;
try { await tools.demo.update_ticket({ id, status: "pending" }); } catch (e) { error = e.name + ": " + e.message; }
const after = (await tools.demo.get_ticket({ id })).ticket.status;
return { id, error, after };`;

type Updated = { id: string; error: string | null; after: string };

describe("a client that can be asked (form elicitation on the execute's stream)", () => {
  it("asks once, naming the tool, its server and its arguments; approved, the call runs", async () => {
    const { client: c, asked } = await client(AUTH, approve());
    const out = await execute(c, { code: UPDATE });
    const result = out.result as Updated;
    expect(out.error).toBeUndefined();
    expect(result).toMatchObject({ error: null, after: "pending" });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain("demo.update_ticket");
    expect(asked[0]?.message).toContain('server "demo"');
    expect(asked[0]?.message).toContain(`"id":"${result.id}"`);
    const schema = (
      asked[0] as { requestedSchema: { properties: Record<string, unknown>; required: string[] } }
    ).requestedSchema;
    expect(Object.keys(schema.properties)).toEqual(["approve", "remember"]);
    expect(schema.required).toEqual(["approve"]);
  });

  it("denied, the call throws ApprovalDeniedError in the code and never reaches the upstream", async () => {
    const { client: c, asked } = await client(AUTH, deny);
    const result = (await execute(c, { code: UPDATE })).result as Updated;
    expect(asked).toHaveLength(1);
    expect(result.error).toMatch(
      /^ApprovalDeniedError: demo\.update_ticket was denied by the user \(approval apr_[0-9a-f]{24}\); the call did not run/,
    );
    expect(result.after).toBe("open");
    const audit = await fetch(`${gatewayUrl()}/v1/audit?tool=demo.update_ticket&limit=5`, { headers: AUTH });
    const { entries } = (await audit.json()) as {
      entries: Array<{ kind: string; status: string; error?: string; decidedBy?: string }>;
    };
    expect(entries.find((e) => e.kind === "approval")).toMatchObject({
      status: "error",
      error: "ApprovalDeniedError",
      decidedBy: "client",
    });
  });

  it("remembers an approval for the execution, then for the session, as the person chose", async () => {
    const twice = `for (const status of ["pending", "open"]) await tools.demo.update_ticket({ id: (await tools.demo.list_tickets({ limit: 1 })).tickets[0].id, status }); return "done";`;
    const perCall = await client(AUTH, approve("call"));
    expect((await execute(perCall.client, { code: twice })).result).toBe("done");
    expect(perCall.asked).toHaveLength(2);

    const perExecution = await client(AUTH, approve("execution"));
    expect((await execute(perExecution.client, { code: twice })).result).toBe("done");
    expect((await execute(perExecution.client, { code: twice })).result).toBe("done");
    expect(perExecution.asked).toHaveLength(2);

    const perSession = await client(AUTH, approve("session"));
    expect((await execute(perSession.client, { code: twice })).result).toBe("done");
    expect((await execute(perSession.client, { code: twice })).result).toBe("done");
    expect(perSession.asked).toHaveLength(1);
  });

  it("asks from Python too", async () => {
    const { client: c, asked } = await client(AUTH, deny);
    const out = await execute(c, {
      language: "python",
      code: `t = (await tools.demo.list_tickets(status="open", limit=1))["tickets"][0]
try:
    await tools.demo.update_ticket(id=t["id"], status="closed")
    r = "ran"
except Exception as e:
    r = type(e).__name__
r`,
    });
    expect(out.error).toBeUndefined();
    expect(out.result).toBe("ApprovalDeniedError");
    expect(asked).toHaveLength(1);
  });
});

describe("a client that declared only URL elicitation", () => {
  it("is sent the approval page, where the person signs in with the team's key and decides", async () => {
    const headers = await teamWithKey("e2e-approvals-url", { servers: { demo: { service: "DEMO" } } });
    const key = headers.Authorization?.replace("Bearer ", "") ?? "";
    const asked: Asked[] = [];
    const completed: string[] = [];
    const c = new Client(
      { name: "e2e-url", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } } },
    );
    c.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept" };
    });
    c.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { requestInit: { headers } }),
    );
    clients.push(c);
    const running = execute(c, { code: UPDATE });
    while (asked.length === 0) await new Promise((r) => setTimeout(r, 50));
    const question = asked[0] as { mode: string; url: string; elicitationId: string };
    expect(question.mode).toBe("url");
    expect(question.url).toBe(`${gatewayUrl()}/approve/${question.elicitationId}`);

    const first = await fetch(question.url);
    const signIn = await first.text();
    expect(first.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(signIn).not.toContain("update_ticket");
    const post = (form: Record<string, string>, origin?: string) =>
      fetch(question.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          ...(origin ? { Origin: origin } : {}),
        },
        body: new URLSearchParams(form),
      });
    expect((await post({ key: "gw_not_a_key_at_all_0000" })).status).toBe(401);
    const stranger = await teamWithKey("e2e-approvals-url-b", { servers: { demo: { service: "DEMO" } } });
    const strangerKey = stranger.Authorization?.replace("Bearer ", "") ?? "";
    expect((await post({ key: strangerKey })).status).toBe(404);
    const shown = await (await post({ key }, new URL(gatewayUrl()).origin)).text();
    expect(shown).toContain("demo.update_ticket");
    expect(shown).toContain("&quot;status&quot;:&quot;pending&quot;");
    const decided = await (await post({ key, decision: "deny" })).text();
    expect(decided).toContain("Decided: <strong>denied</strong> by client");
    expect(((await running).result as Updated).error).toMatch(/^ApprovalDeniedError: .* denied by the user/);
    expect(completed).toEqual([question.elicitationId]);
  });
});

describe("the team's policy", () => {
  it("requires approval for skills by glob, and for calls inside a skill", async () => {
    const headers = await teamWithKey("e2e-approvals-skills", {
      servers: { demo: { service: "DEMO" } },
      approvals: { require: ["skills.*"] },
    });
    const saver = await client(headers);
    const saved = await execute(saver.client, {
      code: `return await skills.save({ name: "reopen", description: "Reopen a ticket", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, code: "return await tools.demo.update_ticket({ id: args.id, status: 'open' });" });`,
    });
    expect(saved.error).toBeUndefined();
    const { client: c, asked } = await client(headers, (q) =>
      q.message.includes("skills.reopen") ? approve()() : deny(),
    );
    const out = await execute(c, {
      code: `const id = (await tools.demo.list_tickets({ limit: 1 })).tickets[0].id; try { await skills.reopen({ id }); return "ran"; } catch (e) { return e.name; }`,
    });
    expect(out.result).toBe("ApprovalDeniedError");
    expect(asked.map((q) => /wants to call (\S+)/.exec(q.message)?.[1])).toEqual([
      "skills.reopen",
      "demo.update_ticket",
    ]);
  });

  it("says in search_tools and get_tool_definition that a call will wait for a person", async () => {
    const { client: c } = await client();
    const found = await c.callTool({
      name: "search_tools",
      arguments: { query: "update ticket status", limit: 3 },
    });
    const text = (r: Record<string, unknown>) => (r.content as Array<{ text: string }>)[0]?.text ?? "";
    const tools = (JSON.parse(text(found)) as SearchResult).tools;
    expect(tools.find((t) => t.name === "demo.update_ticket")?.approval).toBe(
      "waits for a person's approval (destructiveHint), up to 120 s",
    );
    expect(tools.find((t) => t.name === "demo.get_ticket")?.approval).toBeUndefined();
    const def = await c.callTool({ name: "get_tool_definition", arguments: { name: "demo.update_ticket" } });
    expect((JSON.parse(text(def)) as ToolDefinition).approval).toContain("destructiveHint");
  });
});

describe("a caller that cannot be asked waits for an operator", () => {
  const pendingFor = async (team: string) => {
    for (let i = 0; i < 100; i++) {
      const res = await adminRequest("GET", `/approvals?team=${team}`);
      const { pending } = (await res.json()) as {
        pending: Array<{ id: string; tool: string; args: string; team: string; waitingMs: number }>;
      };
      if (pending.length > 0) return pending;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no pending approval for ${team}`);
  };

  it("an MCP client without elicitation: the operator approves, then denies, through the admin API", async () => {
    const team = "e2e-approvals-op";
    const headers = await teamWithKey(team, { servers: { demo: { service: "DEMO" } } });
    const { client: c } = await client(headers);
    const running = execute(c, { code: UPDATE });
    const [waiting] = await pendingFor(team);
    expect(waiting).toMatchObject({ tool: "demo.update_ticket", team });
    expect(waiting?.args).toContain('"status":"pending"');
    const decided = await adminRequest("POST", `/approvals/${waiting?.id}`, { approve: true });
    expect(decided.status).toBe(200);
    expect((await running).result).toMatchObject({ error: null, after: "pending" });
    const again = await adminRequest("POST", `/approvals/${waiting?.id}`, { approve: false });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already decided: approved by operator");

    const second = execute(c, { code: UPDATE });
    const [next] = await pendingFor(team);
    expect((await adminRequest("POST", `/approvals/${next?.id}`, { approve: false })).status).toBe(200);
    expect(((await second).result as Updated).error).toMatch(
      /^ApprovalDeniedError: .* denied by an operator/,
    );
  });

  it("REST with Accept: text/event-stream: an approval event names the id, the result event ends the stream", async () => {
    const team = "e2e-approvals-rest";
    const headers = await teamWithKey(team, { servers: { demo: { service: "DEMO" } } });
    const res = await fetch(`${gatewayUrl()}/v1/execute`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ code: `console.log("start"); ${UPDATE}` }),
    });
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const [waiting] = await pendingFor(team);
    await adminRequest("POST", `/approvals/${waiting?.id}`, { approve: false });
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event).filter((e) => e !== "progress")).toEqual(["log", "approval", "result"]);
    expect(events.find((e) => e.event === "approval")?.data).toMatchObject({
      id: waiting?.id,
      tool: "demo.update_ticket",
    });
    const result = events.at(-1)?.data as ExecuteResult;
    expect((result.result as Updated).error).toContain("ApprovalDeniedError");
  });

  it("times out after the team's timeoutSeconds, or sooner when the execution's timeoutMs ends first", async () => {
    const headers = await teamWithKey("e2e-approvals-timeout", {
      servers: { demo: { service: "DEMO" } },
      approvals: { require: ["demo.get_ticket"], timeoutSeconds: 5 },
    });
    const { client: c } = await client(headers);
    const code = `try { await tools.demo.get_ticket({ id: "tkt_000001" }); return "ran"; } catch (e) { return e.name + ": " + e.message; }`;
    const started = Date.now();
    const policy = await execute(c, { code });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(policy.result).toMatch(/^ApprovalTimeoutError: demo\.get_ticket: nobody decided within 5 s/);
    const short = await execute(c, { code, timeoutMs: 2_000 });
    expect(short.result).toMatch(
      /^ApprovalTimeoutError: demo\.get_ticket: no decision before the execution's timeoutMs \(2000 ms\) ran out .* Retry with a larger timeoutMs \(up to \d+, EXEC_MAX_TIMEOUT_MS\)/,
    );
  });
});

function parseSse(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      return { event, data: JSON.parse(data) as unknown };
    });
}
