import { describe, expect, it } from "vitest";
import type { Engine } from "../../shared/contract/engine";
import { SandboxBridge } from "../../workers/gateway/bridge/sandbox-bridge";
import { ExecutionLedger } from "../../workers/gateway/execution/ledger";
import { bridgeWork, testContext } from "../helpers/context";
import { countingLoader, sandboxOn, sendToSandbox, TEST_ENGINES } from "../helpers/sandbox";

// fetch() from code with a team's egress list: the isolate still has globalOutbound null; its
// fetch goes through the execution's bridge to the gateway, which checks every hop. The gateway's
// own outbound requests land on vitest.config.ts's outboundService, which answers where they went
// (and redirects /redirect?to=… there, like an open redirect on an allowed host would).
async function fetchFrom(engine: Engine, code: string, hosts: string[], maxToolCalls = 200) {
  const { deps } = sandboxOn(engine);
  const ctx = testContext({ maxToolCalls });
  const ledger = new ExecutionLedger(ctx.config.limits);
  const bridge = new SandboxBridge(await bridgeWork({ ...ctx, team: "egress-team" }, ledger, hosts));
  const { loader, loads } = countingLoader();
  const r = await sendToSandbox(
    deps({ maxToolCalls }, { bridge, ledger, egress: hosts.length > 0 }, loader),
    {
      code,
    },
  );
  return { r, loads };
}

describe.each(TEST_ENGINES)("egress allowlist on %s", (engine) => {
  it("is off by default: no network at all", async () => {
    const { r, loads } = await fetchFrom(
      engine,
      "return await (await fetch('https://api.example.com/')).text()",
      [],
    );
    expect(r.error?.message).toMatch(/no network access/);
    expect(loads[0]!.globalOutbound).toBeNull();
  });

  it("lets listed hosts through the gateway and refuses the rest with a 403 that says why", async () => {
    const code = `const ok = await (await fetch("https://api.example.com/v1")).text();
const blocked = await fetch("https://other.example.net/");
return { ok, status: blocked.status, why: (await blocked.json()).error };`;
    const { r, loads } = await fetchFrom(engine, code, ["api.example.com"]);
    expect(r.result).toEqual({
      ok: "reached api.example.com",
      status: 403,
      why: 'egress to other.example.net is not allowed for team "egress-team" (allowed: api.example.com)',
    });
    expect(loads[0]!.globalOutbound).toBeNull();
    expect(r.stats.fetches).toBe(2);
  });

  it("checks every redirect hop: an open redirect on an allowed host reaches nothing else", async () => {
    const code = `const res = await fetch("https://api.example.com/redirect?to=" + encodeURIComponent("https://evil.example.net/steal"));
return { status: res.status, body: await res.text() };`;
    const { r } = await fetchFrom(engine, code, ["api.example.com"]);
    expect(r.result).toMatchObject({ status: 403 });
    expect(JSON.stringify(r.result)).toMatch(
      /evil\.example\.net is not allowed .*redirected there by api\.example\.com/,
    );
    expect(JSON.stringify(r.result)).not.toMatch(/reached evil/);
  });

  it("refuses ports that are not listed", async () => {
    const { r } = await fetchFrom(engine, "return (await fetch('https://api.example.com:8443/')).status", [
      "api.example.com",
    ]);
    expect(r.result).toBe(403);
  });

  it("counts requests against the execution's budget", async () => {
    const code =
      "const s = []; for (let i = 0; i < 3; i++) s.push((await fetch('https://api.example.com/')).status); return s;";
    const { r } = await fetchFrom(engine, code, ["api.example.com"], 2);
    expect(r.result).toEqual([200, 200, 429]);
  });
});
