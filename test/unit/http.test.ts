import { describe, expect, it } from "vitest";
import { AUTH, postJson, request } from "../helpers/app";

describe("probes", () => {
  it("answers /health, /live and /ready without a key", async () => {
    const health = await request("/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: "ok",
      version: expect.any(String),
      config: "valid",
      auth: "api-key",
    });
    expect((await request("/live")).status).toBe(200);
    const ready = await request("/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      upstreams: [{ name: "demo", state: "ok", tools: 11, ageSeconds: expect.any(Number) }],
    });
  });
});

describe("request ids and errors", () => {
  it("echoes a given X-Request-Id and makes one otherwise", async () => {
    expect(
      (await request("/live", { headers: { "X-Request-Id": "abc-123" } })).headers.get("X-Request-Id"),
    ).toBe("abc-123");
    expect((await request("/live")).headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown routes and other /.well-known/* paths with JSON 404", async () => {
    for (const path of [
      "/nope",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const res = await request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });
});

describe("API key", () => {
  it.each([
    ["no key", {}],
    ["a wrong bearer", { Authorization: "Bearer wrong-key-0123456789" }],
    ["a wrong X-API-Key", { "X-API-Key": "nope" }],
  ])("refuses %s with 401 and a Bearer challenge", async (_name, headers) => {
    const res = await request("/v1/execute", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe(
      'Bearer realm="mcp", resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    );
    expect(await res.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("accepts Authorization: Bearer as well as X-API-Key", async () => {
    const bearer = await request("/v1/execute", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${AUTH["X-API-Key"]}` },
      body: JSON.stringify({ code: "return 1" }),
    });
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toMatchObject({ result: 1 });
  });

  it("guards /mcp too, with a JSON-RPC error body", async () => {
    const res = await request("/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
  });
});

describe("Origin and CORS", () => {
  it("refuses a foreign Origin with 403", async () => {
    const res = await request("http://localhost/v1/execute", {
      method: "POST",
      headers: { ...AUTH, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "forbidden_origin" } });
  });

  it("refuses a DNS-rebound page: its Origin matches the Host it sent, which proves nothing", async () => {
    const res = await request("http://evil.example:8787/v1/execute", {
      method: "POST",
      headers: { ...AUTH, Origin: "http://evil.example:8787" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "forbidden_origin" } });
  });

  it("allows loopback origins in local development", async () => {
    expect((await request("http://localhost/live", { headers: { Origin: "http://localhost" } })).status).toBe(
      200,
    );
    expect(
      (await request("http://127.0.0.1:8787/live", { headers: { Origin: "http://localhost:6274" } })).status,
    ).toBe(200);
    expect(
      (await request("https://gw.example/live", { headers: { Origin: "http://localhost:6274" } })).status,
    ).toBe(403);
  });

  it("answers a preflight so browsers may send the key and MCP headers and read the session id", async () => {
    const res = await request("http://localhost/mcp", {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:6274",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,mcp-protocol-version,content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("http://localhost:6274");
    const allowed = res.headers.get("Access-Control-Allow-Headers")?.toLowerCase() ?? "";
    expect(allowed).toContain("authorization");
    expect(allowed).toContain("mcp-protocol-version");
    const exposed = await request("http://localhost/live", { headers: { Origin: "http://localhost:6274" } });
    expect(exposed.headers.get("Access-Control-Expose-Headers")).toContain("Mcp-Session-Id");
  });
});

describe("POST /v1/execute", () => {
  it("returns the same result object as the MCP tool", async () => {
    const res = await postJson("/v1/execute", {
      code: "console.log('hi');\nreturn { ok: true }",
      language: "typescript",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      result: { ok: true },
      logs: ["[log] hi"],
      stats: { toolCalls: 0, truncated: false },
    });
  });

  it.each([
    ["bad JSON", "{nope", 400, /not valid JSON/],
    ["a wrong type", JSON.stringify({ code: 42 }), 400, /code: .*expected string/],
    ["a missing field", JSON.stringify({}), 400, /code: .*expected string/],
    ["an unknown language", JSON.stringify({ code: "1", language: "ruby" }), 400, /language: /],
    ["a negative timeout", JSON.stringify({ code: "1", timeoutMs: -5 }), 400, /timeoutMs: /],
    ["an unknown field", JSON.stringify({ code: "1", extra: true }), 400, /extra/],
  ])("answers %s with a 4xx naming the problem", async (_name, body, status, message) => {
    const res = await request("/v1/execute", {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(status);
    const json = (await res.json()) as { error: { message: string } };
    expect(json.error.message).toMatch(message);
  });

  it("refuses bodies over MAX_REQUEST_BYTES with 413 and a non-JSON content type with 415", async () => {
    const huge = JSON.stringify({ code: `return "${"x".repeat(1_100_000)}"` });
    expect(
      (
        await request("/v1/execute", {
          method: "POST",
          headers: { ...AUTH, "Content-Type": "application/json" },
          body: huge,
        })
      ).status,
    ).toBe(413);
    expect(
      (
        await request("/v1/execute", {
          method: "POST",
          headers: { ...AUTH, "Content-Type": "text/plain" },
          body: "x",
        })
      ).status,
    ).toBe(415);
  });
});
