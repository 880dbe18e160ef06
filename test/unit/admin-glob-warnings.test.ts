import { describe, expect, it } from "vitest";
import { admin } from "../helpers/teams";

interface Saved {
  name: string;
  allow?: string[];
  deny?: string[];
  warnings?: string[];
}

const put = async (team: string, body: unknown): Promise<{ status: number; saved: Saved }> => {
  const res = await admin("PUT", `/teams/${team}`, body);
  return { status: res.status, saved: (await res.json()) as Saved };
};

const DEMO = { demo: { service: "DEMO" } };

describe("PUT /admin/teams/{team} checks the allow/deny globs against the team's tools", () => {
  it("saves the team and warns of each glob that matches no tool", async () => {
    const { status, saved } = await put("globs-typo", {
      servers: DEMO,
      allow: ["demo.*", "demo.lst_*"],
      deny: ["demo.updat_ticket", "demo.update_*", "skills.*"],
    });
    expect(status).toBe(201);
    expect(saved.warnings).toEqual([
      'allow "demo.lst_*" matches no tool of the team\'s servers (demo); check its spelling',
      'deny "demo.updat_ticket" matches no tool of the team\'s servers (demo); check its spelling',
    ]);
    const stored = (await (await admin("GET", "/teams/globs-typo")).json()) as Saved;
    expect(stored.deny).toEqual(["demo.updat_ticket", "demo.update_*", "skills.*"]);
    expect(stored).not.toHaveProperty("warnings");
    // Replacing it answers 200, with the warnings of the new globs only.
    const again = await put("globs-typo", { servers: DEMO, deny: ["demo.update_ticket"] });
    expect(again.status).toBe(200);
    expect(again.saved).not.toHaveProperty("warnings");
  });

  it("names a glob over a server the team does not have", async () => {
    const { saved } = await put("globs-server", { servers: DEMO, deny: ["githb.*"] });
    expect(saved.warnings).toEqual([
      'deny "githb.*" matches no tool: the team has no server "githb" (servers: demo)',
    ]);
  });

  it("says a glob could not be checked against a server without a tool list, rather than unmatched", async () => {
    const { status, saved } = await put("globs-down", {
      servers: { ...DEMO, down: { url: "https://down.example.com/mcp" } },
      deny: ["down.delete_*", "*.nothing_here", "demo.nothing_here"],
    });
    expect(status).toBe(201);
    expect(saved.warnings).toHaveLength(3);
    expect(saved.warnings?.[0]).toMatch(/^deny "down\.delete_\*" could not be checked against down \(./);
    expect(saved.warnings?.[1]).toMatch(/^deny "\*\.nothing_here" could not be checked against down \(./);
    expect(saved.warnings?.[2]).toBe(
      'deny "demo.nothing_here" matches no tool of the team\'s servers (demo, down); check its spelling',
    );
  });

  it("says nothing when every glob matches, or there are none", async () => {
    const matched = await put("globs-fine", { servers: DEMO, allow: ["demo.list_*"], deny: ["*.create_*"] });
    expect(matched.status).toBe(201);
    expect(matched.saved).not.toHaveProperty("warnings");
    expect((await put("globs-none", {})).saved).not.toHaveProperty("warnings");
  });
});
