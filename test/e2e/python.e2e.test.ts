import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, execute } from "./client";

// `execute` with language "python" over MCP against the real stack (contract "Python"): CPython
// (Pyodide) in the sandbox host's isolates, calling the demo upstream through the same bridge.
let client: Client;
const py = (code: string, timeoutMs?: number) =>
  execute(client, { code, language: "python", ...(timeoutMs ? { timeoutMs } : {}) });

beforeAll(async () => {
  ({ client } = await connect());
  await py("1"); // the host makes its memory snapshot on the first Python execution
}, 120_000);
afterAll(async () => {
  await client?.close();
});

describe("python over MCP", () => {
  it("returns the last expression with prints as logs", async () => {
    const r = await py("import statistics\nprint('rows', 3)\nstatistics.mean([1, 2, 3])");
    expect(r).toMatchObject({ result: 2, logs: ["[log] rows 3"], isError: false });
  });

  it("reports exceptions and syntax errors with lines of the submitted code", async () => {
    const r = await py("a = 1\nraise KeyError('missing')");
    expect(r).toMatchObject({ isError: true, error: { name: "KeyError", line: 2 } });
    const s = await py("def f(:\n    pass");
    expect(s.error).toMatchObject({ name: "SyntaxError", line: 1 });
  });

  it("calls upstream tools with kwargs and a dict; tool errors are exceptions naming the tool", async () => {
    const r = await py(`page = await tools.demo.list_tickets(status="open", limit=2)
stats = await call_tool("demo.ticket_stats", {"groupBy": "status"})
try:
    await tools.demo.list_tickets(status="nope")
except Exception as e:
    err = [type(e).__name__, "demo.list_tickets" in str(e)]
{"n": len(page["tickets"]), "open": page["tickets"][0]["status"], "has_stats": bool(stats), "err": err}`);
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({ n: 2, open: "open", has_stats: true, err: ["ValidationError", true] });
    expect(r.stats.toolCalls).toBe(3);
  });

  it("stops while True: pass and then serves the next request", async () => {
    const r = await py("while True:\n    pass", 1_000);
    expect(r.error).toMatchObject({ name: "TimeoutError", line: 2 });
    expect((await py("2 + 2")).result).toBe(4);
  });

  it("keeps state and files across executions of the session", async () => {
    await py("await state.set('rows', [1, 2, 3])\nawait workspace.write('out/report.txt', 'done ✓')");
    const r = await py(
      "[await state.get('rows'), await workspace.read('out/report.txt'), [f['path'] for f in await workspace.list()]]",
    );
    expect(r.result).toEqual([[1, 2, 3], "done ✓", ["out/report.txt"]]);
  });

  it("has no network", async () => {
    const r = await py(
      "import js\ntry:\n    await js.fetch('https://example.com')\n    out = 'reached'\nexcept Exception as e:\n    out = type(e).__name__\nout",
    );
    expect(r.result).not.toBe("reached");
  });
});
