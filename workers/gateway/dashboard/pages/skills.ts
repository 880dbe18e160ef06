import { type Context, Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../http/app-env";
import { requireConfig } from "../../http/config";
import { renderSkillMd } from "../../skills/skill-md";
import { SkillStore } from "../../skills/store";
import { csrfField, notice, page, table } from "../layout";

const storeOf = (c: Context<AppEnv>) =>
  new SkillStore(c.env, c.req.param("team") ?? "", requireConfig(c).skills);

/** A team's skills: the list, one skill's versions, code and SKILL.md, and deleting one (after a confirmation). */
export const skillPages = new Hono<AppEnv>()
  .get("/", async (c) => {
    const team = c.req.param("team") ?? "";
    const signIn = c.get("operator");
    const skills = await storeOf(c).list();
    const body = html`${c.req.query("deleted") ? notice("ok", "Skill deleted.") : ""}
${table(
  `Skills of ${team}`,
  ["Name", "Version", "Description", "Saved"],
  skills.map((s) => [
    html`<a href="/dashboard/teams/${encodeURIComponent(team)}/skills/${encodeURIComponent(s.name)}">${s.name}</a>`,
    String(s.version),
    s.description,
    s.updatedAt,
  ]),
)}`;
    return page(c, `Skills of ${team}`, body, signIn);
  })
  .get("/:name", async (c) => {
    const team = c.req.param("team") ?? "";
    const name = c.req.param("name");
    const signIn = c.get("operator");
    const store = storeOf(c);
    const latest = await store.get(name);
    if (!latest)
      return page(c, "Skill", notice("error", `Team ${team} has no skill "${name}".`), signIn, 404);
    const asked = Number(c.req.query("version"));
    const shown =
      Number.isInteger(asked) && asked > 0 && asked !== latest.version
        ? await store.get(name, asked)
        : latest;
    if (!shown)
      return page(c, "Skill", notice("error", `Skill ${name} has no version ${asked}.`), signIn, 404);
    const base = `/dashboard/teams/${encodeURIComponent(team)}/skills/${encodeURIComponent(name)}`;
    const versions = Array.from({ length: latest.version }, (_, i) => latest.version - i).slice(0, 50);
    const body = html`<p>Version ${shown.version} of ${latest.version} · versions: ${versions.map(
      (v) =>
        html`<a href="${base}?version=${v}"${v === shown.version ? html` aria-current="page"` : ""}>${v}</a> `,
    )}</p>
<h2>Code</h2>
<pre>${shown.code}</pre>
<h2>SKILL.md</h2>
<pre>${renderSkillMd(shown)}</pre>
<h2>Delete</h2>
<form method="post" action="${base}/delete">${csrfField(signIn)}
<label><span><input type="checkbox" name="confirm" value="yes" required> Delete every version of ${name}</span></label>
<p><button type="submit" class="danger">Delete skill ${name}</button></p></form>`;
    return page(c, `Skill ${name}`, body, signIn);
  })
  .post("/:name/delete", async (c) => {
    const team = c.req.param("team") ?? "";
    const name = c.req.param("name");
    const signIn = c.get("operator");
    const form = await c.req.parseBody();
    if (form.confirm !== "yes")
      return page(c, "Skill", notice("error", "Tick the box to confirm the deletion."), signIn, 400);
    if (!(await storeOf(c).delete(name)))
      return page(c, "Skill", notice("error", `Team ${team} has no skill "${name}".`), signIn, 404);
    return c.redirect(`/dashboard/teams/${encodeURIComponent(team)}/skills?deleted=1`, 303);
  });
