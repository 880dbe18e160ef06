// A small OTLP/HTTP trace receiver (JSON encoding), for `npm run trace` and the e2e tests: it keeps
// the spans it is sent, flattened, and can play a collector that answers 500 or never answers.
import { createServer } from "node:http";

/**
 * One span as the receiver keeps it: ids in hex, times in ms, attributes as plain values, the
 * service that sent it.
 * @typedef {{ traceId: string, spanId: string, parentSpanId: string, name: string, kind: number,
 *   startMs: number, endMs: number, status: number, attributes: Record<string, unknown>,
 *   events: Array<{ name: string, attributes: Record<string, unknown> }>,
 *   links: Array<{ traceId: string, spanId: string }>, service: string }} ReceivedSpan
 */

/** An OTLP AnyValue as a plain value. */
function plain(value) {
  if (!value || typeof value !== "object") return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

const attributesOf = (list) => Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
const ms = (nanos) => Number(BigInt(nanos ?? 0) / 1_000_000n);

/** The spans of an OTLP JSON ExportTraceServiceRequest, flattened. */
export function flattenSpans(request) {
  const out = [];
  for (const rs of request.resourceSpans ?? []) {
    const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "");
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          startMs: ms(s.startTimeUnixNano),
          endMs: ms(s.endTimeUnixNano),
          status: s.status?.code ?? 0,
          attributes: attributesOf(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          service,
        });
      }
    }
  }
  return out;
}

/**
 * Starts the receiver on `port` (0: any free one). `mode`: `ok` (keeps spans, answers 200), `fail`
 * (answers 500), `hang` (never answers). `onSpans` sees each request's spans as they come.
 */
export function startOtlpReceiver({ port = 0, host = "127.0.0.1", mode = "ok", onSpans } = {}) {
  /** @type {ReceivedSpan[]} */
  const spans = [];
  const state = { mode, requests: 0, protobufRequests: 0 };
  const hanging = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      state.requests++;
      if (state.mode === "hang") {
        hanging.add(res);
        return;
      }
      if (state.mode === "fail") {
        res.writeHead(500).end("collector says no");
        return;
      }
      if (req.method !== "POST" || !req.url?.endsWith("/v1/traces")) {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      if (!String(req.headers["content-type"]).includes("json")) {
        state.protobufRequests++;
        res.writeHead(200, { "Content-Type": "application/x-protobuf" }).end();
        return;
      }
      try {
        const got = flattenSpans(JSON.parse(body.toString("utf8")));
        spans.push(...got);
        onSpans?.(got, req.headers);
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  const listening = new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server.address().port));
  });
  return {
    spans,
    state,
    listening,
    /** @param {"ok" | "fail" | "hang"} next */
    setMode(next) {
      state.mode = next;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
