import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitRequest } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_ADMIN_TOKEN, TEST_API_KEY, TEST_CONNECTIONS_KEY } from "../helpers/keys";
import { gatewayUrl } from "./client";
import {
  answers,
  closers,
  connectInBrowser,
  frontDoorToken,
  gateway,
  issuedTo,
  keys,
  linkIn,
  mcpClient,
  page,
  reading,
  refreshGrants,
  SERVER,
  startStack,
  stopStack,
  TEAM,
  upstream,
} from "./per-user-stack";

// Issue 49's proof under the local stack: an OAuth-only upstream started here (its own authorization
// server and MCP server in Node, short-lived access tokens, rotated refresh tokens, revocation), a
// team whose server `notes` is that upstream with `"auth": {"type": "oauth"}`, and users of that team
// who each reach it as themselves: the link, the browser leg in Chromium, refresh, disconnect, URL
// elicitation on MCP 2025-11-25 and input_required on 2026-07-28; then what the upstream received and
// whether any token it issued shows up in an answer, the stack's state files or its log.

let bobFrontDoor = "";

beforeAll(startStack, 60_000);
afterAll(stopStack);

describe("per-user OAuth to an upstream, under the local stack", () => {
  let alice: Awaited<ReturnType<typeof mcpClient>>;
  let aliceLink = "";
  let aliceCallback: URL;

  it("(1) alice's code calling the tool gets AuthorizationRequiredError with a link on the gateway's origin", async () => {
    alice = await mcpClient(keys.alice);
    aliceLink = linkIn(await alice.execute(), "alice");
    expect(new URL(aliceLink).origin).toBe(gatewayUrl());
    // Nothing reached the MCP server with a token: there is none yet.
    expect(upstream.bearers).toEqual([]);
  });

  it("(2) the browser leg: the gateway's page asks for the key, the upstream's sign-in, the callback says connected", async () => {
    aliceCallback = await connectInBrowser(aliceLink, "alice");
    expect(upstream.as.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([
      ["authorization_code", upstream.url],
    ]);
  });

  it("(3) alice is answered as alice; bob is asked with his own link, connects, and is answered as bob", async () => {
    expect((await alice.execute()).result).toEqual({ user: "alice", scopes: expect.any(Array) });

    // Bob's client signs in at the front door (the gateway's own OAuth) with his key: its token
    // acts as bob; the upstream must never see it.
    bobFrontDoor = await frontDoorToken(keys.bob);
    const bob = await mcpClient(bobFrontDoor);
    const bobLink = linkIn(await bob.execute(), "bob");
    expect(bobLink).not.toBe(aliceLink);
    // Alice's key on bob's link changes nothing: the flow is bound to bob.
    await page.goto(bobLink);
    await page.getByLabel(/Your API key/).fill(keys.alice);
    await page.getByRole("button", { name: `Continue to ${SERVER}` }).click();
    await expect
      .poll(() => page.locator("body").textContent())
      .toContain(`This link is for bob of team ${TEAM}`);
    expect(issuedTo("bob").grants).toEqual([]);

    await connectInBrowser(bobLink, "bob");
    expect((await bob.execute()).result).toEqual({ user: "bob", scopes: expect.any(Array) });
    expect((await alice.execute()).result).toMatchObject({ user: "alice" });
  });

  it("(4) alice's used link, opened again, is refused and changes nothing; so is her callback replayed", async () => {
    const before = await (await gateway("/v1/connections", keys.alice)).json();
    const requests = upstream.as.tokenRequests.length;
    const again = await page.goto(aliceLink);
    expect(again?.status()).toBe(404);
    expect(await page.locator("body").textContent()).toContain("This link was already used");
    const replayed = await page.goto(aliceCallback.href);
    expect(replayed?.status()).toBe(403);
    expect(await page.locator("body").textContent()).toContain("Nothing changed");
    expect(upstream.as.tokenRequests).toHaveLength(requests);
    expect(await (await gateway("/v1/connections", keys.alice)).json()).toEqual(before);
  });

  it("(5) after alice's access token expired, her call refreshes it with no question", async () => {
    // Each access token lives ACCESS_TOKEN_SECONDS: wait until every one alice holds has expired.
    await expect
      .poll(() => issuedTo("alice").access.every(([, a]) => a.expiresAt <= Date.now()), { timeout: 10_000 })
      .toBe(true);
    const held = new Set(issuedTo("alice").access.map(([token]) => token));
    const refreshes = refreshGrants();
    const seen = upstream.bearers.length;
    const answer = await alice.execute();
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ user: "alice" });
    expect(refreshGrants()).toBeGreaterThan(refreshes);
    // The call that was answered carried a token issued by that refresh, not one alice held before.
    const answered = upstream.bearers.slice(seen).filter((b) => b.user === "alice");
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((b) => !held.has(b.token))).toBe(true);
  });

  it("(6) GET /v1/connections lists alice's connection without tokens; DELETE disconnects, revoked upstream; her next call asks again", async () => {
    const listed = (await (await gateway("/v1/connections", keys.alice)).json()) as {
      connections: Array<Record<string, unknown>>;
    };
    expect(listed.connections).toEqual([
      {
        server: SERVER,
        user: "alice",
        status: "connected",
        scopes: expect.any(Array),
        connectedAt: expect.any(String),
        updatedAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    const ended = await gateway(`/v1/connections/${SERVER}`, keys.alice, { method: "DELETE" });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ server: SERVER, revoked: true });
    // The upstream saw alice's current refresh token revoked (RFC 7009), which ended her grant.
    const { grants, refresh } = issuedTo("alice");
    const current = refresh.filter(([, r]) => !r.used).map(([token]) => token);
    expect(current).toHaveLength(1);
    expect(upstream.as.revoked).toContain(current[0]);
    expect(grants.every((id) => upstream.as.grants.get(id)?.revoked)).toBe(true);
    expect(await (await gateway("/v1/connections", keys.alice)).json()).toEqual({ connections: [] });
    // Bob's connection is his own: untouched.
    expect(
      ((await (await gateway("/v1/connections", keys.bob)).json()) as typeof listed).connections,
    ).toHaveLength(1);

    const seen = upstream.bearers.length;
    const asked = linkIn(await alice.execute(), "alice");
    expect(asked).not.toBe(aliceLink);
    // Nothing was sent upstream for that call: the revoked token is not tried.
    expect(upstream.bearers.slice(seen)).toEqual([]);
  });

  it("(9) MCP 2025-11-25: URL elicitation opens the link in the browser, and the same execute returns the user's answer", async () => {
    // The browser last signed in as bob on a connect page: alice's link asks for her key.
    const client = await mcpClient(keys.alice, { connectsAs: "alice" });
    const { asked } = client;
    const answer = await client.execute();
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual({ user: "alice", scopes: expect.any(Array) });
    expect(asked).toHaveLength(1);
    const question = asked[0] as ElicitRequest["params"] & { mode: "url" };
    expect(question.mode).toBe("url");
    expect(question.url).toBe(`${gatewayUrl()}/connect/${TEAM}/${question.elicitationId}`);
    expect(question.message).toContain(SERVER);
    // One execute: the question came on its stream, and the call went on.
    expect(client.posted.filter((m) => m.method === "tools/call")).toHaveLength(1);
  });

  it("(10) MCP 2026-07-28: input_required with the URL elicitation; after connecting, the retry with requestState gets the answer", async () => {
    // The browser last signed in as alice: carol's link asks for carol's key.
    const client = await mcpClient(keys.carol, { modern: true, connectsAs: "carol" });
    const { asked } = client;
    const answer = await client.execute();
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual({ user: "carol", scopes: expect.any(Array) });
    const question = asked[0] as ElicitRequest["params"] & { mode: "url" };
    expect(asked).toHaveLength(1);
    expect(question.url).toMatch(new RegExp(`^${gatewayUrl()}/connect/${TEAM}/cf_[\\w-]+$`));
    const calls = client.posted.filter((m) => m.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[0]?.params?.requestState).toBeUndefined();
    expect(calls[1]?.params?.requestState).toEqual(expect.any(String));
    expect(calls[1]?.params?.inputResponses).toEqual({ connect: { action: "accept" } });
    const first = answers.find((a) => a.text.includes('"input_required"') && a.text.includes(question.url));
    expect(first, "the first answer: input_required with the link").toBeDefined();
  });

  it("(7) the upstream only ever received bearer tokens its own authorization server issued", () => {
    expect(upstream.bearers.length).toBeGreaterThan(0);
    expect(upstream.bearers.filter((b) => !b.issuedHere)).toEqual([]);
    const ours = [TEST_API_KEY, TEST_ADMIN_TOKEN, TEST_CONNECTIONS_KEY, bobFrontDoor, ...Object.values(keys)];
    expect(ours.every((secret) => secret.length > 0)).toBe(true);
    expect(upstream.bearers.filter((b) => ours.includes(b.token))).toEqual([]);
    // Tokens of each user's own grant reached it (each answer above named its caller).
    expect(new Set(upstream.bearers.flatMap((b) => (b.user ? [b.user] : [])))).toEqual(
      new Set(["alice", "bob", "carol"]),
    );
  });

  it("(8) no access or refresh token the upstream issued is in any answer, the stack's state files or its log", async () => {
    // Closed, the clients' streams end, and so does the reading of their copies.
    await Promise.all(closers.splice(0).map((close) => close()));
    await Promise.all(reading);
    const issued = [...upstream.as.accessTokens.keys(), ...upstream.as.refreshTokens.keys()];
    expect(issued.length).toBeGreaterThan(8);
    const inAnswers = answers.filter((a) => issued.some((t) => a.text.includes(t)));
    expect(inAnswers.map((a) => a.url)).toEqual([]);
    // The copies hold the answers' bodies, SSE streams included: carol's answer is there.
    expect(answers.some((a) => a.text.includes('"user":"carol"'))).toBe(true);

    const files = inject("stateDirs").flatMap(filesUnder);
    files.push(inject("stackLogPath"));
    const bytes = files.map((file) => ({ file, bytes: readFileSync(file) }));
    // The scan reads the connection store's own files (local Durable Object storage): the resource
    // the connections are for is there in clear, the tokens must not be.
    const store = bytes.filter((f) => f.file.includes("ConnectionStore"));
    expect(store.some((f) => f.bytes.includes(upstream.url))).toBe(true);
    const found = bytes.filter((f) => issued.some((t) => f.bytes.includes(t))).map((f) => f.file);
    expect(found).toEqual([]);
  });
});

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
