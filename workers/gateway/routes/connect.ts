import { type Context, Hono } from "hono";
import { log } from "../../../shared/log";
import { CONNECT_PATHS, clientMetadataDocument } from "../connections/client-metadata";
import {
  authorizationOrigin,
  beginConnect,
  connectFlow,
  finishConnect,
  parseConnectState,
} from "../connections/connect";
import { ConnectError, type OAuthServer } from "../connections/provider";
import { type ConnectionTarget, connectionStore, oauthServer } from "../connections/store";
import { keyHolder } from "../context/api-key";
import type { AppEnv } from "../http/app-env";
import { requireConfig } from "../http/config";
import { foreignOrigin } from "../http/origin";
import { TEAM_NAME } from "../teams/schema";
import type { UpstreamServer } from "../upstreams/config";
import { bindFlow, flowUser, knownUser, rememberUser, unbindFlow } from "./connect-cookies";
import { type ConnectView, connectPage, donePage, problemPage, refusalText } from "./connect-page";
import { saveSecretsForm } from "./connections";
import { perUserServers, secretNames } from "./per-user-servers";

const FLOW_ID = /^cf_[A-Za-z0-9_-]{1,64}$/;
const OFF =
  "Per-user connections are not configured on this gateway (no CONNECTIONS binding or CONNECTIONS_KEY).";

/** A pending flow as the connect page serves it: its user and expiry, its server as configured and as an OAuth one. */
type Opened = { user: string; expiresAt: number; server: UpstreamServer; oauth?: OAuthServer };

/** The flow a link names, or the page that says why there is none (nothing is changed). */
async function openedFlow(c: Context<AppEnv>, team: string, flow: string): Promise<Opened | Response> {
  if (!c.env.CONNECTIONS || !c.env.CONNECTIONS_KEY) return problemPage(c, OFF, 503);
  if (!TEAM_NAME.test(team) || !FLOW_ID.test(flow))
    return problemPage(c, "This is not a connect link of this gateway.", 404);
  const pending = await connectionStore(c.env, team).pendingFlow(team, flow);
  if (!pending.ok) return problemPage(c, refusalText(pending.reason), 404);
  const server = (await perUserServers(c.env, team)).find((s) => s.name === pending.server);
  if (!server)
    return problemPage(
      c,
      `${pending.server} is no longer a server of team ${team} that each user connects to. Nothing changed.`,
      404,
    );
  const oauth = server.auth ? oauthServer({ ...server, auth: server.auth }) : undefined;
  return { user: pending.user, expiresAt: pending.expiresAt, server, ...(oauth ? { oauth } : {}) };
}

const targetOf = (c: Context<AppEnv>, team: string, user: string, server: OAuthServer): ConnectionTarget => ({
  env: c.env,
  team,
  user,
  server,
  origin: new URL(c.req.url).origin,
});

/** A failure of the upstream's side (its metadata, registration, token endpoint): logged by name only. */
function upstreamFailed(c: Context<AppEnv>, team: string, server: string, err: unknown) {
  log("warn", "connect flow failed upstream", { team, server, error: (err as Error)?.name });
  const detail =
    err instanceof ConnectError ? err.message : `${server}'s authorization server could not be used`;
  return problemPage(c, `${detail}. Nothing changed; try the link again later.`, 502);
}

/** The page for a flow: what it is for, and the key to type unless this browser is its user already. */
async function view(
  c: Context<AppEnv>,
  team: string,
  flow: string,
  opened: Opened,
  problem?: { error: string; status: 400 | 401 },
) {
  const { user, expiresAt, server, oauth } = opened;
  const known = (await knownUser(c, team)) === user;
  const v: ConnectView = {
    team,
    flow,
    server: server.name,
    user,
    expiresAt,
    oauth: oauth !== undefined,
    secrets: secretNames(server),
    known,
    ...(problem ? { error: problem.error } : {}),
  };
  if (known && v.secrets.length) {
    const set = await connectionStore(c.env, team).listUserSecrets(team, user);
    v.secretsSet = set.map((s) => s.name);
  }
  if (oauth) {
    try {
      v.redirectTo = await authorizationOrigin({ env: c.env, team, server: oauth });
    } catch (err) {
      return upstreamFailed(c, team, server.name, err);
    }
  }
  return connectPage(c, v, problem?.status ?? 200);
}

/**
 * The connect pages (docs/security.md "Connect pages"): the link a call that needs a connection
 * gives (`/connect/{team}/{flow}`, connections/link.ts) names the server and the user and asks for
 * that user's API key unless this browser signed in as them before; its post checks its Origin and
 * the key (the key's team and user must be the flow's, else nothing changes), saves the user's
 * `${user:NAME}` secrets given, and sends the browser to the upstream's sign-in with a cookie
 * binding it to the flow. The callback takes the flow once, for the user of that cookie only.
 */
export const connectRoutes = new Hono<AppEnv>()
  .get(CONNECT_PATHS.clientMetadata, (c) =>
    c.json(clientMetadataDocument(new URL(c.req.url).origin), 200, {
      "Cache-Control": "public, max-age=300",
    }),
  )
  .get(CONNECT_PATHS.callback, async (c) => {
    if (!c.env.CONNECTIONS || !c.env.CONNECTIONS_KEY) return problemPage(c, OFF, 503);
    const { state = "", code, iss, error } = c.req.query();
    const parsed = parseConnectState(state);
    if (!parsed) return problemPage(c, "This is not a sign-in answer to one of this gateway's links.", 400);
    const { team, flow } = parsed;
    const user = await flowUser(c, team, flow);
    if (!user)
      return problemPage(
        c,
        "This browser did not start this connection (or started it over 15 minutes ago). Nothing changed: open the link again in the browser you sign in with.",
        403,
      );
    const pending = await connectFlow(c.env, team, user, flow);
    if (!pending.ok) return problemPage(c, refusalText(pending.reason), 403);
    const server = (await perUserServers(c.env, team)).find((s) => s.name === pending.server);
    if (!server?.auth) return problemPage(c, `${pending.server} is no longer a server of team ${team}.`, 404);
    if (error !== undefined || !code) {
      const said = error ? `: ${error.slice(0, 100)}` : " (its answer has no code)";
      return problemPage(
        c,
        `${server.name} did not grant access${said}. Nothing changed; open the link again to retry.`,
        400,
      );
    }
    try {
      const target = targetOf(c, team, user, oauthServer({ ...server, auth: server.auth }));
      const done = await finishConnect(target, { flow, state, code, iss });
      if (!done.ok) return problemPage(c, refusalText(done.reason), 403);
    } catch (err) {
      return upstreamFailed(c, team, server.name, err);
    }
    unbindFlow(c, flow);
    return donePage(c, server.name, user, "connected");
  })
  .get("/connect/:team/:flow", async (c) => {
    const { team, flow } = c.req.param();
    const opened = await openedFlow(c, team, flow);
    return opened instanceof Response ? opened : view(c, team, flow, opened);
  })
  .post("/connect/:team/:flow", async (c) => {
    const foreign = foreignOrigin(c);
    if (foreign) return problemPage(c, `A form of another site (${foreign}) cannot connect here.`, 403);
    const { team, flow } = c.req.param();
    const opened = await openedFlow(c, team, flow);
    if (opened instanceof Response) return opened;
    const { user, server, oauth } = opened;
    const form = await c.req.parseBody();
    const key = typeof form.key === "string" ? form.key.slice(0, 1000) : "";
    if (key) {
      const holder = await keyHolder(c.env, requireConfig(c).devApiKey, key);
      if (!holder)
        return view(c, team, flow, opened, {
          error: "That is not a valid API key (it may have been revoked).",
          status: 401,
        });
      if (holder.team !== team || holder.user !== user)
        return problemPage(
          c,
          `This link is for ${user} of team ${team}; the key you entered acts as ${holder.user} of team ${holder.team}. Nothing changed: open the link as ${user}, or ask your agent for a link of your own.`,
          403,
        );
      await rememberUser(c, team, holder);
    } else if ((await knownUser(c, team)) !== user) {
      return view(c, team, flow, opened, { error: "Enter your API key.", status: 401 });
    }
    const saved = await saveSecretsForm(c.env, team, user, secretNames(server), form, !oauth);
    if (!saved.ok) return view(c, team, flow, opened, { error: saved.error, status: 400 });
    if (!oauth) return donePage(c, server.name, user, "saved");
    let begun: Awaited<ReturnType<typeof beginConnect>>;
    try {
      begun = await beginConnect(targetOf(c, team, user, oauth), flow);
    } catch (err) {
      return upstreamFailed(c, team, server.name, err);
    }
    if (!begun.ok) return problemPage(c, refusalText(begun.reason), 403);
    await bindFlow(c, team, flow, user, opened.expiresAt);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(begun.url, 302);
  });
