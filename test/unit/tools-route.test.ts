import { describe, expect, it } from "vitest";
import { AUTH, request, requestWith } from "../helpers/app";
import { teamWithKey } from "../helpers/teams";

const names = async (res: Response) =>
  ((await res.json()) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

describe("GET /v1/tools", () => {
  it("takes the search words as q or as query, as search_tools names them", async () => {
    const { key } = await teamWithKey("tools-route", { servers: { demo: { service: "DEMO" } } });
    const get = (query: string) => request(`/v1/tools?${query}`, { headers: { "X-API-Key": key } });
    const byQ = await get("q=close%20ticket%2042&detail=name&limit=2");
    const byQuery = await get("query=close%20ticket%2042&detail=name&limit=2");
    expect(byQ.status).toBe(200);
    expect(await names(byQuery)).toEqual(await names(byQ));
    expect((await names(await get("q=close%20ticket%2042&detail=name")))[0]).toBe("demo.update_ticket");
    const both = await get("q=ticket&query=customer");
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { message: string } }).error.message).toMatch(/q or query/);
  });

  it("answers GET /v1/tools/{name} with 404 only for an unknown tool, not for a broken server", async () => {
    const { key } = await teamWithKey("tools-route-404", {
      servers: { demo: { service: "DEMO" }, down: { url: "http://127.0.0.1:1/mcp" } },
    });
    const get = async (name: string, headers: Record<string, string> = { "X-API-Key": key }) => {
      const res = await request(`/v1/tools/${name}`, { headers });
      return { status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code };
    };
    expect((await get("demo.get_ticket")).status).toBe(200);
    expect(await get("demo.no_such_tool")).toEqual({ status: 404, code: "unknown_tool" });
    expect(await get("nowhere.tool")).toEqual({ status: 404, code: "unknown_tool" });
    expect(await get("down.anything")).toEqual({ status: 502, code: "upstream_unavailable" });
  });

  it("answers 503 misconfigured for a tool of a deployment server whose configuration is broken", async () => {
    const servers = { demo: { service: "DEMO" }, bad: { url: "not a url" } };
    const res = await requestWith({ MCP_SERVERS: JSON.stringify(servers) }, "/v1/tools/bad.anything", {
      headers: AUTH,
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(503);
    expect(body.error.code).toBe("misconfigured");
    expect(body.error.message).toMatch(/MCP_SERVERS\.bad\.url/);
  });
});
