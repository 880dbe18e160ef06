import { TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from "@modelcontextprotocol/server";
import { isValidSpanId, isValidTraceId } from "@opentelemetry/api";

/** A W3C trace context: the caller's span this request continues, or ours that an upstream continues. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  sampled: boolean;
  /** the `tracestate` that came with it, passed on unread */
  state?: string;
}

/** version-traceid-parentid-flags; a version other than 00 may add fields after a dash. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** tracestate: at most 32 list members of printable ASCII (W3C Trace Context §3.3). */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** A valid `traceparent` (and its `tracestate`, when sane), else undefined: a new trace starts. */
export function parseTraceparent(value: unknown, state?: unknown): TraceParent | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m) return undefined;
  const [, version = "", traceId = "", spanId = "", flags = "", rest] = m;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined;
  const parent: TraceParent = { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
  if (typeof state === "string" && TRACESTATE.test(state.trim())) parent.state = state.trim();
  return parent;
}

/** The `traceparent` header value of a span. */
export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** A random trace id (16 bytes) or span id (8 bytes), lowercase hex, never all zeros. */
export function randomId(bytes: 8 | 16): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of raw) out += HEX[b];
  return /^0+$/.test(out) ? randomId(bytes) : out;
}

/** W3C trace context in an MCP request's `_meta` (2026-07-28 puts it there; accepted on 2025-11-25 too). */
export function metaTraceparent(
  meta: Readonly<Record<string, unknown>> | undefined,
): TraceParent | undefined {
  return meta ? parseTraceparent(meta[TRACEPARENT_META_KEY], meta[TRACESTATE_META_KEY]) : undefined;
}
