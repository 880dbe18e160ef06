import { describe, expect, it } from "vitest";
import { connectionStore } from "../../workers/gateway/connections/store";
import { Browser, connectAs, GATEWAY, type OAuthTeam, oauthTeam } from "../helpers/connect";
import { TEST_ADMIN_TOKEN } from "../helpers/keys";

const asKey = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { "X-API-Key": key, "Content-Type": "application/json", ...init.headers },
});

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** `user` connected to linear through the connect pages. */
async function connected(t: OAuthTeam, key: string, user: string): Promise<void> {
  const { page } = await connectAs(t, new Browser(t), await t.link(user), key, user);
  expect(page.status).toBe(200);
}

describe("GET/DELETE /v1/connections", () => {
  it("lists the caller's user's connections only, never a token, and disconnects with revocation upstream", async () => {
    const t = await oauthTeam("cr-own");
    const alice = await t.key("alice");
    const bob = await t.key("bob");
    await connected(t, alice.key, "alice");
    await connected(t, bob.key, "bob");
    const listed = await t.request("/v1/connections", asKey(alice.key));
    const text = await listed.text();
    expect(JSON.parse(text)).toEqual({
      connections: [
        {
          server: "linear",
          user: "alice",
          status: "connected",
          scopes: ["read", "offline_access"],
          connectedAt: expect.any(String),
          updatedAt: expect.any(String),
          expiresAt: expect.any(String),
        },
      ],
    });
    for (const token of t.upstream.as.accessTokens.keys()) expect(text).not.toContain(token);

    const ended = await t.request("/v1/connections/linear", asKey(alice.key, { method: "DELETE" }));
    expect(ended.status).toBe(200);
    expect(await json(ended)).toEqual({ server: "linear", revoked: true });
    expect(t.upstream.as.revoked.length).toBeGreaterThan(0);
    expect([...t.upstream.as.grants.values()].map((g) => [g.user, g.revoked])).toEqual([
      ["alice", true],
      ["bob", false],
    ]);
    expect(await json(await t.request("/v1/connections", asKey(alice.key)))).toEqual({ connections: [] });
    expect(await json(await t.request("/v1/connections", asKey(bob.key)))).toMatchObject({
      connections: [{ user: "bob" }],
    });

    const again = await t.request("/v1/connections/linear", asKey(alice.key, { method: "DELETE" }));
    expect(again.status).toBe(404);
    expect(((await json(again)).error as { message: string }).message).toContain(
      "No connection to linear for alice",
    );
  });
});

describe("/v1/secrets: the caller's user's own secrets", () => {
  it("sets, lists and deletes by name, never answering a value", async () => {
    const t = await oauthTeam("cr-secrets");
    const alice = await t.key("alice");
    const bob = await t.key("bob");
    const put = await t.request(
      "/v1/secrets/PAT",
      asKey(alice.key, { method: "PUT", body: JSON.stringify({ value: "ghp-alice-secret" }) }),
    );
    expect(put.status).toBe(200);
    const putText = await put.text();
    expect(JSON.parse(putText)).toEqual({
      name: "PAT",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await (await t.request("/v1/secrets", asKey(alice.key))).text();
    expect(JSON.parse(listed)).toMatchObject({ secrets: [{ name: "PAT" }] });
    for (const text of [putText, listed]) expect(text).not.toContain("ghp-alice-secret");
    expect(await json(await t.request("/v1/secrets", asKey(bob.key)))).toEqual({ secrets: [] });

    const bad = await t.request(
      "/v1/secrets/not-a-name",
      asKey(alice.key, { method: "PUT", body: JSON.stringify({ value: "x" }) }),
    );
    expect(bad.status).toBe(400);
    expect(((await json(bad)).error as { message: string }).message).toContain("Secret names match");
    const empty = await t.request("/v1/secrets/PAT", asKey(alice.key, { method: "PUT", body: "{}" }));
    expect(empty.status).toBe(400);
    expect(((await json(empty)).error as { message: string }).message).toContain("value");

    expect((await t.request("/v1/secrets/PAT", asKey(alice.key, { method: "DELETE" }))).status).toBe(204);
    const gone = await t.request("/v1/secrets/PAT", asKey(alice.key, { method: "DELETE" }));
    expect(gone.status).toBe(404);
    expect(((await json(gone)).error as { message: string }).message).toContain("No secret PAT for alice");
  });
});

describe("operators: a team's connections", () => {
  it("lists every user's and ends one (revoked upstream); 404 naming what is missing", async () => {
    const t = await oauthTeam("cr-admin");
    await connected(t, (await t.key("alice@example.com")).key, "alice@example.com");
    await connected(t, (await t.key("bob")).key, "bob");
    const listed = await json(await t.admin("GET", `/teams/${t.team}/connections`));
    expect(listed.connections).toMatchObject([
      { user: "alice@example.com", server: "linear", status: "connected" },
      { user: "bob", server: "linear", status: "connected" },
    ]);
    const ended = await t.admin(
      "DELETE",
      `/teams/${t.team}/connections/${encodeURIComponent("alice@example.com")}/linear`,
    );
    expect(ended.status).toBe(200);
    expect(await json(ended)).toEqual({ user: "alice@example.com", server: "linear", revoked: true });
    expect([...t.upstream.as.grants.values()].filter((g) => g.revoked).map((g) => g.user)).toEqual([
      "alice@example.com",
    ]);
    expect((await json(await t.admin("GET", `/teams/${t.team}/connections`))).connections).toMatchObject([
      { user: "bob" },
    ]);
    const none = await t.admin("DELETE", `/teams/${t.team}/connections/carol/linear`);
    expect(none.status).toBe(404);
    expect(((await json(none)).error as { message: string }).message).toContain(
      "No connection of carol to linear in team cr-admin",
    );
    const unauthorized = await t.request(`/admin/teams/${t.team}/connections`);
    expect(unauthorized.status).toBe(401);
  });

  it("revoking a key that is its own user ends its connections and secrets; a named user's stay", async () => {
    const t = await oauthTeam("cr-revoke");
    const own = await t.key();
    expect(own.user).toBe(own.id);
    const alice = await t.key("alice");
    await connected(t, own.key, own.id);
    await connected(t, alice.key, "alice");
    await t.request(
      "/v1/secrets/PAT",
      asKey(own.key, { method: "PUT", body: JSON.stringify({ value: "v" }) }),
    );

    const store = connectionStore(t.env, t.team);
    expect(await store.listUserSecrets(t.team, own.id)).toMatchObject([{ name: "PAT" }]);
    expect((await t.admin("DELETE", `/keys/${own.id}`)).status).toBe(204);
    expect(await store.listUserSecrets(t.team, own.id)).toEqual([]);
    const left = (await json(await t.admin("GET", `/teams/${t.team}/connections`))).connections;
    expect(left).toMatchObject([{ user: "alice" }]);
    expect([...t.upstream.as.grants.values()].map((g) => [g.user, g.revoked])).toEqual([
      [own.id, true],
      ["alice", false],
    ]);

    expect((await t.admin("DELETE", `/keys/${alice.id}`)).status).toBe(204);
    expect((await json(await t.admin("GET", `/teams/${t.team}/connections`))).connections).toMatchObject([
      { user: "alice" },
    ]);
  });

  it("deleting a team ends every user's connections, revoked upstream", async () => {
    const t = await oauthTeam("cr-delete");
    await connected(t, (await t.key("alice")).key, "alice");
    const own = await t.key();
    await connected(t, own.key, own.id);
    expect((await t.admin("DELETE", `/teams/${t.team}`)).status).toBe(204);
    expect((await json(await t.admin("GET", `/teams/${t.team}/connections`))).connections).toEqual([]);
    expect([...t.upstream.as.grants.values()].every((g) => g.revoked)).toBe(true);
  });
});

describe("the dashboard: connections and keys' users", () => {
  it("shows each key's user and a team's connections, and ends one with the page's CSRF token", async () => {
    const t = await oauthTeam("cr-dash");
    const alice = await t.key("alice@example.com");
    const own = await t.key();
    await connected(t, alice.key, "alice@example.com");
    const browser = new Browser(t);
    const signedIn = await browser.go("/dashboard/sign-in", {
      method: "POST",
      headers: { Origin: GATEWAY },
      body: new URLSearchParams({ token: TEST_ADMIN_TOKEN }),
    });
    expect(signedIn.status).toBe(303);
    const team = await (await browser.go(`/dashboard/teams/${t.team}`)).text();
    expect(team).toContain("<td>alice@example.com</td>");
    expect(team).toContain(`its own (${own.id})`);
    const listed = await (await browser.go(`/dashboard/teams/${t.team}/connections`)).text();
    expect(listed).toContain("<td>alice@example.com</td><td>linear</td><td>connected</td>");
    for (const token of t.upstream.as.accessTokens.keys()) expect(listed).not.toContain(token);
    const csrf = /name="csrf" value="([0-9a-f]{32})"/.exec(listed)?.[1] ?? "";
    const form = { user: "alice@example.com", server: "linear" };
    const forged = await browser.go(`/dashboard/teams/${t.team}/connections/end`, {
      method: "POST",
      headers: { Origin: GATEWAY },
      body: new URLSearchParams(form),
    });
    expect(forged.status).toBe(403);
    const foreign = await browser.go(`/dashboard/teams/${t.team}/connections/end`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ ...form, csrf }),
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain(
      "A form of another site (https://evil.example) cannot write here.",
    );
    const ended = await browser.go(`/dashboard/teams/${t.team}/connections/end`, {
      method: "POST",
      headers: { Origin: GATEWAY },
      body: new URLSearchParams({ ...form, csrf }),
    });
    expect(ended.status).toBe(303);
    expect(ended.headers.get("Location")).toBe(`/dashboard/teams/${t.team}/connections?ended=revoked`);
    expect((await json(await t.admin("GET", `/teams/${t.team}/connections`))).connections).toEqual([]);
    expect([...t.upstream.as.grants.values()].every((g) => g.revoked)).toBe(true);
  });
});
