import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Client,
  discoverOAuthServerInfo,
  type ElicitRequest,
  exchangeAuthorization,
  registerClient,
  StreamableHTTPClientTransport,
  startAuthorization,
} from "@modelcontextprotocol/client";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { serveOAuthUpstream } from "../fixtures/oauth-upstream/serve";
import { launchChromium } from "../helpers/chromium";
import { TEST_ADMIN_TOKEN, TEST_API_KEY, TEST_CONNECTIONS_KEY } from "../helpers/keys";
import { adminRequest, gatewayUrl } from "./client";

// Issue 49's proof under the local stack: an OAuth-only upstream started here (its own authorization
// server and MCP server in Node, short-lived access tokens, rotated refresh tokens, revocation), a
// team whose server `notes` is that upstream with `"auth": {"type": "oauth"}`, and users of that team
// who each reach it as themselves: the link, the browser leg in Chromium, refresh, disconnect, URL
// elicitation on MCP 2025-11-25 and input_required on 2026-07-28; then what the upstream received and
// whether any token it issued shows up in an answer, the stack's state files or its log.

const TEAM = "e2e-per-user";
const SERVER = "notes";
const WHOAMI = `return await tools.${SERVER}.whoami({});`;
/** The front-door OAuth client's redirect URI: nothing listens there, the browser's arrival is caught. */
const FRONT_DOOR_REDIRECT = "http://127.0.0.1:9/front-door-callback";
const ACCESS_TOKEN_SECONDS = 3;

let upstream: Awaited<ReturnType<typeof serveOAuthUpstream>>;
let browser: BrowserContext;
let page: Page;
const keys: Record<"alice" | "bob" | "carol", string> = { alice: "", bob: "", carol: "" };
let bobFrontDoor = "";
const closers: Array<() => Promise<void>> = [];

/** Every answer the gateway gave this file (status line, headers and body as it streamed), for the final scan. */
const answers: Array<{ url: string; text: string }> = [];
const reading: Array<Promise<unknown>> = [];

/** Keeps a copy of `res` (headers, and its body chunk by chunk: an SSE stream may never end) in `answers`. */
function keep(url: string, res: Response): Response {
  const kept = { url, text: `${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n` };
  answers.push(kept);
  if (!res.body) return res;
  const [mine, copy] = res.body.tee();
  const decoder = new TextDecoder();
  reading.push(
    (async () => {
      const reader = copy.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        kept.text += decoder.decode(value, { stream: true });
      }
    })().catch(() => {}),
  );
  return new Response(mine, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** fetch to the gateway with `bearer`, its answer kept. */
async function gateway(path: string, bearer: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${bearer}`);
  const url = `${gatewayUrl()}${path}`;
  return keep(url, await fetch(url, { ...init, headers }));
}

/** What went over an MCP client's wire: the messages it posted. */
type Posted = { method?: string; params?: Record<string, unknown> };

/**
 * An MCP client (the SDK's) of the gateway with `bearer`: on 2025-11-25 unless `modern`. With
 * `connectsAs`, it declares URL elicitation and answers each one by opening the URL in Chromium and
 * connecting there as that user (the questions are kept in `asked`).
 */
async function mcpClient(bearer: string, options: { modern?: boolean; connectsAs?: keyof typeof keys } = {}) {
  const posted: Posted[] = [];
  const asked: Array<ElicitRequest["params"]> = [];
  const client = new Client(
    { name: "e2e-per-user", version: "1.0.0" },
    {
      ...(options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(options.connectsAs ? { capabilities: { elicitation: { url: {} } } } : {}),
    },
  );
  const { connectsAs } = options;
  if (connectsAs) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      if (request.params.mode === "url") await connectInBrowser(request.params.url, connectsAs);
      return { action: "accept" };
    });
  }
  const wireFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${bearer}`);
    if (typeof init?.body === "string") posted.push(...[JSON.parse(init.body) as Posted | Posted[]].flat());
    return keep(String(url), await fetch(url, { ...init, headers }));
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl()}/mcp`), { fetch: wireFetch }),
  );
  closers.push(() => client.close());
  const execute = async (code = WHOAMI) => {
    const res = await client.callTool({ name: "execute", arguments: { code, timeoutMs: 60_000 } });
    return res.structuredContent as ExecuteResult;
  };
  return { execute, posted, asked };
}

/** The connect link in an AuthorizationRequiredError's message, checked to be on the gateway's origin. */
function linkIn(result: ExecuteResult, user: string): string {
  expect(result.error?.name, JSON.stringify(result)).toBe("AuthorizationRequiredError");
  const message = result.error?.message ?? "";
  expect(message).toContain(`server "${SERVER}"`);
  expect(message).toContain(user);
  const link = new RegExp(`${gatewayUrl()}/connect/${TEAM}/cf_[\\w-]+`).exec(message)?.[0];
  expect(link, message).toBeDefined();
  return link as string;
}

/** Alice's, bob's… grants at the upstream, and the tokens issued for them. */
function issuedTo(user: string) {
  const grants = [...upstream.as.grants.values()].filter((g) => g.user === user).map((g) => g.id);
  const access = [...upstream.as.accessTokens].filter(([, a]) => grants.includes(a.grant));
  const refresh = [...upstream.as.refreshTokens].filter(([, r]) => grants.includes(r.grant));
  return { grants, access, refresh };
}

const refreshGrants = () => upstream.as.tokenRequests.filter((r) => r.grantType === "refresh_token").length;

/**
 * The browser leg in Chromium: the link opens the gateway's connect page, which asks for the user's
 * key, then the upstream's sign-in, where `user` is picked, then the gateway's callback page, which
 * must say connected.
 */
async function connectInBrowser(link: string, user: keyof typeof keys) {
  const opened = await page.goto(link);
  expect(opened?.status()).toBe(200);
  expect(new URL(page.url()).origin).toBe(gatewayUrl());
  const body = page.locator("body");
  await expect.poll(() => body.textContent()).toContain(`needs ${SERVER} as ${user}`);
  // The browser is not known to be this user (it last signed in as another, or never): the key is asked.
  const keyField = page.getByLabel(/Your API key/);
  expect(await keyField.count()).toBe(1);
  await keyField.fill(keys[user]);
  await page.getByRole("button", { name: `Continue to ${SERVER}` }).click();
  await page.waitForURL((url) => url.origin === upstream.origin);
  await page.getByRole("button", { name: `Sign in as ${user}` }).click();
  await page.waitForURL((url) => url.href.startsWith(`${gatewayUrl()}/connect/callback?`));
  expect(await body.textContent()).toContain(`${SERVER} is connected for ${user}.`);
  return new URL(page.url());
}

/** A front-door OAuth access token (the gateway's own, for MCP clients) acting as the key's user: consent in Chromium. */
async function frontDoorToken(key: string): Promise<string> {
  const info = await discoverOAuthServerInfo(`${gatewayUrl()}/mcp`);
  const metadata = info.authorizationServerMetadata;
  const resource = new URL(info.resourceMetadata?.resource ?? "");
  const clientInformation = await registerClient(info.authorizationServerUrl, {
    metadata,
    clientMetadata: {
      client_name: "per-user e2e",
      redirect_uris: [FRONT_DOOR_REDIRECT],
      token_endpoint_auth_method: "none",
    },
  });
  const started = await startAuthorization(info.authorizationServerUrl, {
    metadata,
    clientInformation,
    redirectUrl: FRONT_DOOR_REDIRECT,
    scope: "mcp",
    resource,
  });
  await page.goto(started.authorizationUrl.href);
  await page.getByLabel("Team API key").fill(key);
  const arrived = page.waitForRequest((r) => r.url().startsWith(FRONT_DOOR_REDIRECT));
  await page.getByRole("button", { name: "Allow" }).click();
  const back = new URL((await arrived).url());
  const tokens = await exchangeAuthorization(info.authorizationServerUrl, {
    metadata,
    clientInformation,
    authorizationCode: back.searchParams.get("code") ?? "",
    iss: back.searchParams.get("iss") ?? "",
    codeVerifier: started.codeVerifier,
    redirectUri: FRONT_DOOR_REDIRECT,
    resource,
  });
  return tokens.access_token;
}

beforeAll(async () => {
  upstream = await serveOAuthUpstream({
    accessTokenTtlSeconds: ACCESS_TOKEN_SECONDS,
    users: ["alice", "bob", "carol"],
  });
  const put = await adminRequest("PUT", `/teams/${TEAM}`, {
    servers: { [SERVER]: { url: upstream.url, auth: { type: "oauth" }, description: "Notes, per user" } },
  });
  expect(put.status, await put.text()).toBeLessThan(300);
  for (const user of ["alice", "bob", "carol"] as const) {
    const made = await adminRequest("POST", `/teams/${TEAM}/keys`, { name: user, user });
    expect(made.status).toBe(201);
    keys[user] = ((await made.json()) as { key: string }).key;
  }
  ({ context: browser, page } = await launchChromium("per-user-oauth", { width: 900, height: 700 }));
  // What the gateway answered the browser counts as an answer the test got.
  browser.on("response", (res) => {
    if (!res.url().startsWith(gatewayUrl())) return;
    const kept = { url: res.url(), text: JSON.stringify(res.headers()) };
    answers.push(kept);
    reading.push(
      res.text().then(
        (text) => {
          kept.text += text;
        },
        () => {},
      ),
    );
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close().catch(() => {})));
  await browser?.close();
  // Deleting the team ends its users' connections (revoked at the upstream, still listening).
  await adminRequest("DELETE", `/teams/${TEAM}`);
  await upstream?.close();
});

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
