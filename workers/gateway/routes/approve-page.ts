import { type Context, Hono } from "hono";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { z } from "zod";
import { type ApprovalView, REMEMBER } from "../../../durable-objects/approvals/approval";
import { approvalDesk } from "../approvals/desk";
import { authenticate } from "../context/api-key";
import type { AppEnv } from "../http/app-env";
import { requireConfig } from "../http/config";
import { HttpError } from "../http/errors";

const APPROVAL_ID = /^apr_[0-9a-f]{24}$/;
const Form = z.object({
  key: z.string().min(1).max(200),
  decision: z.enum(["approve", "deny"]).optional(),
  remember: z.enum(REMEMBER).optional(),
});

/** No script, no framing, nothing cached or sent on as a referrer. */
const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

/**
 * The approval page a client with URL elicitation opens (`/approve/{id}`): the person signs in with
 * their team's API key (typed into the page, never in the URL), sees the waiting call and decides
 * it. Nothing about the call is shown before the key; an id of another team reads as unknown. The
 * key in the form body is the page's CSRF defence, which is why this path is exempt from the
 * Origin check (http/origin.ts).
 */
export const approvePageRoutes = new Hono<AppEnv>()
  .get("/:id", (c) => page(c, signIn(c.req.param("id"))))
  .post("/:id", async (c) => {
    const id = c.req.param("id");
    const form = Form.safeParse(await c.req.parseBody());
    if (!form.success || !APPROVAL_ID.test(id)) return page(c, signIn(id, "Enter your team's API key."), 400);
    const { key, decision, remember } = form.data;
    let team: string;
    try {
      ({ team } = await authenticate(
        c.env,
        requireConfig(c).devApiKey,
        new Headers({ "X-API-Key": key }),
        (p) => c.executionCtx.waitUntil(p),
      ));
    } catch (err) {
      if (err instanceof HttpError && err.status === 401)
        return page(c, signIn(id, "That API key is not valid."), 401);
      throw err;
    }
    const desk = approvalDesk(c.env);
    const approval = await desk.get(id);
    if (!approval || approval.team !== team)
      return page(c, message("No such approval for this key's team."), 404);
    if (decision && !approval.decision) {
      await desk.decide(
        id,
        { approve: decision === "approve", by: "client", remember: remember ?? "call" },
        team,
      );
    }
    const now = await desk.get(id);
    return page(c, now ? details(now, key) : message("This approval is gone."));
  });

function page(
  c: Context<AppEnv>,
  body: HtmlEscapedString | Promise<HtmlEscapedString>,
  status: 200 | 400 | 401 | 404 = 200,
) {
  return c.html(
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Approve a call</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem}button{font-size:1rem;margin-right:.5rem;padding:.4rem 1rem}</style>
</head><body><h1>Approve a call</h1>${body}</body></html>`,
    status,
    PAGE_HEADERS,
  );
}

function signIn(id: string, problem?: string) {
  return html`<p>Code run by your agent is waiting for a person to approve one of its tool calls.
Enter your team's API key to see the call and decide.</p>
${problem ? html`<p role="alert"><strong>${problem}</strong></p>` : ""}
<form method="post" action="/approve/${id}">
<label>API key <input type="password" name="key" autocomplete="off" required></label>
<button type="submit">Show the call</button></form>`;
}

function message(text: string) {
  return html`<p>${text}</p>`;
}

function details(a: ApprovalView, key: string) {
  const facts = html`<p><strong>${a.tool}</strong> (needs approval: ${a.rule})</p><pre>${a.args}</pre>`;
  if (a.decision) {
    return html`${facts}<p>Decided: <strong>${a.decision.status}</strong> by ${a.decision.by}. You can close this page.</p>`;
  }
  const seconds = Math.max(0, Math.round((a.deadline - Date.now()) / 1000));
  return html`${facts}<p>It waits ${seconds} s more; then the call fails.</p>
<form method="post" action="/approve/${a.id}">
<input type="hidden" name="key" value="${key}">
<label>Remember <select name="remember"><option value="call">ask again next time</option>
<option value="execution">for the rest of this run</option><option value="session">for the rest of this session</option></select></label>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p></form>`;
}
