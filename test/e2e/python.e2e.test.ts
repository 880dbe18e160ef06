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
    const deep = await py("x = 1\n\ndef f():\n    raise ValueError('bad value')\n\nf()");
    expect(deep.error).toMatchObject({ name: "ValueError", message: "bad value", line: 4 });
    expect(deep.error?.stack).toContain('File "<code>", line 4, in f');
    expect(deep.error?.stack).not.toContain("_sandbox");
    const s = await py("def f(:\n    pass");
    expect(s.error).toMatchObject({ name: "SyntaxError", line: 1 });
  });

  it("puts an exception's own attributes in error.data: JSON-safe, bounded, by the runtime's own encoder", async () => {
    const r = await py(
      'import json\njson.dumps = lambda *a, **k: "broken"\n\nclass ApiError(Exception):\n    pass\n\ne = ApiError("not found")\ne.code = 404\ne.status = "missing"\ne.kind = object\ne.blob = "x" * 5000\nraise e',
    );
    expect(r.error).toMatchObject({
      name: "ApiError",
      message: "not found",
      line: 12,
      data: { code: 404, status: "missing", kind: "<class 'object'>" },
    });
    expect(JSON.stringify(r.error?.data).length).toBeLessThanOrEqual(500);
    expect((r.error?.data as { blob?: string } | undefined)?.blob).toMatch(/^x+$/);
    const args = await py("raise ValueError('bad row', 7, {'id': 3})");
    expect(args.error?.data).toEqual({ args: ["bad row", 7, { id: 3 }] });
    const plain = await py("raise ValueError('bad value')");
    expect(plain.error).not.toHaveProperty("data");
  });

  it("keeps only the submitted code's frames in a stack, through tool errors, the stdlib and chained exceptions", async () => {
    const tool = await py('x = 1\nawait tools.demo.list_tickets(status="nope")');
    expect(tool.error).toMatchObject({ name: "ValidationError", line: 2 });
    const chained = await py(
      "import json\n\ndef parse(text):\n    try:\n        return json.loads(text)\n    except ValueError as e:\n        raise KeyError('bad row') from e\n\nparse('nope')",
    );
    expect(chained.error).toMatchObject({ name: "KeyError", line: 7 });
    for (const { error } of [tool, chained]) {
      const files = [...(error?.stack ?? "").matchAll(/File "([^"]*)"/g)].map((m) => m[1]);
      expect(files.length).toBeGreaterThan(0);
      expect(new Set(files)).toEqual(new Set(["<code>"]));
      expect(error?.stack).not.toMatch(/_sandbox|\/lib\/python|pyodide/);
    }
    expect(chained.error?.stack).toContain('File "<code>", line 5, in parse');
    expect(chained.error?.stack).toContain('File "<code>", line 9, in <module>');
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
    const keys = await py(
      "[sorted((await workspace.list())[0].keys()), sorted((await session.info()).keys()), sorted((await session.history())[0].keys())]",
    );
    expect(keys.result).toEqual([
      ["modified_at", "path", "size"],
      ["bytes_used", "created_at", "files", "id", "last_seen_at", "quota_bytes"],
      ["at", "duration_ms", "result_bytes", "tool_calls"],
    ]);
  });

  it("converts results to JSON-safe values and truncates large ones", async () => {
    const r = await py(`import dataclasses, decimal
@dataclasses.dataclass
class P:
    x: int
{"s": sorted({3, 1}), "none": None, "inf": float("-inf"), "dc": P(1), "dec": decimal.Decimal("1.10"), 7: True}`);
    expect(r.result).toEqual({
      s: [1, 3],
      none: null,
      inf: "-Infinity",
      dc: { x: 1 },
      dec: "1.10",
      "7": true,
    });
    const big = await py("'x' * 100_000");
    expect(big.stats.truncated).toBe(true);
    expect(String(big.result).length).toBeLessThan(30_000);
  });

  it("runs the standard library modules agents use, and top-level await", async () => {
    const r = await py(`import json, re, collections, itertools, statistics, datetime, math, csv, io, asyncio
await asyncio.sleep(0)
rows = list(csv.DictReader(io.StringIO("a,b\\n1,2\\n3,4\\n")))
[json.loads('{"k": [1]}')["k"][0], re.sub(r"[0-9]", "#", "a1b2"), collections.Counter("aab").most_common(1)[0][0],
 list(itertools.islice(itertools.count(5), 2)), statistics.median([3, 1, 2]), datetime.date(2024, 1, 31).isoformat(),
 math.isqrt(17), [r["b"] for r in rows]]`);
    expect(r.result).toEqual([1, "a#b#", "a", [5, 6], 2, "2024-01-31", 4, ["2", "4"]]);
  });

  for (const [label, code] of [
    ["for over an endless iterator", "import itertools\nfor _ in itertools.count():\n    pass"],
    ["a comprehension", "import itertools\n[x for x in itertools.count()]"],
    [
      "except BaseException swallowing the stop",
      "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
    ],
    [
      "recursion that catches everything",
      "def f():\n    try:\n        f()\n    except BaseException:\n        f()\nf()",
    ],
  ] as const) {
    it(`stops ${label}, and the next execution runs normally`, async () => {
      const r = await py(code, 1_000);
      // On the quickjs engine an execution's memory is bounded: the comprehension may hit it first.
      expect(r.error?.name).toMatch(/TimeoutError|RecursionError|MemoryError/);
      expect((await py("1 + 1")).result).toBe(2);
    });
  }

  it("ends unbounded recursion as RecursionError", async () => {
    expect((await py("def f(n):\n    return f(n + 1)\nf(0)")).error).toMatchObject({
      name: "RecursionError",
    });
  });

  it("sees no bindings and keeps nothing between executions", async () => {
    const first = await py(
      "import builtins, js\nbuiltins.leak = 1\nglobal_leak = 2\n[k for k in dir(js) if k.isupper()]",
    );
    expect(first.error).toBeUndefined();
    expect(JSON.stringify(first.result)).not.toMatch(/LOADER|SESSIONS|SCHEMA_CACHE|TEAMS|DEMO|SKILLS/);
    const second = await py("import builtins\n[hasattr(builtins, 'leak'), 'global_leak' in globals()]");
    expect(second.result).toEqual([false, false]);
  });

  it("has no network", async () => {
    const r = await py(
      "import js\ntry:\n    await js.fetch('https://example.com')\n    out = 'reached'\nexcept Exception as e:\n    out = type(e).__name__\nout",
    );
    expect(r.result).not.toBe("reached");
  });

  it("calls skills with kwargs or a dict, and spells skill records snake_case", async () => {
    const mul = `py_mul_${Date.now().toString(36)}`;
    const made = `py_made_${Date.now().toString(36)}`;
    // TypeScript skills, saved from Python (which saves Python unless language says otherwise)
    const saved = await py(
      `await skills.save("${mul}", "a times b", "return args.a * args.b;", language="typescript")`,
    );
    expect(saved.error).toBeUndefined();
    const r =
      await py(`schema = {"type": "object", "properties": {"n": {"type": "number"}}, "additionalProperties": False}
await skills.save("${made}", "from python", "return args.n;", input_schema=schema, output_schema={"type": "number"}, language="typescript")
got = await skills.get("${made}")
try:
    await skills.save("${made}_x", "d", "return 1;", inputSchema=schema)
    err = None
except TypeError as e:
    err = str(e)
listed = [s for s in await skills.list() if s["name"] == "${made}"][0]
try:
    await skills.${made}(n=4)
    early = None
except Exception as e:
    early = type(e).__name__
[await skills.${mul}(a=6, b=7), await skills.${mul}({"a": 2, "b": 3}), sorted(got.keys()), got["input_schema"],
 got["output_schema"], sorted(listed.keys()), err, early]`);
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual([
      42,
      6,
      ["code", "description", "input_schema", "language", "name", "output_schema", "updated_at", "version"],
      { type: "object", properties: { n: { type: "number" } }, additionalProperties: false },
      { type: "number" },
      ["description", "language", "name", "updated_at", "version"],
      expect.stringContaining("Python spells it input_schema"),
      // saved by this execution: callable from the next one
      "SkillNotLoadedError",
    ]);
    expect((await py(`await skills.${made}(n=4)`)).result).toBe(4);
  });
});
