import { Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../http/app-env";
import { decideApproval, listApprovals } from "../../routes/admin-service";
import { adminCall } from "../admin-call";
import { ago, csrfField, notice, page, table, time } from "../layout";

/** Calls from code waiting for a person: approve or deny each; the recent decisions below. */
export const approvalPages = new Hono<AppEnv>()
  .get("/", async (c) => {
    const signIn = c.get("operator");
    const team = c.req.query("team");
    const listed = await adminCall(() => listApprovals(c.env, { limit: 200, team }));
    const done = { approved: "Approved.", denied: "Denied." }[c.req.query("done") ?? ""];
    const body = html`${done ? notice("ok", done) : ""}
${listed.ok ? "" : notice("error", listed.message)}
${team ? html`<p>Team ${team} only · <a href="/dashboard/approvals">all teams</a></p>` : ""}
${table(
  "Waiting",
  ["Team", "Tool", "Arguments", "Why", "Waiting", "Decide"],
  (listed.ok ? listed.data.pending : []).map((a) => [
    a.team,
    html`<code>${a.tool}</code>`,
    html`<pre>${a.args}</pre>`,
    a.rule,
    `${ago(a.waitingMs)} (times out ${time(a.deadline)})`,
    html`<form method="post" action="/dashboard/approvals/${a.id}" class="inline">${csrfField(signIn)}<input type="hidden" name="approve" value="yes"><button type="submit">Approve ${a.tool}</button></form>
<form method="post" action="/dashboard/approvals/${a.id}" class="inline">${csrfField(signIn)}<input type="hidden" name="approve" value="no"><button type="submit" class="danger">Deny ${a.tool}</button></form>`,
  ]),
)}
${table(
  "Recent decisions",
  ["Team", "Tool", "Decision", "By", "When"],
  (listed.ok ? listed.data.decided : [])
    .slice(0, 50)
    .map((a) => [
      a.team,
      html`<code>${a.tool}</code>`,
      a.decision?.status ?? "",
      a.decision?.by ?? "",
      time(a.decision?.decidedAt),
    ]),
)}`;
    return page(c, "Approvals", body, signIn);
  })
  .post("/:id", async (c) => {
    const signIn = c.get("operator");
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    const approve = form.approve === "yes";
    const decided = await adminCall(() => decideApproval(c.env, id, { approve }));
    if (!decided.ok)
      return page(
        c,
        "Approvals",
        html`${notice("error", decided.message)}<p><a href="/dashboard/approvals">Back to approvals</a></p>`,
        signIn,
        decided.status === 404 ? 404 : 409,
      );
    return c.redirect(`/dashboard/approvals?done=${approve ? "approved" : "denied"}`, 303);
  });
