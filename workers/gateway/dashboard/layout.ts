import type { Context } from "hono";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { AppEnv } from "../http/app-env";
import type { OperatorSignIn } from "./sign-in";

export type Html = string | HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * What every dashboard answer carries: no script but the dashboard's own file, no inline script or
 * style, no framing, nothing cached, no referrer to other sites (same-origin: with no-referrer, Chrome sends `Origin: null` on the pages' own posts).
 */
export const PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
};

/**
 * The headers of a page of the gateway's own without any script (the OAuth consent page, the
 * connect pages): the dashboard's, with `form-action` also allowing `redirectTo`'s origin: a form
 * post answered by a redirect elsewhere is checked against `form-action` too, so 'self' alone would
 * stop the browser on its way there.
 */
export function formPageHeaders(redirectTo?: string): Record<string, string> {
  let target = "";
  if (redirectTo) {
    const origin = new URL(redirectTo).origin;
    if (/^https?:\/\/[^\s;,']+$/.test(origin)) target = ` ${origin}`;
  }
  return {
    ...PAGE_HEADERS,
    "Content-Security-Policy": `default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

/**
 * A whole page of the gateway's own outside the dashboard (the OAuth consent page, the connect
 * pages): no script, every interpolated value escaped by `html`. `redirectTo`: where its form post
 * may be redirected (`formPageHeaders`); `headers`: Set-Cookie lines to send along.
 */
export async function ownPage(
  c: Context<AppEnv>,
  title: string,
  body: Html,
  status: 200 | 400 | 401 | 403 | 404 | 502 | 503,
  extra: { redirectTo?: string; headers?: Headers } = {},
) {
  const header = html`<span class="brand">MCP gateway</span>`;
  const content = htmlDocument({ title, site: "MCP gateway", header, body });
  const res = await c.html(content, status, formPageHeaders(extra.redirectTo));
  extra.headers?.forEach((value, name) => {
    if (name.toLowerCase() === "set-cookie") res.headers.append(name, value);
  });
  return res;
}

const NAV: [string, string][] = [
  ["/dashboard", "Overview"],
  ["/dashboard/teams", "Teams"],
  ["/dashboard/audit", "Audit"],
  ["/dashboard/approvals", "Approvals"],
];

/** A whole page. Every interpolated value is escaped by `html`; nothing here takes raw text from data. */
export function page(
  c: Context<AppEnv>,
  title: string,
  body: Html,
  signIn?: OperatorSignIn,
  status: 200 | 201 | 400 | 401 | 403 | 404 | 409 | 502 | 503 = 200,
) {
  const here = c.req.path;
  const header = html`<a class="brand" href="/dashboard">gateway dashboard</a>
  ${
    signIn
      ? html`<nav aria-label="Main">${NAV.map(
          ([href, label]) =>
            html`<a href="${href}"${here === href ? raw(' aria-current="page"') : ""}>${label}</a>`,
        )}
  <form method="post" action="/dashboard/sign-out" class="inline">${csrfField(signIn)}<button type="submit">Sign out</button></form></nav>`
      : ""
  }`;
  const content = htmlDocument({ title, site: "gateway dashboard", header, body, script: true });
  return c.html(content, status, PAGE_HEADERS);
}

/**
 * The document around a page of the gateway's own (the dashboard, the OAuth consent page): its one
 * stylesheet, the dashboard's script when asked, the page's header, its title as the heading, its body.
 */
export function htmlDocument(parts: {
  title: string;
  site: string;
  header: Html;
  body: Html;
  script?: boolean;
}) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} · ${parts.site}</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
${parts.script ? html`<script src="/dashboard/assets/app.js" defer></script>` : ""}
</head>
<body>
<header>
  ${parts.header}
</header>
<main>
<h1>${parts.title}</h1>
${parts.body}
</main>
</body>
</html>`;
}

export function csrfField(signIn: OperatorSignIn) {
  return html`<input type="hidden" name="csrf" value="${signIn.csrf}">`;
}

/** A notice above a page's content: `error` ones are announced to screen readers. */
export function notice(kind: "error" | "ok", text: string) {
  return html`<p class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}">${kind === "error" ? "Error: " : ""}${text}</p>`;
}

/** A table with a caption; each cell escaped. */
export function table(caption: string, head: string[], rows: Html[][]) {
  if (rows.length === 0) return html`<p class="empty">${caption}: none.</p>`;
  return html`<div class="scroll"><table>
<caption>${caption}</caption>
<thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

export function time(ms: number | undefined) {
  if (ms === undefined) return "—";
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}

export function ago(ms: number) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}
