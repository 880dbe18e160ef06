import { Hono } from "hono";
import { html } from "hono/html";
import { SessionInfo } from "../../../../shared/contract/session";
import { auditLogOf, auditNamespace } from "../../audit/store";
import type { AppEnv } from "../../http/app-env";
import { requireConfig } from "../../http/config";
import { forgetSession } from "../../sessions/live";
import { callSession, endSession, isSessionId } from "../../sessions/store";
import { ago, csrfField, notice, page, table } from "../layout";

const DAY_MS = 86_400_000;
/** Sessions shown: the most recently used of the last day's executions. */
const SHOWN = 50;

/**
 * A team's active sessions: those its executions used in the last 24 hours (from the audit log),
 * each asked for its size and last use; ending one closes it as `DELETE /v1/sessions/{id}` does.
 */
export const sessionPages = new Hono<AppEnv>()
  .get("/", async (c) => {
    const team = c.req.param("team") ?? "";
    const signIn = c.get("operator");
    const ns = auditNamespace(c.env);
    const seen = new Map<string, number>();
    if (ns) {
      const { entries } = await auditLogOf(ns, team).page({
        kind: "execute",
        since: Date.now() - DAY_MS,
        limit: 1000,
      });
      for (const e of entries)
        if (e.sessionId && !seen.has(e.sessionId) && seen.size < SHOWN) seen.set(e.sessionId, e.ts);
    }
    const quota = requireConfig(c).sessionQuota;
    const infos = await Promise.all(
      [...seen.keys()].map(async (id) => {
        const answer = await callSession(c.env, id, team, { op: "session.info" }, quota).catch(
          () => undefined,
        );
        const info = answer?.ok ? SessionInfo.safeParse(answer.value) : undefined;
        return info?.success ? { id, info: info.data } : undefined;
      }),
    );
    const now = Date.now();
    const live = infos.filter((x) => x !== undefined);
    const body = html`${c.req.query("ended") ? notice("ok", "Session ended.") : ""}
${ns ? "" : notice("error", "The audit log is off (no AUDIT binding): sessions cannot be listed.")}
${table(
  `Sessions of ${team} used in the last 24 hours`,
  ["Session", "Last use", "Bytes", "Files", ""],
  live.map(({ id, info }) => [
    html`<code>${id}</code>`,
    `${ago(now - Date.parse(info.lastSeenAt))} ago`,
    String(info.bytesUsed),
    String(info.files),
    html`<form method="post" action="/dashboard/teams/${encodeURIComponent(team)}/sessions/${id}/end" class="inline">${csrfField(signIn)}<button type="submit" class="danger">End session ${id.slice(0, 8)}</button></form>`,
  ]),
)}`;
    return page(c, `Sessions of ${team}`, body, signIn);
  })
  .post("/:id/end", async (c) => {
    const team = c.req.param("team") ?? "";
    const id = c.req.param("id");
    const signIn = c.get("operator");
    forgetSession(id);
    if (!isSessionId(id) || !(await endSession(c.env, id, team)))
      return page(
        c,
        "Sessions",
        notice("error", `Team ${team} has no session "${id.slice(0, 80)}".`),
        signIn,
        404,
      );
    return c.redirect(`/dashboard/teams/${encodeURIComponent(team)}/sessions?ended=1`, 303);
  });
