import { describe, expect, it } from "vitest";
import { MAX_ERROR_MESSAGE_CHARS } from "../../shared/contract/caps";
import type { CatalogTool } from "../../shared/contract/tools";
import { findTool } from "../../workers/gateway/discovery/find-tool";
import { searchTools } from "../../workers/gateway/discovery/service";
import { ToolCallError } from "../../workers/gateway/discovery/tool-call-error";
import { ExecutionLedger } from "../../workers/gateway/execution/ledger";
import { applyPolicy, policyRefusal } from "../../workers/gateway/teams/policy";
import type { Catalog } from "../../workers/gateway/upstreams";
import { catalogTool } from "../helpers/catalog-tool";
import { bridgeWork, testContext } from "../helpers/context";
import { sandboxOn, TEST_ENGINES } from "../helpers/sandbox";

/** A catalog of `tools` as upstreamsFor builds it: the policy applied, the removed names kept. */
function catalogOf(tools: CatalogTool[], allow?: string[], deny?: string[]): Catalog {
  const { visible, notAllowed } = applyPolicy(tools, policyRefusal(allow, deny));
  const servers = [...new Set(tools.map((t) => t.server))].map((name) => ({
    name,
    state: "ok" as const,
    tools: tools.filter((t) => t.server === name).length,
  }));
  return { tools: visible, servers, ...(notAllowed.length ? { notAllowed } : {}) };
}

/** The error `work` throws (it must throw a ToolCallError). */
function thrown(work: () => unknown): ToolCallError {
  try {
    work();
  } catch (err) {
    if (err instanceof ToolCallError) return err;
    throw err;
  }
  throw new Error("did not throw");
}

const DEMO = ["list_tickets", "get_ticket", "update_ticket", "update-customer", "create_ticket"].map((n) =>
  catalogTool("demo", n, `The ${n} tool.`),
);

describe("policyRefusal", () => {
  it("names the first deny glob that matches, else the allow list a name is not in, else nothing", () => {
    const refusal = policyRefusal(
      ["demo.list_*", "demo.get_*", "demo.update_*", "demo.x", "demo.y"],
      ["demo.update_*"],
    );
    expect(refusal("demo.update_ticket")).toBe('deny "demo.update_*"');
    expect(refusal("demo.create_ticket")).toBe(
      'not in allow "demo.list_*", "demo.get_*", "demo.update_*" (+2 more)',
    );
    expect(refusal("demo.list_tickets")).toBeUndefined();
    expect(policyRefusal(undefined, undefined)("anything.at_all")).toBeUndefined();
  });

  it("quotes long globs cut, so the rule stays short", () => {
    const long = `demo.${"x".repeat(190)}*`;
    const rule = policyRefusal([long, long, long, long], [])("demo.other");
    expect(rule).toMatch(/^not in allow "demo\.x+…", "demo\.x+…", "demo\.x+…" \(\+1 more\)$/);
    expect(rule!.length).toBeLessThanOrEqual(160);
  });
});

describe("a tool the team's policy removes", () => {
  const catalog = catalogOf(DEMO, undefined, ["demo.update_*"]);

  it("is a ToolNotAllowedError naming the rule, by its qualified or identifier name", () => {
    const byName = thrown(() => findTool(catalog, "demo.update_ticket"));
    expect(byName.name).toBe("ToolNotAllowedError");
    expect(byName.message).toBe(
      `demo.update_ticket is not allowed for this team (deny "demo.update_*"); ask the team's admin, or use another tool`,
    );
    // tools.demo.update_customer(...) reaches `update-customer` by its identifier form.
    const hyphenDenied = catalogOf(DEMO, undefined, ["demo.update-*"]);
    const mapped = thrown(() => findTool(hyphenDenied, "demo.update_customer"));
    expect(mapped.name).toBe("ToolNotAllowedError");
    expect(mapped.message).toMatch(
      /^demo\.update-customer is not allowed for this team \(deny "demo\.update-\*"\)/,
    );
  });

  it("says nothing of names no server lists, even when a glob matches them", () => {
    const unknown = thrown(() => findTool(catalog, "demo.update_agent"));
    expect(unknown.name).toBe("UnknownToolError");
    expect(unknown.message).not.toContain("update_ticket");
    expect(unknown.message).not.toContain("update-customer");
  });

  it("is neither searched nor offered as a close match", () => {
    const found = searchTools(catalog, { query: "update", detail: "name", limit: 100 });
    expect(found.tools.map((t) => t.name)).not.toContain("demo.update_ticket");
    const typo = thrown(() => findTool(catalog, "demo.updte_ticket"));
    expect(typo.name).toBe("UnknownToolError");
    expect(typo.message).not.toContain("demo.update_ticket");
    expect(findTool(catalog, "demo.get_ticket").qualifiedName).toBe("demo.get_ticket");
  });

  it("keeps the message within the cap, whatever the names and globs", () => {
    const longName = `update_${"y".repeat(250)}`;
    const tools = [catalogTool(`s${"e".repeat(31)}`, longName, "Long.")];
    const globs = Array.from({ length: 10 }, (_, i) => `${"*".repeat(1)}${"z".repeat(180)}${i}`);
    const lists: Array<[string[] | undefined, string[] | undefined]> = [
      [globs, undefined],
      [undefined, [`s*${"y".repeat(190)}`]],
    ];
    for (const [allow, deny] of lists) {
      const err = thrown(() => findTool(catalogOf(tools, allow, deny), tools[0]!.qualifiedName));
      expect(err.name).toBe("ToolNotAllowedError");
      expect(err.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
      expect(err.message).toMatch(/; ask the team's admin, or use another tool$/);
    }
  });
});

describe("error messages an agent reads stay within MAX_ERROR_MESSAGE_CHARS", () => {
  it("UnknownToolError with many long close matches and many servers", () => {
    const servers = Array.from({ length: 40 }, (_, i) => `server-${i}-${"q".repeat(20)}`);
    const tools = servers.flatMap((server) =>
      Array.from({ length: 5 }, (_, i) => catalogTool(server, `fetch_${"r".repeat(70)}_${i}`, "Fetch.")),
    );
    const catalog = catalogOf(tools);
    for (const name of [
      `${servers[0]}.fetch_${"r".repeat(70)}_`,
      `nope.fetch_${"r".repeat(70)}`,
      `${"w".repeat(150)}.${"v".repeat(149)}`,
    ]) {
      const err = thrown(() => findTool(catalog, name));
      expect(err.name).toBe("UnknownToolError");
      expect(err.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
    }
    // A close match that fits is still offered.
    expect(thrown(() => findTool(catalog, `${servers[0]}.fetch_${"r".repeat(70)}_`)).message).toContain(
      "Did you mean: ",
    );
  });

  it("ConfigError and UpstreamError name the server and what to do", () => {
    const misconfigured = thrown(() =>
      findTool(
        { tools: [], servers: [], problems: [`MCP_SERVERS.gh.headers.Authorization: ${"p".repeat(400)}`] },
        `gh.${"x".repeat(290)}`,
      ),
    );
    expect(misconfigured.name).toBe("ConfigError");
    expect(misconfigured.message).toMatch(/an operator must fix it$/);
    expect(misconfigured.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
    const failing = thrown(() =>
      findTool(
        { tools: [], servers: [{ name: "gh", state: "failing", tools: 0, error: "e".repeat(500) }] },
        "gh.list",
      ),
    );
    expect(failing.name).toBe("UpstreamError");
    expect(failing.message).toMatch(/retry later, or use another server's tools$/);
    expect(failing.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
  });

  it("LimitError for each budget says what to do instead and names the variable last", () => {
    const budgets = [
      ["toolCalls", "EXEC_MAX_TOOL_CALLS", /combine them/],
      ["discoveryCalls", "EXEC_MAX_DISCOVERY_CALLS", /broader query/],
      ["fetches", "EXEC_MAX_TOOL_CALLS", /fewer requests/],
      ["sessionCalls", "EXEC_MAX_SESSION_CALLS", /write them once/],
    ] as const;
    for (const [budget, variable, advice] of budgets) {
      const ledger = new ExecutionLedger({ maxToolCalls: 0, maxDiscoveryCalls: 0, maxSessionCalls: 0 });
      const err = thrown(() => ledger.take(budget, `fetch(https://${"h".repeat(200)}.example/)`));
      expect(err.name).toBe("LimitError");
      expect(err.message).toMatch(advice);
      expect(err.message.endsWith(`(operator setting: ${variable})`)).toBe(true);
      expect(err.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
    }
    const ended = new ExecutionLedger({ maxToolCalls: 1, maxDiscoveryCalls: 1, maxSessionCalls: 1 });
    ended.close();
    const late = thrown(() => ended.take("toolCalls", "x".repeat(300)));
    expect(late.name).toBe("ExecutionEndedError");
    expect(late.message).toMatch(/await every call before the code returns$/);
    expect(late.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
  });

  it.each(TEST_ENGINES)("LimitError for arguments, code and timeout (%s)", async (engine) => {
    const { run } = sandboxOn(engine);
    const ctx = testContext({ maxArgChars: 10 });
    const work = await bridgeWork(ctx, new ExecutionLedger(ctx.config.limits));
    const args = await work.callTool(`demo.${"n".repeat(290)}`, JSON.stringify({ text: "x".repeat(50) }));
    expect(args).toMatchObject({ ok: false, error: { name: "LimitError" } });
    const argsMessage = args.ok ? "" : args.error.message;
    expect(argsMessage).toMatch(/Pass less per call.*EXEC_MAX_ARG_CHARS\)$/);
    expect(argsMessage.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);

    const code = await run("return 1".repeat(2_000), {}, { maxCodeChars: 100 });
    expect(code.error?.name).toBe("LimitError");
    expect(code.error?.message).toMatch(/^code is 16000 characters; the limit is 100\. Shorten it/);
    const timeout = await run("return 1", { timeoutMs: 600_000 });
    expect(timeout.error?.name).toBe("LimitError");
    expect(timeout.error?.message).toMatch(/Ask for at most 60000/);
    for (const message of [code.error?.message ?? "", timeout.error?.message ?? ""])
      expect(message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
  });

  it("ToolCallError cuts a longer message, except a ValidationError's list and an upstream's own text", () => {
    expect(new ToolCallError("TypeError", "m".repeat(1_000)).message).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
    expect(new ToolCallError("ValidationError", "v".repeat(1_000)).message).toHaveLength(1_000);
    expect(new ToolCallError("ToolError", "t".repeat(1_000)).message).toHaveLength(1_000);
  });
});
