import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/root.mjs";

// The warm Python worker's reset (workers/sandbox/python/runtime/reset.js) with pyodide as built
// (workers/sandbox/python/dist: pyodide.asm.js with the generation check scripts/build-python.mjs
// patches in), in Node: a JS callback or promise handler an ended execution left must not run
// Python after the reset (its pointers mean nothing in memory that was written back). In workerd
// nothing of an ended request runs later (its timers and I/O end with it), so no end-to-end
// execution reaches this; here the old execution's JS objects are called directly.
// Also: the image the warm worker makes of its snapshot (image.js imageNow) is the whole snapshot's.
const RUNTIME = join(root, "workers/sandbox/python/runtime");
const PYODIDE = join(root, "node_modules/pyodide/");
const SOURCES = ["_sandbox_globals", "_sandbox_guard", "_sandbox_json", "_sandbox_skills"];

type Pyodide = {
  runPython(code: string): unknown;
  pyimport(name: string): { preimport(): void; after_restore(): void };
  makeMemorySnapshot(): Uint8Array;
  FS: { writeFile(path: string, text: string): void };
  _module: {
    __PyRuntime: number;
    __PyEM_EMSCRIPTEN_COUNT_ARGS_OFFSET: number;
    _PyEM_CountArgsPtr: number;
    HEAP32: Int32Array;
    HEAP8: Int8Array;
  };
};
type Image = { header: Uint8Array; bytes: number; runs: { at: number; bytes: Uint8Array }[] };
/** What the first execution leaves on its `js`. */
type Left = { once(): unknown; proxy(): unknown; settle(value: unknown): void; derived: Promise<unknown> };

async function boot(how: Record<string, unknown>): Promise<Pyodide> {
  const { loadPyodide } = await import(pathToFileURL(join(PYODIDE, "pyodide.mjs")).href);
  return loadPyodide({ indexURL: PYODIDE, env: { HOME: "/home/pyodide" }, ...how });
}

describe("the warm Python worker's reset: callbacks of an ended execution", () => {
  it("a once-callable, a proxy and a promise handler it left refuse to run; the next execution is fine", async () => {
    createRequire(import.meta.url)(join(root, "workers/sandbox/python/dist/pyodide.asm.js.txt"));
    const { compactImage, imageNow } = await import(pathToFileURL(join(RUNTIME, "image.js")).href);
    const { resettable } = await import(pathToFileURL(join(RUNTIME, "reset.js")).href);
    const { readFileSync } = await import("node:fs");
    const maker = await boot({ _makeSnapshot: true });
    const read = (name: string) => readFileSync(join(RUNTIME, name), "utf8");
    maker.FS.writeFile("/home/pyodide/_sandbox.py", read("driver.py"));
    for (const name of SOURCES) maker.FS.writeFile(`/home/pyodide/${name}.py`, read(`${name}.py`));
    maker.runPython("import _sandbox");
    maker.pyimport("_sandbox").preimport();
    const bytes = new Uint8Array(maker.makeMemorySnapshot());
    // The warm worker's image, made without a copy of the whole memory, is the whole snapshot's.
    const image: Image = imageNow(maker);
    const whole: Image = compactImage(bytes);
    expect(maker._module.HEAP8.length).toBe(whole.bytes);
    expect([image.bytes, image.runs.map((r) => r.at)]).toEqual([whole.bytes, whole.runs.map((r) => r.at)]);
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
    expect(same(image.header, whole.header)).toBe(true);
    expect(image.runs.every((run, i) => same(run.bytes, whole.runs[i]?.bytes ?? new Uint8Array()))).toBe(
      true,
    );
    const first: Left = Object.create(globalThis);
    const py = await boot({ _loadSnapshot: bytes, jsglobals: first });
    const M = py._module;
    const field = M.__PyRuntime + (M.HEAP32[M.__PyEM_EMSCRIPTEN_COUNT_ARGS_OFFSET >> 2] ?? 0);
    if (M._PyEM_CountArgsPtr) M.HEAP32[field >> 2] = M._PyEM_CountArgsPtr;
    py.pyimport("_sandbox").after_restore();
    const instance = resettable(py, image);

    py.runPython(`import builtins, js
from pyodide.ffi import create_once_callable, create_proxy
secret = "A's"
def late(*_):
    builtins.late = secret
    return secret
js.once = create_once_callable(late)
js.proxy = create_proxy(late)
js.derived = js.Promise.new(lambda res, rej: setattr(js, "settle", res)).then(late)`);
    expect(instance.reset(Object.create(globalThis))).toBe(true);

    expect(() => first.once()).toThrow("This callback belongs to a Python execution that has ended");
    expect(() => first.proxy()).toThrow("This callback belongs to a Python execution that has ended");
    first.settle(7);
    await expect(first.derived).rejects.toThrow("This callback belongs to a Python execution that has ended");
    expect(py.runPython("import builtins\nstr(getattr(builtins, 'late', None)) + str(sum(range(10)))")).toBe(
      "None45",
    );
  }, 120_000);
});
