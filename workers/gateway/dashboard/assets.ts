import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";

/**
 * The dashboard's only stylesheet and script, served from the Worker (no CDN: the pages work offline
 * under `npm run dev`). The script does one thing: copy buttons (`data-copy` names the element whose
 * text is copied). Everything else works without it.
 */
const CSS = `:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--accent:#0b57d0;--bad:#b3261e;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9da7b3;--line:#30363d;--accent:#7cacf8;--bad:#ff8a80;--ok:#7ee2a8}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
.brand{font-weight:600;color:var(--fg);text-decoration:none}nav{display:flex;flex-wrap:wrap;gap:.25rem .9rem;align-items:center}
nav a{color:var(--accent)}nav a[aria-current=page]{font-weight:600;text-decoration:underline 2px}
main{padding:1rem;max-width:72rem;margin:0 auto}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.1rem;margin:1.6rem 0 .6rem}
a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem}caption{text-align:left;font-weight:600;padding:.2rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}td{overflow-wrap:anywhere}
code,pre,textarea{font:13px/1.4 ui-monospace,monospace}pre{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid var(--line);padding:.6rem;max-height:28rem;overflow:auto}
textarea{width:100%;min-height:14rem;padding:.5rem;color:var(--fg);background:var(--bg);border:1px solid var(--line)}
input,select,button{font:inherit;padding:.35rem .55rem;border:1px solid var(--line);border-radius:4px;color:var(--fg);background:var(--bg)}
button{cursor:pointer;border-color:var(--accent)}button.danger{border-color:var(--bad);color:var(--bad)}
form.inline{display:inline}form.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.4rem 0 1rem}
label{display:flex;flex-direction:column;gap:.15rem;font-size:.9rem}
.notice{padding:.5rem .7rem;border-left:4px solid var(--line)}.notice.error{border-color:var(--bad)}.notice.ok{border-color:var(--ok)}
.empty,.muted{color:var(--muted)}.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.8rem;margin:.5rem 0 1rem}
.card{border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem}.card b{display:block;font-size:1.5rem}
svg.chart{width:100%;height:auto;max-height:16rem}svg .bar{fill:var(--accent)}svg .bar.err{fill:var(--bad)}svg text{fill:var(--muted);font-size:11px}
.secret{font-weight:600;user-select:all}
@media (max-width:40rem){main{padding:.6rem}th,td{padding:.3rem}}
`;

const JS = `document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute("data-copy") || "");
  if (!source) return;
  try {
    await navigator.clipboard.writeText(source.textContent || "");
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
});
`;

export const assetRoutes = new Hono<AppEnv>()
  .get("/app.css", (c) =>
    c.body(CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300" }),
  )
  .get("/app.js", (c) =>
    c.body(JS, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    }),
  );
