import { isLegacyRequest } from "@modelcontextprotocol/server";
import type { Context, MiddlewareHandler } from "hono";
import type { SessionRecord } from "../../../durable-objects/session/record";
import { admit, messageCount } from "../admission/admit";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/body";
import { requireConfig } from "../http/config";
import { traceIdOf, traceMcpMessage } from "../http/request-trace";
import { isInitialize, requireValidBatch } from "../mcp/messages";
import { requireBatchAllowed, requireSession } from "../mcp/sessions";
import type { JsonBody } from "../request/context";
import { loadTeam, withTeamLimits } from "../teams/resolve";
import { timed } from "../timing/clock";
import { traced } from "../tracing/trace";
import { authenticate } from "./api-key";
import { buildContext, type RequestParts } from "./build";
import { loneExecuteCall } from "./lone-execute";
import { messageFacts } from "./messages";

/**
 * Builds the request's context for /mcp and /v1/*, in order: the API key (401), the team's record
 * (read once) and its limits, the body when the request's cost depends on it, the MCP session the
 * request names (400/404, after its credits are taken), then admission: the key's credits, and for a
 * lone execution its lease (429). Routes and operations read the finished context; the RateLimit-*
 * headers go on the answer.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const clock = c.get("clock");
  const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
  const deployment = requireConfig(c);
  const { team, keyId, user } = await timed(clock, "auth", () =>
    authenticate(c.env, deployment.devApiKey, c.req.raw.headers, waitUntil, c.req.url),
  );
  const teamRecord = await timed(clock, "scope", () => loadTeam(c.env, team));
  const config = withTeamLimits(deployment, teamRecord);
  const body = await timed(clock, "body", () => readBody(c), false);
  const messages = body?.ok && c.req.path === "/mcp" ? messageFacts(body.value) : undefined;
  if (messages && body?.ok) traceMcpMessage(c, messages, body.value);
  const trace = c.get("trace");
  const ask = {
    env: c.env,
    config,
    team,
    keyId,
    count: body?.ok && c.req.path === "/mcp" ? messageCount(body.value) : 1,
    clock,
    waitUntil,
  };
  const mcpEra = await mcpEraOf(c, body);
  let mcpSession: SessionRecord | undefined;
  try {
    if (mcpEra === "legacy") mcpSession = await timed(clock, "session", () => checkMcpSession(c, body, team));
  } catch (err) {
    // A refused session still costs the request's credits (a 429 comes first): no free probing.
    await admit({ ...ask, execution: false });
    throw err;
  }
  const call =
    body?.ok && mcpEra !== "modern" ? loneExecuteCall(c.req.path, body.value, c.req.raw.headers) : undefined;
  const execution = call !== undefined;
  const admission = await traced(
    trace?.root,
    "admission",
    { "gateway.team": team, "gateway.admission.credits": ask.count, "gateway.admission.lease": execution },
    () => admit({ ...ask, execution }),
  );
  const origin = new URL(c.req.url).origin;
  const traceId = traceIdOf(c);
  const caller = {
    config,
    team,
    teamRecord,
    keyId,
    user,
    requestId: c.get("requestId"),
    ...(traceId ? { traceId } : {}),
    origin,
  };
  const parts: RequestParts = {
    via: c.req.path === "/mcp" ? "mcp" : "rest",
    ...(body ? { body } : {}),
    ...(messages ? { messages } : {}),
    ...(mcpEra ? { mcpEra } : {}),
    ...(mcpSession ? { mcpSession } : {}),
    ...(call ? { loneExecution: { ...call, lease: admission.lease ?? null } } : {}),
    ...(clock ? { clock } : {}),
    ...(trace ? { trace } : {}),
  };
  c.set("context", buildContext(c.env, caller, parts, waitUntil));
  await next();
  for (const [name, value] of Object.entries(admission.headers)) c.res.headers.set(name, value);
};

/** The JSON body of POST /mcp and POST /v1/execute, read once: their credits and lease depend on it. */
async function readBody(c: Context<AppEnv>): Promise<JsonBody | undefined> {
  if (c.req.method !== "POST" || (c.req.path !== "/mcp" && c.req.path !== "/v1/execute")) return undefined;
  try {
    return { ok: true, value: await readJson(c) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/**
 * Which protocol era a POST /mcp speaks, decided by the SDK's own classification (the one its
 * 2026-07-28 handler routes by): undefined for other requests and for a body that is not JSON.
 */
async function mcpEraOf(
  c: Context<AppEnv>,
  body: JsonBody | undefined,
): Promise<"modern" | "legacy" | undefined> {
  if (c.req.path !== "/mcp" || c.req.method !== "POST" || !body?.ok) return undefined;
  if (Array.isArray(body.value)) return "legacy"; // batches, empty ones too: 2026-07-28 has none
  return (await isLegacyRequest(c.req.raw, body.value)) ? "legacy" : "modern";
}

/**
 * The live MCP session a POST /mcp names (every message but a lone initialize needs one), checked
 * before admission so that a lone execution's lease is taken only for a request that will run.
 */
async function checkMcpSession(
  c: Context<AppEnv>,
  body: JsonBody | undefined,
  team: string,
): Promise<SessionRecord | undefined> {
  if (c.req.path !== "/mcp" || !body?.ok) return undefined;
  const batch = Array.isArray(body.value) ? body.value : undefined;
  if (batch) requireValidBatch(batch);
  else if (isInitialize(body.value)) return undefined;
  const session = await requireSession(c.env, c.req.header("Mcp-Session-Id"), team);
  if (batch) requireBatchAllowed(session, c.req.header("MCP-Protocol-Version"), batch.length);
  return session;
}
