import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Engine } from "../../shared/contract/engine";
import { type ConnectAsker, requireConnection } from "../../workers/gateway/bridge/connect-ask";
import {
  beginConnect,
  connectFlow,
  finishConnect,
  parseConnectState,
} from "../../workers/gateway/connections/connect";
import type { ConnectionTarget } from "../../workers/gateway/connections/store";
import type { GatewayEnv } from "../../workers/gateway/env";
import { answerApprovals } from "../../workers/gateway/mcp/approval-questions";
import type { RequestContext } from "../../workers/gateway/request/context";
import { forgetMemo } from "../../workers/gateway/upstreams/cache";
import { CredentialsMissing } from "../../workers/gateway/upstreams/credentials";
import { createOAuthUpstream, type OAuthUpstream } from "../fixtures/oauth-upstream";
import { testContext } from "../helpers/context";
import { execute } from "../helpers/execute";

/** One upstream for the file: the gateway keeps its client registration per (team, server). */
const upstream = createOAuthUpstream({ origin: "https://linear_up.internal" });

/** A team whose server `linear` is OAuth-only (the Node test upstream, reached as a service binding). */
function setUp(engine?: Engine) {
  const servers = { linear: { service: "LINEAR_UP", auth: { type: "oauth" } } };
  const overrides = {
    MCP_SERVERS: JSON.stringify(servers),
    LINEAR_UP: {
      fetch: (input: RequestInfo, init?: RequestInit) => upstream.fetch(new Request(input, init)),
    },
  } as unknown as Partial<GatewayEnv>;
  const base = testContext({}, overrides, engine);
  const as = (user: string): RequestContext => ({ ...base, user, team: "default" });
  return { upstream, as };
}

const WHOAMI = `try { return await tools.linear.whoami({}); } catch (e) { return { name: e.name, message: e.message }; }`;

/** The user opens the link from the error: the gateway's begin, the upstream's sign-in, the callback. */
async function follow(upstream: OAuthUpstream, ctx: RequestContext, link: string) {
  const flow = new URL(link).pathname.split("/").pop() ?? "";
  const target: ConnectionTarget = {
    env: ctx.env,
    team: ctx.team,
    user: ctx.user,
    origin: ctx.origin,
    server: {
      name: "linear",
      url: "https://linear_up.internal/mcp",
      fetch: (url, init) => upstream.fetch(new Request(url, init)),
      auth: { type: "oauth" },
    },
  };
  const begun = await beginConnect(target, flow);
  if (!begun.ok) throw new Error(`not begun: ${begun.reason}`);
  const signedIn = await upstream.fetch(new Request(`${begun.url}&user=${encodeURIComponent(ctx.user)}`));
  const back = new URL(signedIn.headers.get("Location") ?? "");
  const state = back.searchParams.get("state") ?? "";
  return finishConnect(target, {
    flow: parseConnectState(state)?.flow ?? "",
    state,
    code: back.searchParams.get("code") ?? "",
    iss: back.searchParams.get("iss") ?? undefined,
  });
}

describe("per-user upstream authorization on the call path (default engine)", () => {
  it("a declined connect link ends the wait at once (2025 answer dropped the flow), with the link in the error", async () => {
    const { as } = setUp();
    const erin = as("erin");
    const asked: string[] = [];
    const started = Date.now();
    const missing = new CredentialsMissing("linear", "authorization-required");
    const asker: ConnectAsker = {
      async ask(question) {
        asked.push(question.id);
        // The client answers `decline` in another request: answerApprovals drops the flow.
        setTimeout(() => {
          void answerApprovals(erin, [
            { jsonrpc: "2.0", id: `connect_${question.id}`, result: { action: "decline" } },
          ]);
        }, 100);
      },
    };
    await expect(
      requireConnection(erin, missing, "linear.whoami", { asker, deadline: Date.now() + 20_000 }),
    ).rejects.toMatchObject({
      name: "AuthorizationRequiredError",
      message: expect.stringContaining("/connect/default/cf_"),
    });
    expect(asked).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await connectFlow(erin.env, erin.team, erin.user, asked[0] ?? "")).toMatchObject({ ok: false });
  });

  it("asks each user to connect with a link to the gateway's own page, then calls as that user", async () => {
    const { upstream, as } = setUp();
    const ana = as("ana@example.com");
    const first = (await execute(ana, { code: WHOAMI })).result as { name: string; message: string };
    expect(first.name).toBe("AuthorizationRequiredError");
    const link = /(http:\/\/localhost\/connect\/default\/cf_[\w-]+)/.exec(first.message)?.[1];
    expect(link, first.message).toBeDefined();
    expect(first.message).toContain("ana@example.com");
    expect(upstream.bearers).toEqual([]);

    expect(await follow(upstream, ana, link ?? "")).toMatchObject({ ok: true, server: "linear" });
    expect((await execute(ana, { code: WHOAMI })).result).toMatchObject({ user: "ana@example.com" });

    // Another user of the team is asked for their own connection; ana's token is never theirs.
    const bob = (await execute(as("bob"), { code: WHOAMI })).result as { name: string };
    expect(bob.name).toBe("AuthorizationRequiredError");
    expect(upstream.bearers.length).toBeGreaterThan(0);
    expect(upstream.bearers.every((b) => b.issuedHere && b.user === "ana@example.com")).toBe(true);
    const seen = upstream.bearers.length;
    expect((await execute(ana, { code: WHOAMI })).result).toMatchObject({ user: "ana@example.com" });
    expect(upstream.bearers.length).toBeGreaterThan(seen);

    // The default engine and the isolate engine answer the same code the same way, as the same user.
    const onIsolate = setUp("isolate").as("ana@example.com");
    expect((await execute(onIsolate, { code: WHOAMI })).result).toEqual(
      (await execute(ana, { code: WHOAMI })).result,
    );
  });

  it("the team's last-seen list is rewritten only by a newer list, not by each member's own in turn", async () => {
    const { as } = setUp();
    const seenList = async () => {
      const listed = await env.SCHEMA_CACHE.list({ prefix: "tools:v1:default:linear:" });
      const key = listed.keys.map((k) => k.name).find((name) => !name.includes(":u:"));
      return key ? ((await env.SCHEMA_CACHE.get(key, "json")) as { fetchedAt: number }).fetchedAt : 0;
    };
    const [fay, gus] = [as("fay"), as("gus")];
    for (const user of [fay, gus]) {
      const asked = (await execute(user, { code: WHOAMI })).result as { message: string };
      const link = /(http:\/\/localhost\/connect\/default\/cf_[\w-]+)/.exec(asked.message)?.[1] ?? "";
      expect(await follow(upstream, user, link)).toMatchObject({ ok: true });
      await execute(user, { code: WHOAMI }); // fetches (and caches) this user's own list
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const newest = await seenList();
    forgetMemo();
    await execute(fay, { code: `return (await searchTools("who")).total;` }); // fay's own list is older
    forgetMemo();
    expect(await seenList()).toBe(newest);
  });

  it("search_tools says the server is not connected for a user who has not connected", async () => {
    const { as } = setUp();
    const r = await execute(as("carol"), { code: `return (await searchTools("who")).warnings;` });
    expect(r.result).toEqual([expect.stringMatching(/^linear: not connected for you .*link to connect$/)]);
  });

  it("a link is single use: following it twice changes nothing the second time", async () => {
    const { upstream, as } = setUp();
    const dan = as("dan");
    const first = (await execute(dan, { code: WHOAMI })).result as { message: string };
    const link = /(http:\/\/localhost\/connect\/default\/cf_[\w-]+)/.exec(first.message)?.[1] ?? "";
    expect(link, JSON.stringify(first)).not.toBe("");
    expect(await follow(upstream, dan, link)).toMatchObject({ ok: true });
    await expect(follow(upstream, dan, link)).rejects.toThrow();
  });
});
