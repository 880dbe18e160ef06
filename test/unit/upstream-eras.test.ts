import { ProtocolError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import {
  type Era,
  EraMemory,
  eraAfterConnect,
  isFallbackStatus,
  mayBeStaleEra,
  planConnect,
} from "../../workers/gateway/upstreams/eras";

const discover = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
} as unknown as Extract<Era, { kind: "modern" }>["discover"];
const modern: Era = { kind: "modern", discover };
const http = (status: number) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status });

describe("EraMemory", () => {
  it("remembers a verdict until its age limit, then forgets it", () => {
    let now = 0;
    const memory = new EraMemory(10, 1_000, () => now);
    memory.set("a", { kind: "legacy" });
    now = 1_000;
    expect(memory.get("a")).toEqual({ kind: "legacy" });
    now = 1_001;
    expect(memory.get("a")).toBeUndefined();
    expect(memory.size).toBe(0);
  });

  it("is bounded: the least recently learned server goes first", () => {
    const memory = new EraMemory(2, 60_000);
    memory.set("a", modern);
    memory.set("b", { kind: "legacy" });
    memory.set("a", modern); // learned again: now the newest
    memory.set("c", { kind: "legacy-sse" });
    expect(memory.size).toBe(2);
    expect(memory.get("b")).toBeUndefined();
    expect(memory.get("a")).toEqual(modern);
    expect(memory.get("c")).toEqual({ kind: "legacy-sse" });
    memory.forget("a");
    expect(memory.get("a")).toBeUndefined();
  });
});

describe("planConnect", () => {
  it("probes a server of unknown era, and may lend it an idle upstream session", () => {
    expect(planConnect("auto", undefined)).toEqual({ via: "streamable", reuseIdle: true, remembered: false });
  });

  it("reaches a known 2026 server with its discover result: no probe, no pool", () => {
    expect(planConnect("auto", modern)).toEqual({
      via: "streamable",
      prior: { kind: "modern", discover },
      reuseIdle: false,
      remembered: true,
    });
  });

  it("initializes a known 2025 server without probing, idle upstream sessions first", () => {
    expect(planConnect("streamable-http", { kind: "legacy" })).toEqual({
      via: "streamable",
      prior: { kind: "legacy" },
      reuseIdle: true,
      remembered: true,
    });
  });

  it("goes straight to SSE for a server found SSE-only, or configured so", () => {
    expect(planConnect("auto", { kind: "legacy-sse" })).toEqual({ via: "sse", remembered: true });
    expect(planConnect("sse", undefined)).toEqual({ via: "sse", remembered: false });
    expect(planConnect("sse", modern)).toEqual({ via: "sse", remembered: false });
  });
});

describe("failures", () => {
  it("falls back to SSE on 400, 404 and 405 only", () => {
    expect([400, 404, 405, 401, 403, 500, undefined].map(isFallbackStatus)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it("suspects a stale era on a 4xx or a JSON-RPC error, never on auth walls, 5xx or timeouts", () => {
    expect(mayBeStaleEra(http(400))).toBe(true);
    expect(mayBeStaleEra(http(404))).toBe(true);
    expect(mayBeStaleEra(new ProtocolError(-32000, "Bad Request: Mcp-Session-Id header is required"))).toBe(
      true,
    );
    expect(mayBeStaleEra(http(401))).toBe(false);
    expect(mayBeStaleEra(http(403))).toBe(false);
    expect(mayBeStaleEra(http(502))).toBe(false);
    expect(mayBeStaleEra(new Error("timed out after 300 ms"))).toBe(false);
  });

  it("learns the era from how the connection was made", () => {
    expect(eraAfterConnect("sse", "legacy", undefined)).toEqual({ kind: "legacy-sse" });
    expect(eraAfterConnect("streamable", "modern", discover)).toEqual(modern);
    expect(eraAfterConnect("streamable", "legacy", undefined)).toEqual({ kind: "legacy" });
    expect(eraAfterConnect("streamable", undefined, undefined)).toBeUndefined();
  });
});
