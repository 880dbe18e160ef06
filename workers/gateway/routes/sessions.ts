import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { filePathOf, fileResponse, readWorkspaceFile } from "../sessions/download";
import { forgetSession } from "../sessions/live";
import { callSession, createSession, endSession, isSessionId, sessionNotFound } from "../sessions/store";

/**
 * Sessions as state containers (contract "Sessions"), independent of MCP: made here, passed to
 * execute as `sessionId`, ended here or by idle expiry; its workspace files downloaded here. Another
 * team's session is a 404 like an unknown one.
 */
export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const { env, team, config } = c.get("context");
    const session = await createSession(env, {
      kind: "api",
      team,
      ttlSeconds: config.sessionTtlSeconds,
    });
    return c.json({ sessionId: session.id, expiresAfterIdleSeconds: session.ttlSeconds }, 201);
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    if (!isSessionId(id)) throw sessionNotFound();
    const { env, team, config } = c.get("context");
    const answer = await callSession(env, id, team, { op: "session.info" }, config.sessionQuota);
    if (!answer.ok) throw sessionNotFound();
    return c.json(answer.value);
  })
  .get("/:id/files/*", async (c) => {
    const id = c.req.param("id");
    if (!isSessionId(id)) throw sessionNotFound();
    const path = filePathOf(c.req.url, id);
    const ctx = c.get("context");
    const bytes = await readWorkspaceFile(ctx, id, path);
    return fileResponse(ctx, id, path, bytes, c.req.header("If-None-Match"));
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    forgetSession(id);
    const { env, team } = c.get("context");
    if (!(await endSession(env, id, team))) throw sessionNotFound();
    return c.body(null, 204);
  });
