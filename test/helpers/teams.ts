import { expect } from "vitest";
import { forgetTeams } from "../../workers/gateway/teams/resolve";
import { request } from "./app";
import { TEST_ADMIN_TOKEN } from "./keys";

const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "Content-Type": "application/json" };

/** Calls the admin API with the tests' ADMIN_TOKEN. */
export function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return adminVia(request)(method, path, body);
}

/** `admin` over another way of making requests (an app with its own env). */
export function adminVia(send: (path: string, init: RequestInit) => Promise<Response>) {
  return (method: string, path: string, body?: unknown): Promise<Response> =>
    send(`/admin${path}`, {
      method,
      headers: ADMIN,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** Creates (or replaces) a team and one key for it; the gateway's team memo is cleared. */
export async function teamWithKey(team: string, config: unknown = {}): Promise<{ id: string; key: string }> {
  expect((await admin("PUT", `/teams/${team}`, config)).status).toBeLessThan(300);
  forgetTeams();
  const res = await admin("POST", `/teams/${team}/keys`, { name: "ci" });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}
