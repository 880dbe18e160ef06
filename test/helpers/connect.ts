import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { createApp } from "../../workers/gateway/app";
import { openConnect } from "../../workers/gateway/connections/connect";
import type { GatewayEnv } from "../../workers/gateway/env";
import { forgetTeams } from "../../workers/gateway/teams/resolve";
import { createOAuthUpstream, type OAuthUpstream } from "../fixtures/oauth-upstream";
import { adminVia } from "./teams";

/** The gateway's origin as the tests' browser and clients reach it. */
export const GATEWAY = "https://gw.example.com";
const app = createApp();

/**
 * A team whose server `linear` takes per-user OAuth from the independent test upstream (in-process,
 * behind the service binding OAUTHUP), and `pat`, which takes a `${user:PAT}` header; the gateway's
 * requests on an env that has that binding.
 */
export async function oauthTeam(team: string) {
  const upstream = createOAuthUpstream({ origin: "https://oauthup.internal" });
  const teamEnv = {
    ...env,
    OAUTHUP: {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => upstream.fetch(new Request(input, init)),
    },
  } as unknown as GatewayEnv;
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const ctx = createExecutionContext();
    const res = await app.request(`${GATEWAY}${path}`, init, teamEnv, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  const admin = adminVia(request);
  const servers = {
    linear: { service: "OAUTHUP", auth: { type: "oauth" } },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own placeholder
    pat: { service: "OAUTHUP", headers: { Authorization: "Bearer ${user:PAT}" } },
  };
  expect((await admin("PUT", `/teams/${team}`, { servers })).status).toBeLessThan(300);
  forgetTeams();
  /** A key of the team acting as `user` (none: the key is a user of its own). */
  const key = async (user?: string) => {
    const res = await admin("POST", `/teams/${team}/keys`, { name: "k", ...(user ? { user } : {}) });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; key: string; user: string };
  };
  /** A link a call gave `user` (the flow the lead's call path opens). */
  const link = async (user: string, server = "linear") => (await openConnect(teamEnv, team, user, server)).id;
  return { team, upstream, env: teamEnv, request, admin, key, link };
}

export type OAuthTeam = Awaited<ReturnType<typeof oauthTeam>>;

/** A browser: keeps the cookies the gateway sets (by name) and sends them back. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** the Set-Cookie lines of the last answer */
  lastSetCookie: string[] = [];

  constructor(private readonly t: OAuthTeam) {}

  async go(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; "));
    const res = await this.t.request(path, { ...init, headers });
    this.lastSetCookie = res.headers.getAll("Set-Cookie");
    for (const line of this.lastSetCookie) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === "" || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Posts the connect page's form as the page itself would (same Origin). */
  submit(flow: string, form: Record<string, string>): Promise<Response> {
    return this.go(`/connect/${this.t.team}/${flow}`, {
      method: "POST",
      headers: { Origin: GATEWAY },
      body: new URLSearchParams(form),
    });
  }
}

/** The upstream's sign-in as `user`: where it sends the browser back (the gateway's callback URL). */
export async function signInUpstream(
  upstream: OAuthUpstream,
  authorizeUrl: string,
  user: string,
): Promise<string> {
  const res = await upstream.fetch(new Request(`${authorizeUrl}&user=${encodeURIComponent(user)}`));
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("Location") ?? "");
  expect(back.origin + back.pathname).toBe(`${GATEWAY}/connect/callback`);
  return back.pathname + back.search;
}

/** The whole browser leg for `user`'s link: key, the upstream's sign-in, the callback. */
export async function connectAs(t: OAuthTeam, browser: Browser, flow: string, key: string, user: string) {
  const posted = await browser.submit(flow, { key });
  expect(posted.status).toBe(302);
  const callback = await signInUpstream(t.upstream, posted.headers.get("Location") ?? "", user);
  return { callback, page: await browser.go(callback) };
}
