import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, connect, execute, gatewayUrl, restExecute, teamWithKey } from "./client";

// Sessions as a user meets them (contract "Sessions", "Inside executed code"): state and files that
// outlive one execution, the files as MCP resources (MCP 2025-11-25 server/resources), REST
// sessions, and the walls between sessions and teams.
let a: { client: Client; transport: StreamableHTTPClientTransport };
let b: { client: Client; transport: StreamableHTTPClientTransport };
let otherTeam: Record<string, string>;

beforeAll(async () => {
  a = await connect();
  b = await connect();
  otherTeam = await teamWithKey("e2e-sessions-b", { servers: { demo: { service: "DEMO" } } });
});
afterAll(async () => {
  await a?.client.close();
  await b?.client.close();
});

const workspaceUris = (resources: Array<{ uri: string }>) =>
  resources.map((r) => r.uri).filter((uri) => uri.startsWith("workspace://"));

const sessions = (method: string, path = "", headers = AUTH) =>
  fetch(`${gatewayUrl()}/v1/sessions${path}`, { method, headers });

// A deterministic 10 MiB of noise (xorshift32) and its SHA-256, computed in the sandbox.
// Random bytes in 64 KiB calls (getRandomValues' limit): a byte-by-byte loop took over 10 s on a
// starved machine, long enough for the supervisor to take the busy host for a hung one.
const NOISE = `const n = 10 * 1024 * 1024; const bytes = new Uint8Array(n);
for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));`;
const HEX = `const hex = async (b: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))].map((v) => v.toString(16).padStart(2, "0")).join("");`;

describe("state and workspace in an MCP session", () => {
  it("keeps state across executions and names the session in the result", async () => {
    const first = await execute(a.client, {
      code: "await state.set('rows', [{ id: 1 }, { id: 2 }]); await state.set('cursor', 'abc'); return await state.keys();",
    });
    expect(first).toMatchObject({ result: ["cursor", "rows"], sessionId: a.transport.sessionId });
    const second = await execute(a.client, {
      code: "const rows = await state.get('rows'); await state.delete('cursor'); return { rows, cursor: await state.get('cursor') ?? null, missing: (await state.get('nope')) === undefined };",
    });
    expect(second.result).toEqual({ rows: [{ id: 1 }, { id: 2 }], cursor: null, missing: true });
  });

  it("round-trips a 10 MiB binary file byte-exact, in code and as a resource blob", async () => {
    const write = await execute(a.client, {
      code: `${NOISE}\n${HEX}\nawait workspace.write("out/noise.bin", bytes); return await hex(bytes);`,
      timeoutMs: 60_000,
    });
    expect(write.error).toBeUndefined();
    const read = await execute(a.client, {
      code: `${HEX}\nconst b = await workspace.readBytes("out/noise.bin"); return { size: b.byteLength, sha: await hex(b) };`,
    });
    expect(read.result).toEqual({ size: 10 * 1024 * 1024, sha: write.result });
    const res = await a.client.readResource({ uri: "workspace://out/noise.bin" });
    const blob = (res.contents[0] as { blob: string }).blob;
    expect(createHash("sha256").update(Buffer.from(blob, "base64")).digest("hex")).toBe(write.result);
  });

  it("lists files as workspace:// resources and reads text back (server/resources)", async () => {
    const r = await execute(a.client, {
      code: "await workspace.write('reports/q3 summary.md', '# Q3\\nAll good ✓'); return await workspace.list('reports/');",
    });
    expect(r.result).toEqual([
      { path: "reports/q3 summary.md", size: 17, modifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) },
    ]);
    const { resources } = await a.client.listResources();
    expect(resources.map((x) => x.uri)).toEqual(
      expect.arrayContaining(["workspace://out/noise.bin", "workspace://reports/q3%20summary.md"]),
    );
    const { resourceTemplates } = await a.client.listResourceTemplates();
    expect(resourceTemplates).toEqual(
      expect.arrayContaining([expect.objectContaining({ uriTemplate: "workspace://{path}" })]),
    );
    const read = await a.client.readResource({ uri: "workspace://reports/q3%20summary.md" });
    expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown", text: "# Q3\nAll good ✓" });
    await expect(a.client.readResource({ uri: "workspace://reports/none.md" })).rejects.toThrow(/not found/i);
  });

  it("serves the same file out of band to the team's key, with an ETag (GET /v1/sessions/{id}/files/{path})", async () => {
    const path = `/${a.transport.sessionId}/files/reports/q3%20summary.md`;
    const res = await sessions("GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toBe("# Q3\nAll good ✓");
    const etag = res.headers.get("ETag") as string;
    expect((await sessions("GET", path, { ...AUTH, "If-None-Match": etag })).status).toBe(304);
    expect((await sessions("GET", path, otherTeam)).status).toBe(404);
  });

  it("throws NotFoundError, InvalidPathError (with the path) and QuotaError as named errors", async () => {
    const r = await execute(a.client, {
      code: `const out = [];
for (const f of [() => workspace.read("nope.txt"), () => workspace.write("../etc/passwd", "x"), () => workspace.write("big", new Uint8Array(10 * 1024 * 1024 + 1))]) {
  try { await f(); out.push("ok"); } catch (e) { out.push([e.name, e.path ?? null]); }
}
return out;`,
    });
    expect(r.result).toEqual([
      ["NotFoundError", "nope.txt"],
      ["InvalidPathError", "../etc/passwd"],
      ["QuotaError", null],
    ]);
  });

  it("reports info and history (newest first)", async () => {
    const r = await execute(a.client, {
      code: "return { info: await session.info(), history: await session.history() };",
    });
    const { info, history } = r.result as {
      info: { id: string; bytesUsed: number; quotaBytes: number };
      history: Array<{
        at: string;
        durationMs: number;
        toolCalls: number;
        error?: string;
        resultBytes: number;
      }>;
    };
    expect(info.id).toBe(a.transport.sessionId);
    expect(info.bytesUsed).toBeGreaterThan(10 * 1024 * 1024);
    expect(info.quotaBytes).toBe(50 * 1024 * 1024);
    expect(history.length).toBeGreaterThanOrEqual(5);
    expect(Date.parse(history[0]!.at)).toBeGreaterThanOrEqual(Date.parse(history[1]!.at));
    expect(history[0]).toMatchObject({ toolCalls: 0, resultBytes: expect.any(Number) });
  });

  it("keeps sessions apart: another MCP session sees none of it", async () => {
    const r = await execute(b.client, {
      code: "return { rows: (await state.get('rows')) ?? null, files: await workspace.list() };",
    });
    expect(r.result).toEqual({ rows: null, files: [] });
    expect(workspaceUris((await b.client.listResources()).resources)).toEqual([]);
  });
});

describe("sessions over REST", () => {
  it("makes, uses and deletes a session; a deleted one is 404", async () => {
    const made = await sessions("POST");
    expect(made.status).toBe(201);
    const { sessionId } = (await made.json()) as { sessionId: string };
    const set = await restExecute({ code: "await state.set('n', 41); return 1", sessionId });
    expect(set).toMatchObject({ status: 200, body: { result: 1, sessionId } });
    const get = await restExecute({ code: "return (await state.get('n')) + 1", sessionId });
    expect(get.body.result).toBe(42);
    expect((await sessions("DELETE", `/${sessionId}`)).status).toBe(204);
    const gone = await restExecute({ code: "return await state.get('n')", sessionId });
    expect(gone.status).toBe(404);
    expect((await sessions("DELETE", `/${sessionId}`)).status).toBe(404);
  });

  it("gives REST callers without sessionId no session: state throws NoSessionError", async () => {
    const r = await restExecute({ code: "await state.set('k', 1)" });
    expect(r.body.error).toMatchObject({ name: "NoSessionError" });
    expect(r.body.sessionId).toBeUndefined();
  });

  it("lets a REST caller use its MCP session's id, and the MCP client see the REST write", async () => {
    const sessionId = a.transport.sessionId!;
    await restExecute({ code: "await state.set('fromRest', true)", sessionId });
    expect((await execute(a.client, { code: "return await state.get('fromRest')" })).result).toBe(true);
  });

  it("answers an unknown sessionId with SessionNotFoundError on MCP", async () => {
    const r = await execute(a.client, { code: "return 1", sessionId: crypto.randomUUID() });
    expect(r).toMatchObject({ isError: true, error: { name: "SessionNotFoundError" } });
  });
});

describe("teams never see each other's sessions", () => {
  it("404s another team's sessionId on REST and MCP, and lists none of its files", async () => {
    const sessionId = a.transport.sessionId!;
    const rest = await restExecute({ code: "return await state.get('rows')", sessionId }, otherTeam);
    expect(rest.status).toBe(404);
    expect((await sessions("DELETE", `/${sessionId}`, otherTeam)).status).toBe(404);
    expect((await sessions("GET", `/${sessionId}`, otherTeam)).status).toBe(404);
    const other = await connect(otherTeam);
    try {
      const r = await execute(other.client, { code: "return 1", sessionId });
      expect(r.error).toMatchObject({ name: "SessionNotFoundError" });
      expect(workspaceUris((await other.client.listResources()).resources)).toEqual([]);
    } finally {
      await other.client.close();
    }
    // and it is all still there for its own team
    expect((await execute(a.client, { code: "return await state.get('rows')" })).result).toHaveLength(2);
  });
});

describe("ending an MCP session", () => {
  it("DELETE /mcp wipes its state and files", async () => {
    const c = await connect();
    const sessionId = c.transport.sessionId!;
    await execute(c.client, { code: "await state.set('x', 1); await workspace.write('f.txt', 'hi')" });
    await c.transport.terminateSession();
    await c.client.close();
    expect((await restExecute({ code: "return 1", sessionId })).status).toBe(404);
    const fresh = await sessions("GET", `/${sessionId}`);
    expect(fresh.status).toBe(404);
  });
});
