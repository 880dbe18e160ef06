import { describe, expect, it } from "vitest";
import { restExecute, teamWithKey } from "./client";

// The quickjs engine's warm Python worker reuses one CPython instance, set back to its state just
// after its restore between executions (workers/sandbox/python/runtime/reset.js): one execution of a
// team must see nothing another left, and nothing it left running may run in the next.
const engine = "quickjs";
const py = async (code: string, auth: Awaited<ReturnType<typeof teamWithKey>>, timeoutMs = 5_000) =>
  (await restExecute({ code, language: "python", timeoutMs }, auth)).body;

const LEAVE = `import builtins, json, os, sys, colorsys
x_global = 42
builtins.leaked = 1
json.extra = 1
sys.modules["evil"] = json
os.environ["LEAK"] = "1"
open("/tmp/f", "w").write("A's file")
os.mkdir("/home/pyodide/d")
open("/home/pyodide/d/g", "w").write("x" * 100000)
kept_open = open("/tmp/f")
os.chdir("/tmp")
print("A's partial line", end="")
"left"`;
const LOOK = `import builtins, json, os, sys
[
    "x_global" in globals(), hasattr(builtins, "leaked"), hasattr(json, "extra"),
    "evil" in sys.modules, "colorsys" in sys.modules, os.environ.get("LEAK"),
    os.path.exists("/tmp/f"), os.path.exists("/home/pyodide/d"), os.getcwd(),
]`;
const CLEAN = [false, false, false, false, false, null, false, false, "/home/pyodide"];

describe("the quickjs engine's warm Python worker: one execution's state never reaches the next", () => {
  it("globals, modules, files, cwd, environment and logs are the restored state's each time", async () => {
    const auth = await teamWithKey("e2e-pyreset-state", { engine });
    expect((await py(LEAVE, auth)).result).toBe("left");
    for (let i = 0; i < 2; i++) {
      const look = await py(LOOK, auth);
      expect(look.result).toEqual(CLEAN);
      expect(look.logs).toEqual([]);
      expect((await py(LEAVE, auth)).result).toBe("left"); // the same names and files can be made again
    }
  }, 60_000);

  it("random gives other numbers in each execution", async () => {
    const auth = await teamWithKey("e2e-pyreset-random", { engine });
    const draws = [];
    for (let i = 0; i < 3; i++) draws.push((await py("import random\nrandom.random()", auth)).result);
    expect(new Set(draws).size).toBe(3);
  }, 60_000);

  it("a callback or promise of an ended execution never runs in the next; the one after works", async () => {
    const auth = await teamWithKey("e2e-pyreset-stale", { engine, servers: { demo: { service: "DEMO" } } });
    await py("1", auth);
    const leave = `import asyncio, builtins, js
from pyodide.ffi import create_once_callable
def late(*_):
    builtins.late = "ran"
    return "ran"
async def call_then_late():
    await tools.demo.list_tickets(limit=1)
    late()
asyncio.ensure_future(call_then_late())
asyncio.get_event_loop().call_later(0.3, late)
js.Promise.new(create_once_callable(lambda res, rej: js.globalThis.setTimeout(res, 300))).then(late)
"left"`;
    expect((await py(leave, auth)).result).toBe("left");
    const next = await py("import asyncio, builtins\nawait asyncio.sleep(1)\nstr(getattr(builtins, 'late', None))", auth);
    expect(next).toMatchObject({ result: "None" });
    expect(next.error).toBeUndefined();
    expect((await py("sum(range(10))", auth)).result).toBe(45);
  }, 60_000);

  it("pyodide's own JS objects are out of reach: pyodide_js is a Python stub", async () => {
    const auth = await teamWithKey("e2e-pyreset-pyodidejs", { engine });
    const probe = `import pyodide_js, sys
from pyodide.ffi import JsProxy
reach = [name for name in ("_module", "FS", "globals", "loadPackage", "registerJsModule") if hasattr(pyodide_js, name)]
if isinstance(pyodide_js, JsProxy) or hasattr(pyodide_js._api, "runtimeEnv"):
    reach.append("_api")
del sys.modules["pyodide_js"]
try:
    import pyodide_js
    reach.append("imported again")
except ImportError:
    pass
reach`;
    expect(await py(probe, auth)).toMatchObject({ result: [] });
  }, 60_000);
});
