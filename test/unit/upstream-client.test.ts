import { beforeEach, describe, expect, it } from "vitest";
import { forgetSessions, idleSessions, knownEra, withUpstream } from "../../workers/gateway/upstreams/client";
import type { UpstreamServer } from "../../workers/gateway/upstreams/config";
import { fetchTools } from "../../workers/gateway/upstreams/fetch-tools";
import { asFetcher, count, legacyUpstream, modernUpstream } from "../helpers/era-upstreams";
import { upstreamServer } from "../helpers/fake-upstream";

beforeEach(() => forgetSessions());

const add = (server: UpstreamServer, a: number, b: number) =>
  withUpstream(server, 5_000, (client) => client.callTool({ name: "add", arguments: { a, b } }));

/** Each upstream in turn answers a server's requests (a redeploy of another era behind one URL). */
function switchable(...fetches: Array<(request: Request) => Promise<Response>>) {
  let current = 0;
  return {
    next: () => current++,
    fetcher: asFetcher((request) => fetches[current]!(request)),
  };
}

describe("a 2026-07-28 upstream", () => {
  it("is probed once with server/discover, then reached with no handshake at all", async () => {
    const up = modernUpstream();
    const server = await upstreamServer("modern", asFetcher(up.fetch));
    const listed = await fetchTools(server, 5_000);
    expect(listed.tools.map((t) => t.name)).toEqual(["add", "shout"]);
    expect(listed.server).toEqual({ name: "modern", version: "2.0.0" });
    expect(knownEra(server)?.kind).toBe("modern");
    for (let i = 0; i < 3; i++) expect((await add(server, i, 1)).structuredContent).toEqual({ sum: i + 1 });
    expect(up.wire.methods).toEqual([
      "server/discover",
      "tools/list",
      "tools/call",
      "tools/call",
      "tools/call",
    ]);
    expect(up.wire.sessionHeaders.every((h) => h === "-")).toBe(true);
    expect(idleSessions(server)).toBe(0);
  });

  it("runs concurrent calls side by side (nothing to lend, so nothing to wait for)", async () => {
    const up = modernUpstream();
    const server = await upstreamServer("modern-par", asFetcher(up.fetch));
    const sums = await Promise.all([1, 2, 3, 4].map((i) => add(server, i, i)));
    expect(sums.map((r) => r.structuredContent)).toEqual([{ sum: 2 }, { sum: 4 }, { sum: 6 }, { sum: 8 }]);
    expect(count(up.wire, "initialize")).toBe(0);
  });
});

describe("a 2025-era upstream", () => {
  it("falls back to initialize after the probe, and reuses its session across calls", async () => {
    const up = legacyUpstream();
    const server = await upstreamServer("old", asFetcher(up.fetch));
    for (let i = 0; i < 3; i++) await add(server, i, 1);
    expect(knownEra(server)).toEqual({ kind: "legacy" });
    expect(count(up.wire, "server/discover")).toBe(1);
    expect(count(up.wire, "initialize")).toBe(1);
    expect(count(up.wire, "tools/call")).toBe(3);
    expect(up.wire.sessionsIssued).toBe(1);
    expect(idleSessions(server)).toBe(1);
  });

  it("initializes without probing again once known, and drops a pool the upstream forgot", async () => {
    const up = legacyUpstream();
    const server = await upstreamServer("restarts", asFetcher(up.fetch));
    await add(server, 0, 0);
    // One call takes the idle upstream session, the other initializes (no probe: the era is known).
    await Promise.all([add(server, 1, 1), add(server, 2, 2)]);
    expect(idleSessions(server)).toBe(2);
    up.forget();
    expect((await add(server, 3, 3)).content).toEqual([{ type: "text", text: "6" }]);
    expect(count(up.wire, "server/discover")).toBe(1);
    expect(count(up.wire, "initialize")).toBe(3);
    expect(idleSessions(server)).toBe(1);
  });
});

describe("a remembered era that no longer holds", () => {
  it("re-probes a 2026 server that became a 2025 one, and repeats the call there", async () => {
    const modern = modernUpstream();
    const legacy = legacyUpstream();
    const behind = switchable(modern.fetch, legacy.fetch);
    const server = await upstreamServer("downgraded", behind.fetcher);
    await add(server, 1, 1);
    behind.next();
    expect((await add(server, 2, 2)).content).toEqual([{ type: "text", text: "4" }]);
    expect(knownEra(server)).toEqual({ kind: "legacy" });
    expect(legacy.wire.methods).toEqual([
      "tools/call",
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
    expect(legacy.wire.calls).toBe(1);
  });

  it("keeps a 2026 server's refusal: re-probed, still 2026, the call is not repeated", async () => {
    const up = modernUpstream();
    const server = await upstreamServer("refuses", asFetcher(up.fetch));
    await add(server, 1, 1);
    const missing = withUpstream(server, 5_000, (client) => client.callTool({ name: "nope", arguments: {} }));
    await expect(missing).rejects.toThrow(/nope/);
    expect(count(up.wire, "server/discover")).toBe(2);
    expect(count(up.wire, "tools/call")).toBe(2);
    expect(knownEra(server)?.kind).toBe("modern");
  });

  it("probes again when a 2025 server became 2026-only (an idle upstream session refused)", async () => {
    const legacy = legacyUpstream();
    const modern = modernUpstream({ legacy: "reject" });
    const behind = switchable(legacy.fetch, modern.fetch);
    const server = await upstreamServer("upgraded", behind.fetcher);
    await add(server, 1, 1);
    expect(idleSessions(server)).toBe(1);
    behind.next();
    expect((await add(server, 2, 3)).structuredContent).toEqual({ sum: 5 });
    expect(knownEra(server)?.kind).toBe("modern");
    expect(idleSessions(server)).toBe(0);
    expect(modern.wire.methods).toEqual(["tools/call", "server/discover", "tools/call"]);
    expect(modern.wire.calls).toBe(1);
  });

  it("probes again when a 2025 server became 2026-only (initialize refused)", async () => {
    const legacy = legacyUpstream("stateless25", { stateless: true });
    const modern = modernUpstream({ legacy: "reject" });
    const behind = switchable(legacy.fetch, modern.fetch);
    const server = await upstreamServer("upgraded-stateless", behind.fetcher);
    await add(server, 1, 1);
    expect(knownEra(server)).toEqual({ kind: "legacy" });
    expect(idleSessions(server)).toBe(0);
    behind.next();
    expect((await add(server, 2, 3)).structuredContent).toEqual({ sum: 5 });
    expect(knownEra(server)?.kind).toBe("modern");
    expect(modern.wire.methods).toEqual(["initialize", "server/discover", "tools/call"]);
  });
});
