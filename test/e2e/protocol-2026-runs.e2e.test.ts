import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  resultFromTaskOutcome,
  taskViewFromExecutionEvent,
} from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, describe, expect, it } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { taskDispatch } from "../helpers/task-dispatch";
import { AUTH, gatewayUrl, teamWithKey } from "./client";
import { newWire, postModern, recordingFetch } from "./eras";

// What outlives one request on MCP 2026-07-28: an approval asked with `input_required` and answered
// by the client's retry, and a long execution run as a task (progress, result, cancellation).

const PROTOCOL = "2026-07-28";
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** Sets an open ticket to `pending` (demo.update_ticket is destructive: the team's policy asks). */
const UPDATE = `const { tickets } = await tools.demo.list_tickets({ status: "open", limit: 1 });
const id = tickets[0].id;
let error = null;
try { await tools.demo.update_ticket({ id, status: "pending" }); } catch (e) { error = e.name; }
return { id, error, after: (await tools.demo.get_ticket({ id })).ticket.status };`;

async function modernClient(answer?: { approve: boolean }) {
  const wire = newWire();
  const asked: string[] = [];
  const client = new Client(
    { name: "e2e-2026", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: PROTOCOL } },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: answer.approve } };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { fetch: recordingFetch(wire) }),
  );
  closers.push(() => client.close());
  return { client, wire, asked };
}

type AuditEntry = { tool: string; ts: number; status: string };
async function audit(query: string, headers = AUTH): Promise<AuditEntry[]> {
  const res = await fetch(`${gatewayUrl()}/v1/audit?${query}`, { headers });
  return ((await res.json()) as { entries: AuditEntry[] }).entries;
}

describe("approvals as input_required", () => {
  it.each([
    { approve: true, error: null, after: "pending" },
    { approve: false, error: "ApprovalDeniedError", after: "open" },
  ])("approve: $approve — the retry carries the answer, the suspended execution goes on", async (c) => {
    const { client, wire, asked } = await modernClient({ approve: c.approve });
    const res = await client.callTool({ name: "execute", arguments: { code: UPDATE } });
    const result = res.structuredContent as ExecuteResult;
    expect(result.error).toBeUndefined();
    expect(result.result).toMatchObject({ error: c.error, after: c.after });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("demo.update_ticket");
    // Two tools/call requests: the first answered input_required, the retry carried the answer.
    const calls = wire.bodies.filter((b) => (b as { method?: string }).method === "tools/call") as Array<{
      params: { inputResponses?: Record<string, unknown>; requestState?: string };
    }>;
    expect(calls).toHaveLength(2);
    expect(calls[1]?.params.inputResponses?.approval).toMatchObject({ action: "accept" });
    expect(calls[1]?.params.requestState).toEqual(expect.any(String));
  });

  it("refuses a forged requestState", async () => {
    const res = await postModern(
      "tools/call",
      {
        name: "execute",
        arguments: { code: "return 1" },
        requestState: "eyJydW4iOiJydW5fMDAifQ.forged",
        inputResponses: { approval: { action: "accept", content: { approve: true } } },
      },
      { capabilities: { elicitation: { form: {} } } },
    );
    const text = await res.text();
    expect(text).not.toContain('"result":1');
    // The SDK's verification (mcp/round-trip.ts's codec) refuses it before the tool runs.
    expect(JSON.parse(text)).toMatchObject({
      id: 1,
      error: {
        code: -32602,
        message: "Invalid or expired requestState",
        data: { reason: "invalid_request_state" },
      },
    });
  });
});

async function taskSession(headers = AUTH) {
  const url = new URL(`${gatewayUrl()}/mcp`);
  const fetchWithKey = recordingFetch(newWire(), headers);
  const clientInfo = { name: "e2e-tasks", version: "1.0.0" };
  const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: PROTOCOL } } });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: fetchWithKey }));
  const session = createTaskSessionFromClient(client, {
    endpointId: `e2e-${Date.now()}`,
    rawDispatch: taskDispatch(fetchWithKey, url),
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo, clientCapabilities: {} },
  });
  closers.push(async () => {
    await session.close();
    await client.close();
  });
  return session;
}

describe("tasks", () => {
  it("a long execution becomes a task: progress while it runs, its result at the end; a short one answers at once", async () => {
    const session = await taskSession();
    const quick = await session.callTool("execute", { code: "return 1 + 1" });
    expect(quick.kind).toBe("immediate");

    const code = `for (let i = 0; i < 6; i++) { await tools.demo.list_tickets({ limit: 1 }); await new Promise((r) => setTimeout(r, 400)); }
return "six calls";`;
    const execution = await session.callTool("execute", { code });
    expect(execution.kind).toBe("task");
    const seen: string[] = [];
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        const view = taskViewFromExecutionEvent(event);
        if (view) seen.push(`${view.status}:${view.statusMessage ?? ""}`);
      },
    });
    expect(outcome.status).toBe("completed");
    const result = resultFromTaskOutcome(outcome) as { structuredContent?: ExecuteResult };
    expect(result.structuredContent?.result).toBe("six calls");
    expect(seen.some((s) => s.startsWith("working:demo.list_tickets finished"))).toBe(true);
  });

  it("tasks/cancel stops the execution: its calls stop and its audit entry says cancelled; another team cannot see it", async () => {
    const session = await taskSession();
    const since = Date.now();
    const code = `for (let i = 0; i < 200; i++) { await tools.demo.list_tickets({ limit: 1 }); await new Promise((r) => setTimeout(r, 100)); }
return "finished";`;
    const execution = await session.callTool("execute", { code, timeoutMs: 60_000 });
    expect(execution.kind).toBe("task");
    const taskId = execution.kind === "task" ? execution.handle.taskId : "";

    const other = await teamWithKey(`tasks-other-${Date.now()}`, {});
    const peek = await taskDispatch(fetch, new URL(`${gatewayUrl()}/mcp`))(
      {
        method: "tasks/get",
        params: {
          taskId,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": { name: "other", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {
              extensions: { "io.modelcontextprotocol/tasks": {} },
            },
          },
        },
      },
      { context: { headers: other } },
    );
    expect(peek.kind).toBe("error");

    await new Promise((r) => setTimeout(r, 1_000));
    const cancelledAt = Date.now();
    await execution.cancel();
    expect((await execution.settle()).outcome.status).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 1_500));
    const calls = await audit(`since=${since}&tool=demo.list_tickets&limit=1000`);
    expect(Math.max(...calls.map((e) => e.ts)) - cancelledAt).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await audit(`since=${since}&tool=demo.list_tickets&limit=1000`)).toHaveLength(calls.length);
    const executions = await audit(`since=${since}&tool=execute&limit=10`);
    expect(executions.filter((e) => e.status === "cancelled")).toHaveLength(1);
  });

  it("an approval inside a task: tasks/get shows input_required with the form, tasks/update answers it, the task completes", async () => {
    const url = new URL(`${gatewayUrl()}/mcp`);
    const dispatch = taskDispatch(fetch, url);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": PROTOCOL,
      "io.modelcontextprotocol/clientInfo": { name: "raw-tasks", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    };
    const call = (method: string, params: Record<string, unknown>) =>
      dispatch({ method, params: { ...params, _meta: meta } }, { context: { headers: AUTH } });
    const resultOf = async (method: string, params: Record<string, unknown>) => {
      const reply = await call(method, params);
      if (reply.kind !== "result") throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
      return reply.result as Record<string, unknown>;
    };
    const created = await resultOf("tools/call", {
      name: "execute",
      arguments: { code: `await new Promise((r) => setTimeout(r, 1500));\n${UPDATE}`, timeoutMs: 60_000 },
    });
    expect(created.resultType).toBe("task");
    const taskId = created.taskId as string;
    let task = created;
    for (let i = 0; i < 100 && task.status !== "input_required"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = await resultOf("tasks/get", { taskId });
    }
    expect(task.status).toBe("input_required");
    const asked = (task.inputRequests as { approval: { method: string; params: { message: string } } })
      .approval;
    expect(asked.method).toBe("elicitation/create");
    expect(asked.params.message).toContain("demo.update_ticket");
    await resultOf("tasks/update", {
      taskId,
      inputResponses: { approval: { action: "accept", content: { approve: true } } },
    });
    for (let i = 0; i < 100 && task.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = await resultOf("tasks/get", { taskId });
    }
    expect(task.status).toBe("completed");
    const result = (task.result as { structuredContent: ExecuteResult }).structuredContent;
    expect(result.result).toMatchObject({ error: null, after: "pending" });
  });
});

describe("tasks/update", () => {
  const dispatch = () => taskDispatch(fetch, new URL(`${gatewayUrl()}/mcp`));
  const meta = (extensions: Record<string, object>) => ({
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": { name: "e2e-update", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { extensions },
  });
  const TASKS = { "io.modelcontextprotocol/tasks": {} };
  const call = (method: string, params: Record<string, unknown>) =>
    dispatch()({ method, params } as Parameters<RawClientDispatch>[0], { context: { headers: AUTH } });

  it("reads inputResponses where the SDK puts them (lifted out of params): an unknown task is not found", async () => {
    const update = await call("tasks/update", {
      taskId: "run_00000000000000000000000000000000",
      inputResponses: { approval: { action: "accept", content: { approve: true } } },
      _meta: meta(TASKS),
    });
    expect(update).toMatchObject({
      kind: "error",
      error: { code: -32602, message: expect.stringMatching(/Task not found/) },
    });
  });

  it("without the tasks extension: -32021 Missing required client capability", async () => {
    const update = await call("tasks/update", { taskId: "run_x", inputResponses: {}, _meta: meta({}) });
    expect(update).toMatchObject({ kind: "error", error: { code: -32021 } });
  });
});
