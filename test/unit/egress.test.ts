import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hostAllowed } from "../../workers/gateway/egress/egress-gate";
import { egressFor } from "../../workers/gateway/egress/stub";
import { executeCode } from "../../workers/sandbox/executor";
import { LIMITS } from "../helpers/sandbox";

const fetchFrom = (code: string, hosts: string[] | undefined) =>
  executeCode(
    { loader: env.LOADER, limits: LIMITS, globalOutbound: egressFor("egress-team", hosts) },
    { code },
  );

describe("egress allowlist", () => {
  it("matches exact hosts and *.domain subdomains", () => {
    expect(hostAllowed("api.example.com", ["api.example.com"])).toBe(true);
    expect(hostAllowed("API.example.com", ["api.example.com"])).toBe(true);
    expect(hostAllowed("x.example.com", ["*.example.com"])).toBe(true);
    expect(hostAllowed("example.com", ["*.example.com"])).toBe(false);
    expect(hostAllowed("evilexample.com", ["*.example.com"])).toBe(false);
    expect(hostAllowed("example.com.evil.net", ["example.com"])).toBe(false);
  });

  it("is off by default: no network at all", async () => {
    const r = await fetchFrom("return await (await fetch('https://api.example.com/')).text()", undefined);
    expect(r.error?.message).toMatch(/no network access/);
  });

  it("lets listed hosts through the gateway and refuses the rest with a 403 that says why", async () => {
    const code = `const ok = await (await fetch("https://api.example.com/v1")).text();
const blocked = await fetch("https://other.example.net/");
return { ok, status: blocked.status, why: (await blocked.json()).error };`;
    const r = await fetchFrom(code, ["api.example.com"]);
    expect(r.result).toEqual({
      ok: "reached api.example.com",
      status: 403,
      why: 'egress to other.example.net is not allowed for team "egress-team" (allowed: api.example.com)',
    });
  });
});
