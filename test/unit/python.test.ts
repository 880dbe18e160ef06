import { describe, expect, it } from "vitest";
import { executeCode } from "../../workers/sandbox/executor";
import { EchoBridge } from "../helpers/echo-bridge";
import { deps, run } from "../helpers/sandbox";

// Python (Pyodide) in workerd, kept to a few executions: vitest's workerd keeps every loaded
// isolate alive (~100 MB each for Python) until the run ends, where wrangler dev frees them. The
// rest of Python's behaviour is tested end to end (test/e2e/python.e2e.test.ts) and benchmarked.
const SLOW = { timeout: 60_000 };

describe("python in a Worker-Loader isolate", () => {
  it("returns the last expression JSON-safe, with prints and logging as logs", SLOW, async () => {
    const r = await run(
      `import statistics, logging, datetime
print('hello', 1)
logging.warning('careful')
{"mean": statistics.mean([1, 2, 3, 4]), "t": (1, 2), "big": 2**64, "nan": float("nan"), "d": datetime.date(2024, 5, 1), "b": b"hi"}`,
      { language: "python" },
    );
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({
      mean: 2.5,
      t: [1, 2],
      big: "18446744073709551616",
      nan: "NaN",
      d: "2024-05-01",
      b: { type: "bytes", base64: "aGk=" },
    });
    expect(r.logs).toEqual(["[log] hello 1", "[warn] careful"]);
  });

  it(
    "reports an exception with its type, message and line, and the submitted code's frames only",
    SLOW,
    async () => {
      const r = await run("x = 1\n\ndef f():\n    raise ValueError('bad value')\n\nf()", {
        language: "python",
      });
      expect(r.error).toMatchObject({ name: "ValueError", message: "bad value", line: 4 });
      expect(r.error?.stack).toContain('File "<code>", line 4, in f');
      expect(r.error?.stack).not.toContain("_sandbox");
    },
  );

  it(
    "calls tools through the bridge with kwargs or a dict; failures raise exceptions named after the error",
    SLOW,
    async () => {
      const bridge = new EchoBridge();
      const r = await executeCode(deps({}, { bridge }), {
        language: "python",
        code: `a = await tools.gh.create_issue(title="x", n=1)
b = await tools.gh["get-sum"]({"k": [1, 2]})
c = await call_tool("x.y", {"z": True})
d = await search_tools("issues", server="gh", limit=2)
try:
    await get_tool_definition("nope.x")
except Exception as e:
    err = [type(e).__name__, str(e)]
[a, b, c, d, err]`,
      });
      expect(r.error).toBeUndefined();
      expect(r.result).toEqual([
        { name: "gh.create_issue", args: { title: "x", n: 1 } },
        { name: "gh.get-sum", args: { k: [1, 2] } },
        { name: "x.y", args: { z: true } },
        { input: { query: "issues", server: "gh", limit: 2 } },
        ["UnknownToolError", 'Unknown tool "nope.x"'],
      ]);
    },
  );

  it("stops a loop on the step budget (EXEC_MAX_STEPS), naming the line", SLOW, async () => {
    const r = await run("n = 0\nwhile True:\n    n += 1", { language: "python" }, { maxSteps: 50_000 });
    expect(r.error).toMatchObject({ name: "TimeoutError", line: 3 });
    expect(r.error?.message).toContain("EXEC_MAX_STEPS");
  });
});
