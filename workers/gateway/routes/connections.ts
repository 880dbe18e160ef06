import { type Context, Hono } from "hono";
import { z } from "zod";
import type { ConnectionStoreApi } from "../../../durable-objects/connections/answers";
import { USER_SECRET_MAX_CHARS, USER_SECRET_NAME } from "../../../shared/contract/connections";
import { SERVER_NAME } from "../../../shared/contract/tools";
import { endConnection, listConnections } from "../connections/disconnect";
import { connectionStore } from "../connections/store";
import type { GatewayEnv } from "../env";
import type { AppEnv } from "../http/app-env";
import { parseBody, readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { oauthServersOf } from "./per-user-servers";

const SecretBody = z.object({ value: z.string().min(1).max(USER_SECRET_MAX_CHARS) }).strict();

/** The caller's team, user and the team's connection store; 503 where connections are not configured. */
function caller(c: Context<AppEnv>): {
  team: string;
  user: string;
  env: GatewayEnv;
  store: ConnectionStoreApi;
} {
  const { env, team, user } = c.get("context");
  if (!env.CONNECTIONS || !env.CONNECTIONS_KEY)
    throw new HttpError(
      503,
      "connections_unavailable",
      "Per-user connections are not configured (no CONNECTIONS binding or CONNECTIONS_KEY)",
    );
  return { env, team, user, store: connectionStore(env, team) };
}

function secretName(raw: string): string {
  if (!USER_SECRET_NAME.test(raw))
    throw new HttpError(
      400,
      "invalid_request",
      `Secret names match ${USER_SECRET_NAME.source}, the NAME of \${user:NAME} (got "${raw.slice(0, 70)}")`,
    );
  return raw;
}

/**
 * GET /v1/connections — the caller's user's connections (server, status, scopes, times; never a
 * token); DELETE /v1/connections/{server} — disconnect: deleted here, revoked upstream where it can be.
 */
export const connectionRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { env, team, user } = caller(c);
    return c.json({ connections: await listConnections(env, team, user) });
  })
  .delete("/:server", async (c) => {
    const { env, team, user } = caller(c);
    const name = c.req.param("server");
    const ended = SERVER_NAME.test(name)
      ? await endConnection({ env, team, user }, name, await oauthServersOf(env, team))
      : null;
    if (!ended)
      throw new HttpError(
        404,
        "not_found",
        `No connection to ${name.slice(0, 70)} for ${user} (GET /v1/connections lists them)`,
      );
    return c.json({ server: name, revoked: ended.revoked });
  });

/**
 * The caller's user's own secrets, which `${user:NAME}` in a server's headers takes: GET /v1/secrets
 * (names and times, never a value), PUT /v1/secrets/{name} `{ value }`, DELETE /v1/secrets/{name}.
 */
export const userSecretRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { team, user, store } = caller(c);
    return c.json({ secrets: await store.listUserSecrets(team, user) });
  })
  .put("/:name", async (c) => {
    const { team, user, store } = caller(c);
    const name = secretName(c.req.param("name"));
    const { value } = parseBody(SecretBody, await readJson(c));
    await store.setUserSecret(team, user, name, value);
    const saved = (await store.listUserSecrets(team, user)).find((s) => s.name === name);
    return c.json(saved ?? { name });
  })
  .delete("/:name", async (c) => {
    const { team, user, store } = caller(c);
    const name = secretName(c.req.param("name"));
    if (!(await store.setUserSecret(team, user, name, null)))
      throw new HttpError(404, "not_found", `No secret ${name} for ${user} (GET /v1/secrets lists them)`);
    return c.body(null, 204);
  });

/**
 * The `${user:NAME}` secrets typed on the connect page (form fields `secret_<NAME>`), saved for
 * `user`; empty fields keep what is set. `required`: each of `names` must be set afterwards (a
 * server that takes nothing else).
 */
export async function saveSecretsForm(
  env: GatewayEnv,
  team: string,
  user: string,
  names: string[],
  form: Record<string, unknown>,
  required: boolean,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const store = connectionStore(env, team);
  const given = names.flatMap((name) => {
    const value = form[`secret_${name}`];
    return typeof value === "string" && value !== "" ? [{ name, value }] : [];
  });
  const long = given.find((g) => g.value.length > USER_SECRET_MAX_CHARS);
  if (long) return { ok: false, error: `${long.name} is over ${USER_SECRET_MAX_CHARS} characters.` };
  if (required) {
    const set = new Set((await store.listUserSecrets(team, user)).map((s) => s.name));
    const missing = names.filter((n) => !set.has(n) && !given.some((g) => g.name === n));
    if (missing.length) return { ok: false, error: `Enter ${missing.join(", ")}.` };
  }
  for (const { name, value } of given) await store.setUserSecret(team, user, name, value);
  return { ok: true };
}
