import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { healthMs, PROMPT_MS, restExecute, teamWithKey } from "./client";

// What separates executions (each a fresh interpreter or isolate) and teams (distinct Dynamic
// Workers), on the engine this stack runs (E2E_ENGINE); and on quickjs, the red team's attacks that
// stalled or killed the sandbox host before: each ends with TimeoutError or ResourceLimitError within
// its timeoutMs + 1 s while an execution beside it finishes normally.
const engine = inject("engine");

const TAMPER = `Object.prototype.polluted = 1;
Array.prototype.map = function () { return "patched"; };
JSON.parse = () => "patched";
globalThis.leaked = 1;
Math.random = () => 4;
return "tampered";`;
const PROBE = `return [({}).polluted, [1].map((x) => x + 1), JSON.parse("[2]"), typeof leaked, Math.random() < 1];`;
const CLEAN = [undefined, [2], [2], "undefined", true];

describe(`one execution's changes never reach the next (${engine} engine)`, () => {
  it("same team: globals, prototypes and built-ins are fresh each time", async () => {
    const auth = await teamWithKey(`e2e-iso-a-${engine}`, { engine });
    expect((await restExecute({ code: TAMPER }, auth)).body.result).toBe("tampered");
    for (let i = 0; i < 3; i++) {
      const r = await restExecute({ code: PROBE }, auth);
      expect(r.body.result).toEqual(CLEAN.map((v) => (v === undefined ? null : v)));
    }
  });

  it("another team: the same", async () => {
    const a = await teamWithKey(`e2e-iso-b-${engine}`, { engine });
    const b = await teamWithKey(`e2e-iso-c-${engine}`, { engine });
    expect((await restExecute({ code: TAMPER }, a)).body.result).toBe("tampered");
    expect((await restExecute({ code: PROBE }, b)).body.result).toEqual(
      CLEAN.map((v) => (v === undefined ? null : v)),
    );
  });
});

// Python: CPython's builtins and modules, and the JS realm Python reaches through `js` and
// `pyodide_js` (on quickjs the warm worker's realm is frozen, nothing is written, and `pyodide_js` is
// a Python stub without `runtimeEnv`).
const PY_TAMPER = `import builtins, js, pyodide_js, json
builtins.leaked = 1
json.loads = lambda s: "patched"
js.leaked = 1
written = []
for label, write in [
    ("Object.prototype", lambda: setattr(js.Object.prototype, "polluted", 1)),
    ("Array.prototype.map", lambda: setattr(js.Array.prototype, "map", None)),
    ("Math", lambda: setattr(js.Math, "leaked", 1)),
    ("pyodide runtimeEnv", lambda: setattr(pyodide_js._api.runtimeEnv, "leaked", 1)),
    ("Function", lambda: setattr(js.setTimeout.constructor, "leaked", 1)),
]:
    try:
        write()
        written.append(label)
    except Exception:
        pass
written`;
const PY_WRITES = ["Object.prototype", "Array.prototype.map", "Math", "pyodide runtimeEnv", "Function"];
const PY_PROBE = `import builtins, js, json, pyodide_js
[hasattr(builtins, "leaked"), json.loads("[2]"), getattr(js, "leaked", None),
 getattr(js.Object.prototype, "polluted", None), getattr(js.Math, "leaked", None),
 getattr(getattr(pyodide_js._api, "runtimeEnv", None), "leaked", None),
 getattr(js.setTimeout.constructor, "leaked", None),
 js.JSON.parse("[3]")[0]]`;
const PY_CLEAN = [false, [2], null, null, null, null, null, 3];

describe(`one Python execution's changes never reach the next (${engine} engine)`, () => {
  it("same team and another team: builtins, modules and the JS realm are fresh or untouched", async () => {
    const a = await teamWithKey(`e2e-pyiso-a-${engine}`, { engine });
    const b = await teamWithKey(`e2e-pyiso-b-${engine}`, { engine });
    const tamper = await restExecute({ code: PY_TAMPER, language: "python" }, a);
    // isolate: the realm is the execution's own, so every write lands (and dies with it); quickjs:
    // the warm worker's realm is frozen, so none does.
    expect(tamper.body.result).toEqual(engine === "quickjs" ? [] : PY_WRITES);
    for (const auth of [a, a, b]) {
      const r = await restExecute({ code: PY_PROBE, language: "python" }, auth);
      expect(r.body.result).toEqual(PY_CLEAN);
    }
  }, 60_000);
});

// What a Python execution does to its own interpreter (the modules and builtins the runtime also
// uses) reaches neither the runtime's work for it nor the team's next execution, and no way it fails
// leaves the team's Python unusable (on quickjs: the warm worker). Each case has a team of its own.
type RestAnswer = Awaited<ReturnType<typeof restExecute>>["body"];
const PY_BREAKS: [string, string, (answer: RestAnswer) => void][] = [
  [
    "replaces json's members, print and sys.stdout: its tool call, result and logs go through as usual",
    `import builtins, io, json, logging, sys
json.dumps = lambda *a, **k: "hijacked"
json.loads = None
json.JSONEncoder = None
builtins.print = None
sys.stdout = io.StringIO()
logging.warning("still logged")
page = await tools.demo.list_tickets(limit=1)
{"n": len(page["tickets"]), "mine": json.dumps([1])}`,
    (a) => expect(a).toMatchObject({ result: { n: 1, mine: "hijacked" }, logs: ["[warn] still logged"] }),
  ],
  [
    "replaces asyncio's functions: a call it left unawaited still runs and is reported",
    `import asyncio
asyncio.wait_for = None
asyncio.sleep = None
asyncio.ensure_future = None
tools.demo.list_tickets(limit=1)
"left"`,
    (a) => {
      expect(a.result).toBe("left");
      expect(a.warnings).toEqual([
        "tools.demo.list_tickets() was not awaited; it ran after the code returned and completed",
      ]);
    },
  ],
  [
    "replaces builtins: its result is still converted, and a later error is still its own",
    `import builtins
builtins.isinstance = lambda *a: False
builtins.len = lambda *a: 0
builtins.BaseException = None
builtins.Exception = None
{"a": [1, 2]}`,
    (a) => expect(a.result).toEqual({ a: [1, 2] }),
  ],
  [
    "replaces builtins, then raises: the error is its own, with its line",
    "import builtins\nbuiltins.BaseException = None\nbuiltins.Exception = None\n1 / 0",
    (a) => expect(a.error).toMatchObject({ name: "ZeroDivisionError", line: 4 }),
  ],
  [
    "breaks the runtime's own module: a clear SandboxError",
    "import _sandbox\n_sandbox._dumps = None\n_sandbox.json = None\n1",
    (a) =>
      expect(a.error).toMatchObject({
        name: "SandboxError",
        message: expect.stringContaining("did the code replace something the runtime uses?"),
      }),
  ],
  [
    "awaits a future nobody resolves: TimeoutError at its timeout",
    "import asyncio\nawait asyncio.Future()",
    (a) => expect(a.error?.name).toBe("TimeoutError"),
  ],
];

describe(`a Python execution that breaks its interpreter (${engine} engine)`, () => {
  PY_BREAKS.forEach(([label, code, check], i) => {
    it(`${label}; the team's next execution works`, async () => {
      const auth = await teamWithKey(`e2e-pybreak-${i}-${engine}`, {
        engine,
        servers: { demo: { service: "DEMO" } },
      });
      await restExecute({ code: "1", language: "python" }, auth); // on quickjs: boots the team's CPython
      check((await restExecute({ code, language: "python", timeoutMs: 3_000 }, auth)).body);
      const next = await restExecute({ code: "sum(range(10))", language: "python" }, auth);
      expect(next.body).toMatchObject({ result: 45 });
      expect(next.body.error).toBeUndefined();
    }, 60_000);
  });
});

describe.runIf(engine === "quickjs")("the quickjs engine's warm Python worker", () => {
  it("ends a memory bomb with MemoryError at the execution's limit; an execution beside it finishes", async () => {
    const auth = await teamWithKey("e2e-pyredteam", { engine: "quickjs" });
    await restExecute({ code: "1", language: "python" }, auth); // the worker's first execution boots CPython
    const [bomb, beside] = await Promise.all([
      restExecute({ code: "a = []\nwhile True:\n    a.append(bytearray(10**6))", language: "python" }, auth),
      new Promise((r) => setTimeout(r, 200)).then(() =>
        restExecute({ code: "'beside'", language: "python" }, auth),
      ),
    ]);
    expect(bomb.body.error?.name).toBe("MemoryError");
    expect(bomb.body.error?.message).toContain("40 MB");
    expect(beside.body.result).toBe("beside");
    expect((await restExecute({ code: "sum(range(10))", language: "python" }, auth)).body.result).toBe(45);
  }, 60_000);

  // On the isolate engine the same code stalls the sandbox host in native code (its supervisor restarts it).
  it("ends recursion past a raised recursion limit (CPython fails fatally) with RecursionError; the next execution works", async () => {
    const auth = await teamWithKey("e2e-pyfatal", { engine: "quickjs" });
    await restExecute({ code: "1", language: "python" }, auth);
    const code = "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nf(0)";
    const r = await restExecute({ code, language: "python", timeoutMs: 3_000 }, auth);
    expect(r.body.error?.name).toBe("RecursionError");
    expect((await restExecute({ code: "sum(range(10))", language: "python" }, auth)).body.result).toBe(45);
  }, 60_000);
});

describe.runIf(engine === "quickjs")(
  "the quickjs engine bounds hostile code without stalling its host",
  () => {
    const STOPPED = /^(ResourceLimitError|TimeoutError)$/;
    const attacks: [string, string, string | RegExp][] = [
      [
        "a native loop over 2^53 - 1 (indexOf)",
        "return [].indexOf.call({ length: 2 ** 53 - 1 }, 1);",
        "ResourceLimitError",
      ],
      ["join over a 2^31 sparse array", "return new Array(2 ** 31).join('ab').length;", "ResourceLimitError"],
      ["Array.from of 1e9", "return Array.from({ length: 1e9 }).length;", "ResourceLimitError"],
      ["a catastrophic regular expression", "return /^(a+)+$/.test('a'.repeat(40) + '!');", "TimeoutError"],
      ["a heap bomb", "const a = []; while (true) a.push(new Array(1e5).fill(1));", STOPPED],
      ["a string bomb", "let s = 'x'; while (true) s += s;", "ResourceLimitError"],
    ];
    for (const [name, code, expected] of attacks) {
      it(`ends ${name} with ${expected}; an execution beside it finishes normally`, async () => {
        const auth = await teamWithKey("e2e-redteam", { engine: "quickjs" });
        const timeoutMs = 3_000;
        const started = Date.now();
        const [attack, beside] = await Promise.all([
          restExecute({ code, timeoutMs }, auth),
          new Promise((r) => setTimeout(r, 200)).then(() =>
            restExecute({ code: "await new Promise((r) => setTimeout(r, 300)); return 'beside'" }, auth),
          ),
        ]);
        expect(attack.body.error?.name).toMatch(expected);
        expect(Date.now() - started).toBeLessThan(timeoutMs + 1_000);
        expect(beside.body.result).toBe("beside");
        expect(await healthMs()).toBeLessThan(PROMPT_MS);
      });
    }

    it("lets a legitimate 10-second computation finish (timeoutMs 20000)", async () => {
      const auth = await teamWithKey("e2e-redteam", { engine: "quickjs" });
      const code = `const end = Date.now() + 10_000; let n = 0, x = 0;
while (Date.now() < end) { for (let i = 0; i < 1000; i++) x = (x * 31 + i) % 1000003; n++; }
return n > 0 && x >= 0;`;
      const r = await restExecute({ code, timeoutMs: 20_000 }, auth);
      expect(r.body.error).toBeUndefined();
      expect(r.body.result).toBe(true);
    }, 40_000);

    it("keeps the sandbox host's memory flat over 1,000 executions", async () => {
      const auth = await teamWithKey("e2e-memory", {
        engine: "quickjs",
        limits: { requestsPerMinute: 1_000_000 },
      });
      const pid = inject("sandboxHostPid");
      const rss = () =>
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
      const code = "const a = Array.from({ length: 1000 }, (_, i) => ({ i, s: 'x' + i })); return a.length";
      const run = async (count: number) => {
        let issued = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (issued++ < count) expect((await restExecute({ code }, auth)).body.result).toBe(1000);
          }),
        );
      };
      await run(200);
      const before = rss();
      await run(1_000);
      // A wasm instance kept per execution would be ≥ 1 MB each; what is seen is the GC's sawtooth.
      expect(rss() - before).toBeLessThan(40);
    }, 180_000);
  },
);
