import { Hono } from "hono";
import type { AppEnv } from "../env";
import { requireConfig } from "../http/config";
import { forgetSession } from "../sessions/live";
import { callSession, createSession, endSession, isSessionId, sessionNotFound } from "../sessions/store";

/**
 * Sessions as state containers (contract "Sessions"), independent of MCP: made here, passed to
 * execute as `sessionId`, ended here or by idle expiry. Another team's session is a 404 like an
 * unknown one.
 */
export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const config = requireConfig(c);
    const session = await createSession(c.env, {
      kind: "api",
      team: c.get("team"),
      ttlSeconds: config.sessionTtlSeconds,
    });
    return c.json({ sessionId: session.id, expiresAfterIdleSeconds: session.ttlSeconds }, 201);
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    if (!isSessionId(id)) throw sessionNotFound();
    const answer = await callSession(
      c.env,
      id,
      c.get("team"),
      { op: "session.info" },
      requireConfig(c).sessionQuota,
    );
    if (!answer.ok) throw sessionNotFound();
    return c.json(answer.value);
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    forgetSession(id);
    if (!(await endSession(c.env, id, c.get("team")))) throw sessionNotFound();
    return c.body(null, 204);
  });
