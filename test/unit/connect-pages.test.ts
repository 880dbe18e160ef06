import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Browser, connectAs, GATEWAY, oauthTeam, signInUpstream } from "../helpers/connect";

const connections = async (t: Awaited<ReturnType<typeof oauthTeam>>, key: string) => {
  const res = await t.request("/v1/connections", { headers: { "X-API-Key": key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { connections: Array<Record<string, unknown>> }).connections;
};

describe("the connect page (/connect/{team}/{flow})", () => {
  it("names the server and the user (escaped), asks for the key, with no script and the upstream's sign-in as form-action", async () => {
    const t = await oauthTeam("cp-page");
    const user = `al<i>ce "&" co`;
    const flow = await t.link(user);
    const res = await new Browser(t).go(`/connect/${t.team}/${flow}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<strong>linear</strong>");
    expect(page).toContain("al&lt;i&gt;ce &quot;&amp;&quot; co");
    expect(page).not.toContain("<i>ce");
    expect(page).toMatch(/<input type="password" name="key"/);
    expect(page).not.toMatch(/<script/i);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(csp).toContain("form-action 'self' https://oauthup.internal;");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("refuses a key of another user and changes nothing; the right key goes on to the upstream's sign-in", async () => {
    const t = await oauthTeam("cp-wrong-user");
    const alice = await t.key("alice");
    const bob = await t.key("bob");
    const flow = await t.link("alice");
    const browser = new Browser(t);
    const refused = await browser.submit(flow, { key: bob.key });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      "This link is for alice of team cp-wrong-user; the key you entered acts as bob",
    );
    expect(browser.cookies.size).toBe(0);
    expect(t.upstream.as.clients.size).toBe(0);
    const invalid = await browser.submit(flow, { key: "cmk_not-a-key" });
    expect(invalid.status).toBe(401);
    expect(await invalid.text()).toContain("That is not a valid API key");

    const posted = await browser.submit(flow, { key: alice.key });
    expect(posted.status).toBe(302);
    const to = new URL(posted.headers.get("Location") ?? "");
    expect(to.origin + to.pathname).toBe("https://oauthup.internal/authorize");
    expect(to.searchParams.get("redirect_uri")).toBe(`${GATEWAY}/connect/callback`);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    const flowCookie = browser.lastSetCookie.find((l) => l.startsWith(`connect_flow_${flow}=`)) ?? "";
    expect(flowCookie).toMatch(/HttpOnly/);
    expect(flowCookie).toMatch(/SameSite=Lax/);
    expect(flowCookie).toMatch(/Secure/);
    expect(flowCookie).toMatch(/Path=\/connect/);
    expect(browser.lastSetCookie.find((l) => l.startsWith("connect_user="))).toMatch(/HttpOnly/);
  });

  it("connects the user whose browser comes back with the flow's cookie; the link and the callback work once", async () => {
    const t = await oauthTeam("cp-connect");
    const alice = await t.key("alice");
    const flow = await t.link("alice");
    const browser = new Browser(t);
    const { callback, page } = await connectAs(t, browser, flow, alice.key, "alice");
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("linear is connected for alice.");
    for (const token of t.upstream.as.accessTokens.keys()) expect(text).not.toContain(token);
    const listed = await connections(t, alice.key);
    expect(listed).toMatchObject([{ server: "linear", user: "alice", status: "connected" }]);
    expect(JSON.stringify(listed)).not.toMatch(/at_|rt_|code_/);

    // The same link and the same callback again change nothing.
    const again = await browser.go(`/connect/${t.team}/${flow}`);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("This link was already used");
    const replay = await browser.go(callback);
    expect(replay.status).toBe(403);
    expect(await connections(t, alice.key)).toEqual(listed);
    expect(t.upstream.as.tokenRequests.filter((r) => r.grantType === "authorization_code")).toHaveLength(1);
  });

  it("refuses a callback without the flow's cookie, or with another user's, and the flow stays usable", async () => {
    const t = await oauthTeam("cp-phish");
    const alice = await t.key("alice");
    const bob = await t.key("bob");
    const aliceFlow = await t.link("alice");
    const bobFlow = await t.link("bob");
    const aliceBrowser = new Browser(t);
    const posted = await aliceBrowser.submit(aliceFlow, { key: alice.key });
    // Bob gets alice's sign-in URL, signs in at the upstream: his browser comes back with alice's state.
    const callback = await signInUpstream(t.upstream, posted.headers.get("Location") ?? "", "bob");
    const bobBrowser = new Browser(t);
    const none = await bobBrowser.go(callback);
    expect(none.status).toBe(403);
    expect(await none.text()).toContain("This browser did not start this connection");
    // Bob's own flow's cookie, offered under alice's flow's name.
    await bobBrowser.submit(bobFlow, { key: bob.key });
    const bobs = bobBrowser.cookies.get(`connect_flow_${bobFlow}`) ?? "";
    expect(bobs).not.toBe("");
    bobBrowser.cookies.set(`connect_flow_${aliceFlow}`, bobs);
    expect((await bobBrowser.go(callback)).status).toBe(403);
    expect(await connections(t, alice.key)).toEqual([]);
    expect(await connections(t, bob.key)).toEqual([]);
    expect(t.upstream.as.tokenRequests).toEqual([]);

    // Alice's own browser still finishes her flow (started again: a new state).
    const { page } = await connectAs(t, aliceBrowser, aliceFlow, alice.key, "alice");
    expect(page.status).toBe(200);
    expect(await connections(t, alice.key)).toMatchObject([{ server: "linear", user: "alice" }]);
  });

  it("knows a browser that signed in as the link's user: no key asked, and a post without one goes on", async () => {
    const t = await oauthTeam("cp-known");
    const alice = await t.key("alice");
    const browser = new Browser(t);
    await connectAs(t, browser, await t.link("alice"), alice.key, "alice");
    const next = await t.link("alice");
    const page = await (await browser.go(`/connect/${t.team}/${next}`)).text();
    expect(page).toContain("This browser is signed in as alice.");
    expect(page).not.toContain('name="key"');
    expect((await browser.submit(next, {})).status).toBe(302);
    // Another user's link in that browser asks for a key, and a post without one is refused.
    const bobs = await t.link("bob");
    expect(await (await browser.go(`/connect/${t.team}/${bobs}`)).text()).toContain('name="key"');
    expect((await browser.submit(bobs, {})).status).toBe(401);
    // A revoked key's browser is asked again.
    expect((await t.admin("DELETE", `/keys/${alice.id}`)).status).toBe(204);
    expect(await (await browser.go(`/connect/${t.team}/${await t.link("alice")}`)).text()).toContain(
      'name="key"',
    );
  });

  it("refuses a post from another site's form, an upstream's error answer, and unknown links, changing nothing", async () => {
    const t = await oauthTeam("cp-refusals");
    const alice = await t.key("alice");
    const flow = await t.link("alice");
    const browser = new Browser(t);
    const foreign = await browser.go(`/connect/${t.team}/${flow}`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ key: alice.key }),
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain(
      "A form of another site (https://evil.example) cannot connect here.",
    );
    const posted = await browser.submit(flow, { key: alice.key });
    const state = new URL(posted.headers.get("Location") ?? "").searchParams.get("state") ?? "";
    const denied = await browser.go(
      `/connect/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    );
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain("linear did not grant access: access_denied. Nothing changed");
    expect((await browser.go("/connect/callback?code=x&state=nonsense")).status).toBe(400);
    expect((await browser.go(`/connect/${t.team}/cf_unknownflow`)).status).toBe(404);
    const late = await t.link("alice");
    await runInDurableObject(t.env.CONNECTIONS!.get(t.env.CONNECTIONS!.idFromName(t.team)), (_i, state) => {
      state.storage.sql.exec("UPDATE flows SET expires_at = ? WHERE id = ?", Date.now() - 1, late);
    });
    const expired = await browser.go(`/connect/${t.team}/${late}`);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toContain(
      "This link has expired (a link works for 15 minutes). Nothing changed.",
    );
    expect((await browser.go(`/connect/${t.team}/not-a-flow`)).status).toBe(404);
    // The flow still works after all that.
    const callback = await signInUpstream(t.upstream, posted.headers.get("Location") ?? "", "alice");
    expect((await browser.go(callback)).status).toBe(200);
  });

  it("sets a server's user secret (PAT in its headers) from its link, without showing it back", async () => {
    const t = await oauthTeam("cp-secret");
    const alice = await t.key("alice");
    const flow = await t.link("alice", "pat");
    const browser = new Browser(t);
    const page = await (await browser.go(`/connect/${t.team}/${flow}`)).text();
    expect(page).toContain('name="secret_PAT"');
    const missing = await browser.submit(flow, { key: alice.key });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Enter PAT.");
    const saved = await browser.submit(flow, { key: alice.key, secret_PAT: "ghp-secret-value" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Your secrets for pat are saved.");
    const listed = await t.request("/v1/secrets", { headers: { "X-API-Key": alice.key } });
    const body = await listed.text();
    expect(JSON.parse(body)).toMatchObject({ secrets: [{ name: "PAT" }] });
    expect(body).not.toContain("ghp-secret-value");
    const shown = await (await browser.go(`/connect/${t.team}/${flow}`)).text();
    expect(shown).toContain("PAT (set: leave empty to keep it)");
    expect(shown).not.toContain("ghp-secret-value");
  });

  it("serves the gateway's Client ID Metadata Document at its own URL", async () => {
    const t = await oauthTeam("cp-metadata");
    const res = await t.request("/connect/client-metadata.json");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      client_id: `${GATEWAY}/connect/client-metadata.json`,
      redirect_uris: [`${GATEWAY}/connect/callback`],
    });
  });
});
