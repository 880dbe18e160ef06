// `npm run trace`: the traces `npm run dev` kept (.wrangler/traces.jsonl, scripts/lib/local-traces.mjs).
//   npm run trace                    the last 10 requests: request id, trace id, what, ms, spans
//   npm run trace -- <request id>    that request's trace as a tree (a trace id works too)
import { readLocalTraces, TRACES_FILE } from "./lib/local-traces.mjs";

const spans = readLocalTraces();
const wanted = process.argv[2];
if (spans.length === 0) {
  console.error(
    `No spans in ${TRACES_FILE}: run \`npm run dev\` (TRACES unset or "local") and send it a request.`,
  );
  process.exit(1);
}
const roots = spans.filter((s) => s.attributes["gateway.request_id"] !== undefined);
const label = (s) =>
  [s.attributes["mcp.method.name"], s.attributes["gen_ai.tool.name"]].filter(Boolean).join(" ") || s.name;

if (!wanted) {
  for (const s of roots.slice(-10)) {
    const count = spans.filter((x) => x.traceId === s.traceId).length;
    console.log(
      `${new Date(s.startMs).toISOString().slice(11, 23)}  ${s.attributes["gateway.request_id"]}  ${s.traceId}  ${label(s)}  ${s.endMs - s.startMs} ms  ${count} spans`,
    );
  }
  process.exit(0);
}

const root = roots.findLast((s) => s.attributes["gateway.request_id"] === wanted);
const traceId = root?.traceId ?? (/^[0-9a-f]{32}$/.test(wanted) ? wanted : undefined);
const trace = spans.filter((s) => s.traceId === traceId);
if (!traceId || trace.length === 0) {
  console.error(`No trace for "${wanted}" in ${TRACES_FILE}: \`npm run trace\` lists the last requests.`);
  process.exit(1);
}
const ids = new Set(trace.map((s) => s.spanId));
const start = Math.min(...trace.map((s) => s.startMs));
const KINDS = ["", "", "server", "client"];
/** Attributes shown on a span's line: the ones an operator reads first. */
const SHOWN =
  /^(gateway\.(outcome|status|server|engine|language|team|duration\..*|request_id|result\.bytes|arguments\.bytes)|http\.response\.status_code|url\.full|user\.id|error\.type|mcp\.method\.name|mcp\.session\.id)$/;
function print(span, depth) {
  const attrs = Object.entries(span.attributes)
    .filter(([k]) => SHOWN.test(k))
    .map(([k, v]) => `${k.replace(/^gateway\./, "")}=${v}`)
    .join(" ");
  const at = `+${String(span.startMs - start).padStart(5)} ms ${String(span.endMs - span.startMs).padStart(6)} ms`;
  console.log(
    `${at}  ${"  ".repeat(depth)}${span.name}${KINDS[span.kind] ? ` (${KINDS[span.kind]})` : ""}${span.status === 2 ? " ERROR" : ""}  ${attrs}`,
  );
  for (const child of trace
    .filter((s) => s.parentSpanId === span.spanId)
    .sort((a, b) => a.startMs - b.startMs))
    print(child, depth + 1);
}
console.log(`trace ${traceId}`);
for (const top of trace.filter((s) => !ids.has(s.parentSpanId)).sort((a, b) => a.startMs - b.startMs))
  print(top, 0);
