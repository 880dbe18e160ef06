import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../workers/gateway/config";
import type { GatewayEnv } from "../../workers/gateway/env";
import { parseTraceparent } from "../../workers/gateway/tracing/context";
import { droppedSpans } from "../../workers/gateway/tracing/export";
import { SpanKind, Trace } from "../../workers/gateway/tracing/trace";
import { tracingConfig } from "../../workers/gateway/tracing-config";
import { AUTH, request, requestWith } from "../helpers/app";
import { type DecodedSpan, decodeTraceRequest } from "../helpers/otlp-protobuf";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";
const COLLECTOR = "http://collector.test";
const ON = { OTEL_EXPORTER_OTLP_ENDPOINT: COLLECTOR, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };

/** Answers the collector's POSTs with `status` and keeps their JSON bodies; other fetches go out. */
function collector(status = 200): Array<{ resourceSpans: unknown[] }> {
  const bodies: Array<{ resourceSpans: unknown[] }> = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(COLLECTOR)) return real(input, init);
    bodies.push(JSON.parse(new TextDecoder().decode(init?.body as Uint8Array)));
    return new Response("{}", { status });
  });
  return bodies;
}

type Exported = { traceId: string; spanId: string; parentSpanId?: string; name: string };
const spansOf = (bodies: Array<{ resourceSpans: unknown[] }>): Exported[] =>
  bodies.flatMap((b) =>
    (b.resourceSpans as Array<{ scopeSpans: Array<{ spans: Exported[] }> }>).flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe("traceparent", () => {
  it("takes W3C's form and refuses what the spec refuses", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, "vendor=abc")).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
      state: "vendor=abc",
    });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-later`)?.traceId).toBe(TRACE);
    for (const bad of [
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      42,
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("sampling", () => {
  const config = (sampler: string, arg?: string) => {
    const loaded = loadConfig({
      ...ON,
      OTEL_TRACES_SAMPLER: sampler,
      ...(arg ? { OTEL_TRACES_SAMPLER_ARG: arg } : {}),
    } as unknown as GatewayEnv);
    if (!loaded.ok) throw new Error(loaded.problems.join("; "));
    return loaded.config.tracing;
  };
  const parent = (sampled: boolean) => ({ traceId: TRACE, spanId: SPAN, sampled });
  const recording = (c: ReturnType<typeof config>, p?: ReturnType<typeof parent>) =>
    new Trace(c, p, "t", SpanKind.SERVER, {}).recording;

  it("follows a caller's flag when parent-based, the ratio otherwise", () => {
    expect(recording(config("parentbased_always_on"), parent(false))).toBe(false);
    expect(recording(config("parentbased_always_off"), parent(true))).toBe(true);
    expect(recording(config("parentbased_always_off"))).toBe(false);
    expect(recording(config("always_on"), parent(false))).toBe(true);
    const tenth = config("traceidratio", "0.1");
    const kept = Array.from({ length: 2000 }, () => recording(tenth)).filter(Boolean).length;
    expect(kept).toBeGreaterThan(100);
    expect(kept).toBeLessThan(300);
  });

  it("names a bad variable", () => {
    const loaded = loadConfig({
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_TRACES_SAMPLER_ARG: "2",
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "no-equals-sign",
    } as unknown as GatewayEnv);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.problems.map((p) => p.split(":")[0])).toEqual([
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_HEADERS",
        "OTEL_TRACES_SAMPLER",
        "OTEL_TRACES_SAMPLER_ARG",
      ]);
    }
  });

  it("reads the collector's headers, percent-decoded, and the traces URL", () => {
    const loaded = loadConfig({
      ...ON,
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20s3cret, x-team = a",
    } as unknown as GatewayEnv);
    expect(loaded.ok && loaded.config.tracing).toMatchObject({
      endpoint: `${COLLECTOR}/v1/traces`,
      headers: { authorization: "Bearer s3cret", "x-team": "a" },
    });
    expect(tracingConfig).toBeTypeOf("function");
  });
});

describe("a request's trace", () => {
  it("has the caller's trace id in its error body, with tracing off too", async () => {
    const res = await request("/v1/execute", {
      method: "POST",
      headers: { traceparent: `00-${TRACE}-${SPAN}-01` },
      body: "{}",
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { requestId: string; traceId: string };
    expect(body.traceId).toBe(TRACE);
    expect(body.requestId).toBe(res.headers.get("X-Request-Id"));
  });

  it("continues a 2026-07-28 request's _meta traceparent when the HTTP request has none", async () => {
    const bodies = collector();
    const res = await requestWith(ON, "/mcp", {
      method: "POST",
      headers: {
        ...AUTH,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "unit", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
            traceparent: `00-${TRACE}-${SPAN}-01`,
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    const spans = spansOf(bodies);
    const root = spans.find((s) => s.name === "POST /mcp");
    expect(root).toMatchObject({ traceId: TRACE, parentSpanId: SPAN });
    expect(spans.find((s) => s.name === "admission")?.parentSpanId).toBe(root?.spanId);
  });

  it("is the same trace in protobuf (the default) as in JSON: ids, parents, names, kinds", async () => {
    // the catalog loaded first, so both requests take the same path
    expect((await request("/v1/tools?query=ticket", { headers: AUTH })).status).toBe(200);
    const shapes: string[][] = [];
    for (const protocol of ["http/protobuf", "http/json"]) {
      const raw: Array<{ type: string | null; body: Uint8Array }> = [];
      const real = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (!url.startsWith(COLLECTOR)) return real(input, init);
        raw.push({ type: new Headers(init?.headers).get("Content-Type"), body: init?.body as Uint8Array });
        return new Response("{}");
      });
      const env = { ...ON, OTEL_EXPORTER_OTLP_PROTOCOL: protocol };
      const res = await requestWith(env, "/v1/tools?query=ticket", {
        headers: { ...AUTH, traceparent: `00-${TRACE}-${SPAN}-01` },
      });
      expect(res.status).toBe(200);
      vi.restoreAllMocks();
      expect(raw.length).toBeGreaterThan(0);
      const spans: DecodedSpan[] =
        protocol === "http/json"
          ? raw.flatMap((r) => spansOf([JSON.parse(new TextDecoder().decode(r.body))]) as DecodedSpan[])
          : raw.flatMap((r) => {
              expect(r.type).toBe("application/x-protobuf");
              return decodeTraceRequest(r.body);
            });
      const names = new Map(spans.map((s) => [s.spanId, s.name]));
      for (const span of spans) expect(span.traceId).toBe(TRACE);
      // each span as name < parent's name (the caller's span is outside), sorted: ids are random
      shapes.push(
        spans
          .map((s) => `${s.name}<${s.parentSpanId === SPAN ? "caller" : names.get(s.parentSpanId)}:${s.kind}`)
          .sort(),
      );
    }
    expect(shapes[0]?.length).toBeGreaterThan(1);
    expect(shapes[0]).toEqual(shapes[1]);
  });

  it("is dropped and counted when the collector refuses it; the request is answered as ever", async () => {
    collector(500);
    const before = droppedSpans();
    const res = await requestWith(ON, "/v1/tools?query=ticket", { headers: AUTH });
    expect(res.status).toBe(200);
    expect(droppedSpans()).toBeGreaterThan(before);
  });
});
