import { describe, expect, it } from "vitest";
import { executeCode } from "../../workers/sandbox/executor";
import { EchoBridge } from "../helpers/echo-bridge";
import { deps, run } from "../helpers/sandbox";

// Python (Pyodide) in a fresh Worker-Loader isolate per execution. The first run in this file
// makes the memory snapshot (one cold boot); every later one restores it.
const py = (code: string, limits = {}) => run(code, { language: "python" }, limits);
const SLOW = { timeout: 60_000 };

describe("python results and logs", () => {
  it("returns the value of the last expression, with prints as logs", SLOW, async () => {
    const r = await py("import statistics\nprint('hello', 1)\nstatistics.mean([1, 2, 3, 4])");
    expect(r.error).toBeUndefined();
    expect(r.result).toBe(2.5);
    expect(r.logs).toEqual(["[log] hello 1"]);
  });

  it("converts results to JSON-safe values", async () => {
    const r = await py(`import datetime, dataclasses, decimal
@dataclasses.dataclass
class P:
    x: int
    y: str
{"t": (1, 2), "s": sorted({3, 1}), "none": None, "big": 2**64, "nan": float("nan"), "inf": float("-inf"),
 "d": datetime.date(2024, 5, 1), "b": b"hi", "dc": P(1, "a"), "dec": decimal.Decimal("1.10"), 7: True}`);
    expect(r.result).toEqual({
      t: [1, 2],
      s: [1, 3],
      none: null,
      big: "18446744073709551616",
      nan: "NaN",
      inf: "-Infinity",
      d: "2024-05-01",
      b: { type: "bytes", base64: "aGk=" },
      dc: { x: 1, y: "a" },
      dec: "1.10",
      "7": true,
    });
  });

  it("has no result when the last statement is not an expression", async () => {
    const r = await py("x = 1");
    expect(r.result).toBeUndefined();
    expect(r.error).toBeUndefined();
  });

  it("sends logging records with their levels", async () => {
    const r = await py("import logging\nlogging.info('i %d', 1)\nlogging.warning('w')\nlogging.error('e')");
    expect(r.logs).toEqual(["[info] i 1", "[warn] w", "[error] e"]);
  });

  it("truncates large results like TypeScript", async () => {
    const r = await py("'x' * 100_000", { maxOutputChars: 2_000 });
    expect(r.stats.truncated).toBe(true);
    expect(String(r.result).length).toBeLessThan(2_100);
  });

  it("supports top-level await", async () => {
    expect((await py("import asyncio\nawait asyncio.sleep(0)\n41 + 1")).result).toBe(42);
  });

  it("runs the standard library modules agents use", async () => {
    const r = await py(`import json, re, collections, itertools, statistics, datetime, math, csv, io
rows = list(csv.DictReader(io.StringIO("a,b\\n1,2\\n3,4\\n")))
[json.loads('{"k": [1]}')["k"][0], re.sub(r"\\d", "#", "a1b2"), collections.Counter("aab").most_common(1)[0][0],
 list(itertools.islice(itertools.count(5), 2)), statistics.median([3, 1, 2]), datetime.date(2024, 1, 31).isoformat(),
 math.isqrt(17), [r["b"] for r in rows]]`);
    expect(r.result).toEqual([1, "a#b#", "a", [5, 6], 2, "2024-01-31", 4, ["2", "4"]]);
  });
});

describe("python errors", () => {
  it("reports an exception with its type, message and line of the submitted code", async () => {
    const r = await py("x = 1\n\ndef f():\n    raise ValueError('bad value')\n\nf()");
    expect(r.error).toMatchObject({ name: "ValueError", message: "bad value", line: 4 });
    expect(r.error?.stack).toContain('File "<code>", line 4, in f');
    expect(r.error?.stack).not.toContain("_sandbox");
  });

  it("reports a syntax error with line and column", async () => {
    const r = await py("x = 1\ny = (2 +\n");
    expect(r.error).toMatchObject({ name: "SyntaxError", line: 2 });
    expect(r.error?.column).toEqual(expect.any(Number));
  });

  it("ends unbounded recursion as RecursionError", async () => {
    const r = await py("def f(n):\n    return f(n + 1)\nf(0)");
    expect(r.error).toMatchObject({ name: "RecursionError" });
  });
});

describe("python guard", () => {
  for (const [label, code] of [
    ["while True: pass", "while True:\n    pass"],
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
      const r = await py(code, { timeoutMs: 500 });
      expect(r.error?.name).toMatch(/TimeoutError|RecursionError/);
      expect((await py("1 + 1")).result).toBe(2);
    });
  }

  it("stops on the step budget", async () => {
    const r = await py("n = 0\nwhile True:\n    n += 1", { maxSteps: 50_000 });
    expect(r.error).toMatchObject({ name: "TimeoutError", line: 3 });
    expect(r.error?.message).toContain("EXEC_MAX_STEPS");
  });
});

describe("python sandbox", () => {
  it("has no network: js.fetch and pyodide.http fail clearly", async () => {
    const r = await py(`import js, pyodide.http
out = []
for f in (lambda: js.fetch("https://example.com"), lambda: pyodide.http.pyfetch("https://example.com")):
    try:
        await f()
        out.append("reached")
    except Exception as e:
        out.append(type(e).__name__)
out`);
    expect(r.result).toEqual([expect.not.stringMatching(/reached/), expect.not.stringMatching(/reached/)]);
  });

  it("sees no bindings and keeps nothing between executions", async () => {
    const first = await py(
      "import builtins, js\nbuiltins.leak = 1\nglobal_leak = 2\n[k for k in dir(js) if k.isupper()]",
    );
    expect(first.error).toBeUndefined();
    expect(JSON.stringify(first.result)).not.toMatch(/LOADER|SESSIONS|SCHEMA_CACHE|TEAMS|DEMO/);
    const second = await py("import builtins\n[hasattr(builtins, 'leak'), 'global_leak' in globals()]");
    expect(second.result).toEqual([false, false]);
  });
});

describe("python tools", () => {
  it("calls tools with kwargs or a dict, and call_tool and search_tools", async () => {
    const bridge = new EchoBridge();
    const r = await executeCode(deps({}, { bridge }), {
      language: "python",
      code: `a = await tools.gh.create_issue(title="x", n=1)
b = await tools.gh["get-sum"]({"k": [1, 2]})
c = await call_tool("x.y", {"z": True})
d = await search_tools("issues", server="gh", limit=2)
[a, b, c, d]`,
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual([
      { name: "gh.create_issue", args: { title: "x", n: 1 } },
      { name: "gh.get-sum", args: { k: [1, 2] } },
      { name: "x.y", args: { z: true } },
      { input: { query: "issues", server: "gh", limit: 2 } },
    ]);
  });

  it("raises a tool failure as an exception named after the error", async () => {
    const bridge = new EchoBridge();
    const r = await executeCode(deps({}, { bridge }), {
      language: "python",
      code: "try:\n    await get_tool_definition('nope.x')\nexcept Exception as e:\n    r = [type(e).__name__, str(e)]\nr",
    });
    expect(r.result).toEqual(["UnknownToolError", 'Unknown tool "nope.x"']);
  });
});
