import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

// Another Worker of the same account binds the gateway's and the sandbox host's entrypoints with
// props it made up (test/e2e/forger), through the stack's own dev registry. It must get nothing:
// the gateway exports no entrypoint that acts for a team, and the host has no tools to give.
let forger: Awaited<ReturnType<typeof startWranglerDev>>;

beforeAll(async () => {
  forger = await startWranglerDev({
    configs: ["test/e2e/forger/wrangler.toml"],
    env: { WRANGLER_REGISTRY_PATH: inject("registryPath") },
  });
}, 120_000);
afterAll(async () => {
  await forger?.stop();
});

it("a binding with forged props gets no tool call, no config, no egress and no tools", async () => {
  const res = await fetch(forger.url);
  const out = (await res.json()) as Record<string, { ok: boolean; value?: unknown; error?: string }>;
  // The gateway was reached and has nothing by those names (the sandbox's bridge is an RPC argument).
  expect(out.callTool).toEqual({
    ok: false,
    error: 'Worker does not export an entrypoint named "ToolBridge"',
  });
  expect(out.context).toEqual({
    ok: false,
    error: 'Worker does not export an entrypoint named "ToolBridge"',
  });
  expect(out.egress).toEqual({ ok: false, error: 'Worker does not export an entrypoint named "EgressGate"' });
  expect(out.host?.ok).toBe(true);
  expect(out.host?.value).toMatchObject({ result: { call: "No tools are available in this sandbox" } });
  expect(JSON.stringify(out)).not.toMatch(/ticket|closed|resolved|dev_|Bearer/);
});
