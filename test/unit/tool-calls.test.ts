import { describe, expect, it } from "vitest";
import { SandboxBridge } from "../../workers/gateway/bridge/sandbox-bridge";
import { findTool } from "../../workers/gateway/discovery/find-tool";
import { ExecutionLedger } from "../../workers/gateway/execution/ledger";
import { bridgeWork, testContext } from "../helpers/context";
import { EchoBridge } from "../helpers/echo-bridge";
import { execute } from "../helpers/execute";
import { countingLoader, sandboxOn, sendToSandbox, TEST_ENGINES } from "../helpers/sandbox";

describe.each(TEST_ENGINES)("on %s", (engine) => {
  const { deps } = sandboxOn(engine);
  const withEcho = async (code: string) => {
    const bridge = new EchoBridge();
    return { bridge, r: await sendToSandbox(deps({}, { bridge }), { code }) };
  };

  describe("in-code tool globals", () => {
    it("map tools.<server>.<name>, bracket access and callTool to qualified names", async () => {
      const { r } = await withEcho(
        "return [await tools.gh.create_issue({ t: 1 }), await tools.gh['get-sum']({}), await callTool('x.y', { z: [1] })];",
      );
      expect(r.result).toEqual([
        { name: "gh.create_issue", args: { t: 1 } },
        { name: "gh.get-sum", args: {} },
        { name: "x.y", args: { z: [1] } },
      ]);
    });

    it("throw bridge failures as errors with their name, and pass searchTools options", async () => {
      const failed = await withEcho("await getToolDefinition('nope.x')");
      expect(failed.r.error).toMatchObject({ name: "UnknownToolError", message: 'Unknown tool "nope.x"' });
      const searched = await withEcho("return await searchTools('issues', { server: 'gh', limit: 2 })");
      expect(searched.r.result).toEqual({ input: { server: "gh", limit: 2, query: "issues" } });
    });

    it("give a failed call's error the line of the code that made it", async () => {
      const { r } = await withEcho("const a = 1;\n\nconst d = await getToolDefinition('nope.x');");
      expect(r.error).toMatchObject({ name: "UnknownToolError", line: 3 });
      expect(r.error?.stack).toContain("code:3");
    });

    it("cut oversized arguments inside the isolate, before they cross", async () => {
      const { r, bridge } = await withEcho("await tools.a.b({ big: 'x'.repeat(3_000_000) })");
      expect(r.error).toMatchObject({ name: "LimitError" });
      expect(r.error?.message).toMatch(
        /a\.b: arguments are 30000\d\d characters of JSON; the limit is 2000000/,
      );
      expect(bridge.names).toEqual([]);
    });
  });

  describe("the gateway's execute", () => {
    it("hands the isolate no env at all: its one capability is the bridge argument", async () => {
      const { loader, loads } = countingLoader();
      const r = await execute(testContext({}, { LOADER: loader }, engine), {
        code: "return [typeof tools.demo.list_tickets, (await tools.demo.ticket_stats({ groupBy: 'status' })) !== null]",
      });
      expect(r.error).toBeUndefined();
      expect(r.result).toEqual(["function", true]);
      expect(loads[0]!.env).toEqual({});
      expect(loads[0]!.globalOutbound).toBeNull();
    });

    const LIMIT_REACHED =
      /^LimitError: demo\.ticket_stats: limit of 3 tool calls per execution reached; do fewer calls per execution: combine them .*, or split the work across executions \(operator setting: EXEC_MAX_TOOL_CALLS\)$/;

    it("counts tool calls itself and stops at the cap, whatever the code does to built-ins", async () => {
      const code = `Array.prototype.push = function () { return 0; };
  Map.prototype.set = function () { return this; };
  const results = [];
  for (let i = 0; i < 5; i++) {
    try { await tools.demo.ticket_stats({ groupBy: "status" }); results[i] = "ok"; } catch (e) { results[i] = e.name + ": " + e.message; }
  }
  return results;`;
      const r = await execute(testContext({ maxToolCalls: 3 }, {}, engine), { code });
      expect(r.result).toEqual([
        "ok",
        "ok",
        "ok",
        expect.stringMatching(LIMIT_REACHED),
        expect.stringMatching(LIMIT_REACHED),
      ]);
      expect(r.stats.toolCalls).toBe(3);
      expect(r.stats.calls).toEqual([
        { name: "demo.ticket_stats", count: 3, errors: 0, ms: expect.any(Number) },
      ]);
    });

    it("counts discovery calls from code against their own budget", async () => {
      const code = `const out = [];
  for (let i = 0; i < 4; i++) {
    try { await searchTools("tickets", { limit: 1 }); out.push("ok"); } catch (e) { out.push(e.name); }
  }
  try { await getToolDefinition("demo.list_tickets"); out.push("ok"); } catch (e) { out.push(e.name); }
  return out;`;
      const r = await execute(testContext({ maxDiscoveryCalls: 2 }, {}, engine), { code });
      expect(r.result).toEqual(["ok", "ok", "LimitError", "LimitError", "LimitError"]);
    });

    it("answers getToolDefinition from code as get_tool_definition does, the JSON Schema on request", async () => {
      const code = `const plain = await getToolDefinition("demo.get_ticket");
  const full = await getToolDefinition("demo.get_ticket", { schema: true });
  return [Object.keys(plain), full.inputSchema.required, full.typescript === plain.typescript];`;
      const r = await execute(testContext({}, {}, engine), { code });
      expect(r.result).toEqual([["name", "server", "typescript"], ["id"], true]);
    });

    it("refuses calls made after the execution has ended", async () => {
      const ctx = testContext();
      const ledger = new ExecutionLedger(ctx.config.limits);
      const bridge = new SandboxBridge(await bridgeWork(ctx, ledger));
      const r = await sendToSandbox(deps({}, { bridge, ledger }), {
        code: "return await callTool('demo.ticket_stats', { groupBy: 'status' }) !== null",
      });
      expect(r.result).toBe(true);
      expect(await bridge.callTool("demo.ticket_stats", '{"groupBy":"status"}')).toEqual({
        ok: false,
        error: {
          name: "ExecutionEndedError",
          message:
            "demo.ticket_stats: the execution has already ended; await every call before the code returns",
        },
      });
      expect(ledger.toolCalls).toBe(1);
      expect(r.stats.toolCalls).toBe(1);
    });
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
