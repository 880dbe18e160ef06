import { describe, expect, it } from "vitest";
import { request } from "../helpers/app";
import { admin } from "../helpers/teams";

interface TeamPage {
  teams: Array<{ name: string }>;
  cursor?: string;
}

const page = async (query: string): Promise<TeamPage> => {
  const res = await admin("GET", `/teams${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as TeamPage;
};

describe("GET /admin/teams", () => {
  it("needs the admin token", async () => {
    expect((await request("/admin/teams")).status).toBe(401);
  });

  it("lists the stored teams by name, a page at a time", async () => {
    const made = ["list-a", "list-b", "list-c"];
    for (const team of made) expect((await admin("PUT", `/teams/${team}`, {})).status).toBeLessThan(300);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await page(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(next.teams.length).toBeLessThanOrEqual(2);
      for (const team of next.teams) expect(Object.keys(team)).toEqual(["name"]);
      seen.push(...next.teams.map((t) => t.name));
      cursor = next.cursor;
    } while (cursor);
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(new Set(seen).size).toBe(seen.length);
    // Keys of a team are not teams.
    expect(seen.every((name) => !name.includes(":"))).toBe(true);
  });

  it("gives one page without a cursor when all fit", async () => {
    expect((await admin("PUT", "/teams/list-only", {})).status).toBeLessThan(300);
    const all = await page("");
    expect(all.cursor).toBeUndefined();
    expect(all.teams.map((t) => t.name)).toContain("list-only");
  });

  it.each([
    ["a zero limit", "?limit=0", /limit/],
    ["a limit over 1,000", "?limit=1001", /limit/],
    ["a limit that is no number", "?limit=many", /limit/],
    ["an unknown parameter", "?team=x", /team/],
  ])("answers %s with 400 naming it", async (_name, query, message) => {
    const res = await admin("GET", `/teams${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
  });
});

describe("GET /admin/teams/default without a stored record", () => {
  it("says team default is the configuration's", async () => {
    const res = await admin("GET", "/teams/default");
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/configuration's.*DEV_API_KEY.*MCP_SERVERS/);
  });
});
