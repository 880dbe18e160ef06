import { describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../helpers/hang-guard";
import { sandboxOn, TEST_ENGINES } from "../helpers/sandbox";

// Memory bombs end with ResourceLimitError long before their time limit: on the isolate engine by
// its memory meter (workers/sandbox/runtime/memory.js; without it local workerd let them run to the
// time limit, or to V8's heap limit, which ended the whole process), on quickjs by the interpreter's
// memory limit, here its 8 MB (EXEC_MEMORY_MB goes down to 4): the same stops, sooner.
// "Long before": within a quarter of a time limit of a minute (they take 0.03 to 4 s here).
const TIMEOUT_MS = 60_000;
const QUICKJS_MEMORY = 8 * 1024 * 1024;

/** [what, code, how quickjs ends it when not with ResourceLimitError, and why] */
const BOMBS: Array<[string, string, string?]> = [
  ["arrays kept in an array", "const keep = [];\nfor (;;) keep.push(new Array(1e6).fill(keep.length));"],
  ["one huge filled array", "return new Array(5e8).fill(1.5).length;"],
  // quickjs: a string made of others shares their memory; its linear memory's maximum ends it.
  ["strings made by repeat", "const keep = [];\nfor (let i = 0; ; i++) keep.push('x'.repeat(1e6) + i);"],
  [
    "strings built by += and kept",
    "const keep = [];\nlet s = '';\nfor (let i = 0; ; i++) {\n  s += 'chunk ' + i;\n  if (s.length > 1e6) { keep.push(s); s = ''; }\n}",
    "time",
  ],
  ["a string grown by concat", "let s = '';\nconst c = 'x'.repeat(1e5);\nfor (;;) s = s.concat(c);"],
  ["typed arrays kept in an array", "const keep = [];\nfor (;;) keep.push(new Float64Array(1e6));"],
  ["objects kept in an array", "const a = [];\nfor (let i = 0; ; i++) a.push({ i, name: 'n' + i });"],
  ["an array doubled by concat", "let a = [1];\nfor (;;) a = a.concat(a);"],
  ["one huge typed array", "return new Uint8Array(2 ** 30).length;"],
  // quickjs: these filled its memory so that QuickJS could not make its error (`Uncaught null`).
  ["a growing Map", "const m = new Map();\nfor (let i = 0; ; i++) m.set(i, 'value ' + i);"],
  ["a growing Set", "const s = new Set();\nfor (let i = 0; ; i++) s.add('member ' + i);"],
  // quickjs: its out-of-memory error is an ordinary one, which the code catches: time or the memory's maximum ends it.
  [
    "a bomb that catches the stop and goes on",
    "const keep = [];\nfor (;;) {\n  try { keep.push(new Array(1e6).fill(0)); } catch {}\n}",
    "time",
  ],
];

describe.each(TEST_ENGINES)("memory bombs on %s", (engine) => {
  const { run } = sandboxOn(engine, QUICKJS_MEMORY);

  const endsWithResourceLimitError = async (code: string) => {
    const started = Date.now();
    const r = await run(code, { timeoutMs: TIMEOUT_MS }, { cpuMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 4);
    expect(r.error?.name).toBe("ResourceLimitError");
    // quickjs: its prelude refuses an Array method over 2^24 elements by their number, before memory.
    expect(r.error?.message).toMatch(
      engine === "quickjs" ? /out of memory|a length of/ : /ran out of memory/,
    );
    expect((await run("return 'next'")).result).toBe("next");
  };

  it.each(BOMBS)(
    "%s: ResourceLimitError well before the time limit",
    async (_name, code, onQuickjs) => {
      if (engine === "quickjs" && onQuickjs === "time") {
        const started = Date.now();
        const r = await run(code, { timeoutMs: 1_000 });
        // Time ends it, or (on a quick machine) the linear memory's maximum first.
        expect(["TimeoutError", "ResourceLimitError"]).toContain(r.error?.name);
        expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
        return;
      }
      await endsWithResourceLimitError(code);
    },
    TIMEOUT_MS + 30_000,
  );

  // Guards for the metered natives (memory-natives.js) and the quickjs prelude's bounded Array
  // methods: they answer as V8's own do (Node's answers).
  it("leaves the natives' names and lengths as they were", async () => {
    const r = await run(
      "return [[].push.name, [].push.length, [].splice.length, ''.repeat.name, Uint8Array.name, Uint8Array.length, Uint8Array.BYTES_PER_ELEMENT];",
    );
    expect(r.result).toEqual(["push", 1, 2, "repeat", "Uint8Array", 3, 1]);
  });

  it("leaves the natives' classes and answers as they were", async () => {
    const code = `class Bytes extends Uint8Array {}
const b = new Bytes(4);
const m = new Map([[1, 2]]);
m.set(3, 4);
const s = new Set([1]);
s.add(2);
const a = [1];
let called = false;
try { Uint8Array(2); } catch (e) { called = e instanceof TypeError; }
return [
  [new Uint8Array(4) instanceof Uint8Array, new Uint8Array(4).constructor === Uint8Array, b instanceof Bytes, b.slice(1) instanceof Bytes, b.subarray(1).length],
  [Object.getPrototypeOf(Uint8Array) === Object.getPrototypeOf(Int8Array), Uint8Array.from([1, 2]).length, ArrayBuffer.isView(b), new ArrayBuffer(8).slice(4).byteLength],
  [a.push(2, 3), a.unshift(0), a.splice(1, 1, 9, 9), a, m.size, m.get(3), s.size, [1, 2].concat([3], 4), [1, 2].join("-"), "ab".repeat(2), "a".padStart(3, "-")],
  called,
];`;
    expect((await run(code)).result).toEqual([
      [true, true, true, true, 3],
      [true, 2, true, 4],
      [3, 4, [1], [0, 9, 9, 2, 3], 2, 4, 2, [1, 2, 3, 4], "1-2", "abab", "--a"],
      true,
    ]);
  });

  it("names the line of the bomb", async () => {
    const r = await run("const keep = [];\nlet n = 0;\nwhile (true) keep.push(new Array(1e6).fill(n++));");
    expect(r.error).toMatchObject({ name: "ResourceLimitError", line: 3 });
  });

  it("lets code make and drop big values, many times its limit, and hold a big one", async () => {
    // 40 times 16 MB made and dropped, and 60 MB held (isolate); a tenth of that on quickjs's 8 MB.
    const [n, chars] = engine === "isolate" ? [1e6, 60e6] : [1e5, 4e6];
    const code = `let total = 0;
for (let i = 0; i < 40; i++) total += new Array(${n}).fill(1).length + new Float64Array(${n}).length;
const big = 'x'.repeat(${chars});
return [total, big.length];`;
    const r = await run(code, { timeoutMs: TIMEOUT_MS });
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual([80 * n, chars]);
  });
});
