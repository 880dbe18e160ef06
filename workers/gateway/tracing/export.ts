import type { HrTime } from "@opentelemetry/api";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { log } from "../../../shared/log";
import type { TracingConfig } from "../tracing-config";
import { VERSION } from "../version";
import { TeamQueues } from "../write-behind/team-queues";
import type { Span, Trace } from "./trace";

/** What the OTLP serializers take: the SDK's `ReadableSpan`, which our spans are turned into. */
type ReadableSpan = Parameters<typeof JsonTraceSerializer.serializeRequest>[0][number];

/** Finished traces of any request wait this long for others to share one POST (at most 1 s in all). */
const QUEUE_WINDOW_MS = 50;
const QUEUE_MAX_AGE_MS = 1_000;
const QUEUE_MAX_TRACES = 100;
/** Spans waiting or being sent in this isolate at most; more are dropped and counted. */
const MAX_PENDING_SPANS = 4_096;
/** A collector gets this long to answer; then the POST is abandoned and its spans counted as dropped. */
const SEND_TIMEOUT_MS = 3_000;

/**
 * Per-isolate state: finished traces not yet sent, one queue per collector URL (a queue of the
 * write-behind kind: sent by the request that opened it, in its `waitUntil`); spans pending; spans
 * dropped since the isolate started (a collector down, slow, refusing, or too much at once).
 */
const queues = new TeamQueues<Trace>(QUEUE_WINDOW_MS, QUEUE_MAX_TRACES, QUEUE_MAX_AGE_MS);
let pending = 0;
let dropped = 0;

/** Spans this isolate could not deliver (tests, the warning line). */
export function droppedSpans(): number {
  return dropped;
}

/**
 * Queues a finished trace for its collector, after the response: nothing here waits for the
 * collector on the request path, and nothing it does can fail the request.
 */
export function exportTrace(trace: Trace, waitUntil: (promise: Promise<unknown>) => void): void {
  const { endpoint } = trace.config;
  if (!trace.recording || !endpoint) return;
  const count = trace.spans.length;
  if (pending + count > MAX_PENDING_SPANS) {
    lost(count, "too many spans waiting");
    return;
  }
  pending += count;
  const sending = queues.add(endpoint, trace, (traces) => send(trace.config, traces));
  if (sending) waitUntil(sending);
}

async function send(config: TracingConfig, traces: Trace[]): Promise<void> {
  const spans = traces.flatMap((trace) => readable(trace, config));
  const count = traces.reduce((n, t) => n + t.spans.length, 0);
  try {
    const json = config.protocol === "http/json";
    const body = (json ? JsonTraceSerializer : ProtobufTraceSerializer).serializeRequest(spans);
    const response = await fetch(config.endpoint ?? "", {
      method: "POST",
      headers: { ...config.headers, "Content-Type": json ? "application/json" : "application/x-protobuf" },
      body,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) lost(count, `collector answered ${response.status}`);
  } catch (err) {
    lost(count, err instanceof Error ? err.name : "failed");
  } finally {
    pending -= count;
  }
}

function lost(count: number, why: string): void {
  dropped += count;
  log("warn", "trace spans dropped", { spans: count, why, droppedSpans: dropped });
}

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];

/** A trace's spans as the serializers read them; a span still open ends where the trace was sent. */
function readable(trace: Trace, config: TracingConfig): ReadableSpan[] {
  const attributes = { "service.name": config.serviceName, "service.version": VERSION };
  const resource: ReadableSpan["resource"] = {
    attributes,
    merge: () => resource,
    getRawAttributes: () => Object.entries(attributes),
  };
  const scope = { name: "code-mcp-gateway", version: VERSION };
  const now = Date.now();
  const { traceId } = trace;
  const context = (spanId: string) => ({ traceId, spanId, traceFlags: 1 });
  return trace.spans.map((span: Span): ReadableSpan => {
    const end = span.endMs ?? now;
    const parent = span.parentId;
    const isRemote = span === trace.root && trace.remote !== undefined;
    return {
      name: span.name,
      kind: span.kind,
      spanContext: () => context(span.id),
      ...(parent ? { parentSpanContext: { ...context(parent), isRemote } } : {}),
      startTime: hr(span.startMs),
      endTime: hr(end),
      duration: hr(end - span.startMs),
      status: span.status,
      attributes: span.attributes,
      links: span.links.map((to) => ({
        context: { traceId: to.traceId, spanId: to.spanId, traceFlags: to.sampled ? 1 : 0, isRemote: true },
      })),
      events: span.events.map((e) => ({ name: e.name, time: hr(e.ms), attributes: e.attributes })),
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
}
