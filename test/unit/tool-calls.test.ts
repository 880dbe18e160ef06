import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { findTool } from "../../workers/gateway/bridge/call-tool";
import { loadConfig } from "../../workers/gateway/config";
import type { GatewayEnv } from "../../workers/gateway/env";
import { execute } from "../../workers/gateway/operations";
import { executeCode } from "../../workers/sandbox/executor";
import { countingLoader, LIMITS } from "../helpers/sandbox";
import { echoBridgeCalls } from "../helpers/test-main";

function echoBridge(): unknown {
  return (exports as unknown as { EchoBridge: (o: { props: object }) => unknown }).EchoBridge({ props: {} });
}

const withBridge = (code: string, maxToolCalls = 200) =>
  executeCode(
    { loader: env.LOADER, limits: { ...LIMITS, maxToolCalls }, sandboxEnv: { TOOLS: echoBridge() } },
    { code },
  );

describe("in-code tool globals", () => {
  it("map tools.<server>.<name>, bracket access and callTool to qualified names", async () => {
    const r = await withBridge(
      "return [await tools.gh.create_issue({ t: 1 }), await tools.gh['get-sum']({}), await callTool('x.y', { z: [1] })];",
    );
    expect(r.result).toEqual([
      { name: "gh.create_issue", args: { t: 1 } },
      { name: "gh.get-sum", args: {} },
      { name: "x.y", args: { z: [1] } },
    ]);
    expect(r.stats.toolCalls).toBe(3);
  });

  it("stop at the per-execution cap with an error naming it", async () => {
    echoBridgeCalls.length = 0;
    const r = await withBridge("for (let i = 0; i < 5; i++) await tools.a.b({ i });", 3);
    expect(r.error).toMatchObject({
      name: "Error",
      message: "a.b: tool call limit reached (3 calls per execution)",
      line: 1,
    });
    expect(echoBridgeCalls).toEqual(["a.b", "a.b", "a.b"]);
    expect(r.stats.toolCalls).toBe(3);
  });

  it("throw bridge failures as errors with their name, and pass searchTools options", async () => {
    const failed = await withBridge("await getToolDefinition('nope.x')");
    expect(failed.error).toMatchObject({ name: "UnknownToolError", message: 'Unknown tool "nope.x"' });
    const searched = await withBridge("return await searchTools('issues', { server: 'gh', limit: 2 })");
    expect(searched.result).toEqual({ input: { server: "gh", limit: 2, query: "issues" } });
  });
});

describe("the gateway's execute", () => {
  it("hands the isolate one capability, the tool bridge, and nothing else", async () => {
    const { loader, loads } = countingLoader();
    const loaded = loadConfig(env as unknown as GatewayEnv);
    if (!loaded.ok) throw new Error(loaded.problems.join("; "));
    const scope = {
      env: { ...(env as unknown as GatewayEnv), LOADER: loader },
      config: loaded.config,
      requestId: "req-1",
      team: "default",
      keyId: "dev",
      waitUntil: () => {},
    };
    const r = await execute(scope, { code: "return typeof tools.demo.list_tickets" });
    expect(r.result).toBe("function");
    expect(Object.keys(loads[0]!.env as object)).toEqual(["TOOLS"]);
    expect(loads[0]!.globalOutbound).toBeNull();
    expect(JSON.stringify(loads[0]!.env)).not.toMatch(/https?:|Bearer|test-key/);
  });
});

describe("misconfigured upstreams", () => {
  it("say so in the failing call", () => {
    const catalog = {
      tools: [],
      servers: [],
      problems: ["MCP_SERVERS.github.headers.Authorization: references ${GH}, which is not set"],
    };
    expect(() => findTool(catalog, "github.create_issue")).toThrow(
      'github.create_issue: server "github" is misconfigured (MCP_SERVERS.github.headers.Authorization: references ${GH}, which is not set)',
    );
  });
});
