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
import { expect } from "vitest";
import type { ExecuteResult } from "../../shared/contract/execute";
import { serveOAuthUpstream } from "../fixtures/oauth-upstream/serve";
import { launchChromium } from "../helpers/chromium";
import { adminRequest, gatewayUrl } from "./client";

// The world of per-user-oauth.e2e.test.ts: an OAuth-only upstream started here, a team whose server
// `notes` is that upstream with `"auth": {"type": "oauth"}`, its users' keys, Chromium, the MCP
// clients and browser legs the steps use, and every answer the gateway gave (for the final scan).

export const TEAM = "e2e-per-user";
export const SERVER = "notes";
export const WHOAMI = `return await tools.${SERVER}.whoami({});`;
/** The front-door OAuth client's redirect URI: nothing listens there, the browser's arrival is caught. */
const FRONT_DOOR_REDIRECT = "http://127.0.0.1:9/front-door-callback";
export const ACCESS_TOKEN_SECONDS = 3;

export let upstream: Awaited<ReturnType<typeof serveOAuthUpstream>>;
export let browser: BrowserContext;
export let page: Page;
export const keys: Record<"alice" | "bob" | "carol", string> = { alice: "", bob: "", carol: "" };
export const closers: Array<() => Promise<void>> = [];

/** Every answer the gateway gave this file (status line, headers and body as it streamed), for the final scan. */
export const answers: Array<{ url: string; text: string }> = [];
export const reading: Array<Promise<unknown>> = [];

/** Keeps a copy of `res` (headers, and its body chunk by chunk: an SSE stream may never end) in `answers`. */
export function keep(url: string, res: Response): Response {
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
export async function gateway(path: string, bearer: string, init: RequestInit = {}): Promise<Response> {
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
export async function mcpClient(
  bearer: string,
  options: { modern?: boolean; connectsAs?: keyof typeof keys } = {},
) {
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
export function linkIn(result: ExecuteResult, user: string): string {
  expect(result.error?.name, JSON.stringify(result)).toBe("AuthorizationRequiredError");
  const message = result.error?.message ?? "";
  expect(message).toContain(`server "${SERVER}"`);
  expect(message).toContain(user);
  const link = new RegExp(`${gatewayUrl()}/connect/${TEAM}/cf_[\\w-]+`).exec(message)?.[0];
  expect(link, message).toBeDefined();
  return link as string;
}

/** Alice's, bob's… grants at the upstream, and the tokens issued for them. */
export function issuedTo(user: string) {
  const grants = [...upstream.as.grants.values()].filter((g) => g.user === user).map((g) => g.id);
  const access = [...upstream.as.accessTokens].filter(([, a]) => grants.includes(a.grant));
  const refresh = [...upstream.as.refreshTokens].filter(([, r]) => grants.includes(r.grant));
  return { grants, access, refresh };
}

export const refreshGrants = () =>
  upstream.as.tokenRequests.filter((r) => r.grantType === "refresh_token").length;

/**
 * The browser leg in Chromium: the link opens the gateway's connect page, which asks for the user's
 * key, then the upstream's sign-in, where `user` is picked, then the gateway's callback page, which
 * must say connected.
 */
export async function connectInBrowser(link: string, user: keyof typeof keys) {
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
export async function frontDoorToken(key: string): Promise<string> {
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

/** Starts the upstream, the team, its users' keys and Chromium (beforeAll). */
export async function startStack(): Promise<void> {
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
}

/** Closes the clients, Chromium, the team (its connections revoked upstream) and the upstream (afterAll). */
export async function stopStack(): Promise<void> {
  await Promise.all(closers.map((close) => close().catch(() => {})));
  await browser?.close();
  // Deleting the team ends its users' connections (revoked at the upstream, still listening).
  await adminRequest("DELETE", `/teams/${TEAM}`);
  await upstream?.close();
}
