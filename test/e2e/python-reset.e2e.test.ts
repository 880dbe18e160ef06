import { describe, expect, it } from "vitest";
import { restExecute, teamWithKey } from "./client";

// The quickjs engine's warm Python worker reuses one CPython instance, set back to its state just
// after its restore between executions (workers/sandbox/python/runtime/reset.js): one execution of a
// team must see nothing another left. (What an ended execution left running: workerd ends a
// request's timers and I/O with it; python-reset-callbacks.e2e.test.ts calls them after a reset.)
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
