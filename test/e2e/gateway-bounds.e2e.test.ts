import { afterAll, expect, it } from "vitest";
import { adminRequest, gatewayUrl } from "./client";

// A team whose deny list holds a glob of many stars: accepted, and every request of that team is
// still served at once (a backtracking regex made each one cost seconds, sixteen stars hung it).
const admin = adminRequest;

afterAll(async () => {
  await admin("DELETE", "/teams/e2e-stars");
});

it("serves a team with a 30-star deny glob at once", async () => {
  const put = await admin("PUT", "/teams/e2e-stars", {
    servers: { demo: { service: "DEMO" } },
    deny: [`${"*".repeat(30)}x`, "demo.update_*"],
  });
  expect(put.status).toBe(201);
  const { key } = (await (await admin("POST", "/teams/e2e-stars/keys", { name: "stars" })).json()) as {
    key: string;
  };
  const started = Date.now();
  const res = await fetch(`${gatewayUrl()}/v1/tools?detail=name&limit=100`, {
    headers: { "X-API-Key": key },
  });
  expect(res.status).toBe(200);
  const names = ((await res.json()) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(names).toContain("demo.list_tickets");
  expect(names).not.toContain("demo.update_ticket");
});
