import { describe, expect, it } from "vitest";
import { request } from "../helpers/app";
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
});
