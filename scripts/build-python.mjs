// Derives what a Python isolate needs from node_modules/pyodide into workers/sandbox/python/dist/
// (git-ignored): the two pyodide JS files, the CPython wasm, the stdlib zip and the lock file, the
// isolate runtime (workers/sandbox/python/runtime/), the tiny wasm modules pyodide would compile at
// run time (refused in Workers) precompiled per signature, and manifest.mjs, which imports them all
// as the Worker Loader `modules` map. Run by scripts/build-sandbox.mjs (wrangler's [build] step, the
// vitest configs, `npm run typecheck`); does nothing when its inputs have not changed.
// The memory snapshot is not built here: the sandbox host makes it on first use
// (workers/sandbox/python/python-isolate.ts).
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "./lib/root.mjs";

const PYODIDE = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
const SRC = join(root, "workers/sandbox/python/runtime");
const OUT = join(root, "workers/sandbox/python/dist");
const STAMP = join(OUT, "stamp.txt");

const COPIES = [
  ["pyodide.mjs", "pyodide.mjs.txt", "js"],
  ["pyodide.asm.js", "pyodide.asm.js.txt", "js"],
  ["pyodide.asm.wasm", "pyodide.asm.wasm.bin", "wasm"],
  ["python_stdlib.zip", "python_stdlib.zip.bin", "data"],
  ["pyodide-lock.json", "pyodide-lock.json.txt", "text"],
];

/** @param {Record<string, string>} runtimeModules the TypeScript runtime's bundles (some are loaded beside Python) */
export function buildPython(runtimeModules) {
  const sources = readdirSync(SRC).sort();
  const hash = createHash("sha256");
  for (const [name, text] of Object.entries(runtimeModules).sort()) hash.update(name).update(text);
  hash.update(readFileSync(join(PYODIDE, "package.json")));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const f of sources) hash.update(f).update(readFileSync(join(SRC, f)));
  const stamp = hash.digest("hex");
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp) return;

  // Built in a folder of this process's own and renamed into place whole: under `npm run dev` two
  // wrangler processes build at once, and a reader must never see a half-written or emptied dist/.
  const tmp = `${OUT}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, "precompiled"), { recursive: true });
  const asmJs = readFileSync(join(PYODIDE, "pyodide.asm.js"), "utf8");
  const mjs = readFileSync(join(PYODIDE, "pyodide.mjs"), "utf8");
  for (const [from, to] of COPIES) copyFileSync(join(PYODIDE, from), join(tmp, to));
  writeFileSync(join(tmp, "pyodide.asm.js.txt"), edited("pyodide.asm.js", asmJs, GENERATION_CHECK));
  writeFileSync(join(tmp, "pyodide.mjs.txt"), edited("pyodide.mjs", mjs, STDLIB_OWNED));
  for (const f of sources) copyFileSync(join(SRC, f), join(tmp, `${f}.txt`));
  const precompiled = precompiledModules(asmJs, mjs);
  for (const p of precompiled.values())
    writeFileSync(join(tmp, "precompiled", `${p.name}.wasm.bin`), p.bytes);
  writeFileSync(join(tmp, "precompiled.js.txt"), registry(precompiled));
  writeFileSync(join(tmp, "manifest.mjs"), manifest(sources, precompiled, stamp));
  writeFileSync(join(tmp, "manifest.d.mts"), MANIFEST_TYPES);
  writeFileSync(join(tmp, "stamp.txt"), stamp);
  rmSync(OUT, { recursive: true, force: true });
  try {
    renameSync(tmp, OUT);
  } catch (err) {
    // Another process put the same build in place between the two lines above.
    rmSync(tmp, { recursive: true, force: true });
    if (!(existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp)) throw err;
  }
}

/**
 * The edits of pyodide.asm.js: its one-shot callbacks (create_once_callable) and promise handles
 * (create_promise_handles) bound to the generation they were made in (`Module.resetGeneration`,
 * which the warm worker's reset.js moves on between executions): one called after a reset throws
 * instead of using a pointer into memory that was written back. And its map from JS values to their
 * hiwire references kept on the module (`Module.deduplicateMap`), for reset.js to set back; and its
 * proxies' finalizer made to do nothing once the instance is retired (`Module.retired`: warm.js's
 * snapshot-making boot, whose memory the first instance reuses).
 */
const STALE = 'throw new Error("This callback belongs to a Python execution that has ended")';
const GENERATION_CHECK = [
  [
    "function create_once_callable(obj,may_syncify){try{_Py_IncRef(obj);let alreadyCalled=!!0;function wrapper(...args){",
    `function create_once_callable(obj,may_syncify){try{_Py_IncRef(obj);let alreadyCalled=!!0;const generation=Module.resetGeneration;function wrapper(...args){if(Module.resetGeneration!==generation){${STALE}}`,
  ],
  [
    'wrapper.destroy=function(){if(alreadyCalled){throw new Error("OnceProxy has already been destroyed")}alreadyCalled=!!1;',
    'wrapper.destroy=function(){if(alreadyCalled){throw new Error("OnceProxy has already been destroyed")}alreadyCalled=!!1;if(Module.resetGeneration!==generation)return;',
  ],
  [
    'let used=!!0;function checkUsed(){if(used){throw new Error("One of the promise handles has already been called.")}}',
    `let used=!!0;const generation=Module.resetGeneration;function checkUsed(){if(Module.resetGeneration!==generation){${STALE}}if(used){throw new Error("One of the promise handles has already been called.")}}`,
  ],
  [
    "finalizationRegistry=new FinalizationRegistry(({ptr:t,cache:e})=>{",
    "finalizationRegistry=new FinalizationRegistry(({ptr:t,cache:e})=>{if(Module.retired)return;",
  ],
  [
    "function __hiwire_deduplicate_new(){return new Map}",
    "function __hiwire_deduplicate_new(){return Module.deduplicateMap=new Map}",
  ],
];

/**
 * The edit of pyodide.mjs: the stdlib zip it fetched (its own copy) becomes the file's contents
 * (canOwn) instead of being copied again: 2.4 MB less made and dropped per instance.
 */
const STDLIB_OWNED = [
  [
    '.zip`,r)}catch(r){console.error("Error occurred while installing the standard library:")',
    '.zip`,r,{canOwn:!0})}catch(r){console.error("Error occurred while installing the standard library:")',
  ],
];

/**
 * `text` (the file `name`) with `edits` ([from, to]) made. Each must match exactly once: a pyodide
 * whose text differs fails the build here.
 * @param {string} name @param {string} text @param {string[][]} edits
 */
function edited(name, text, edits) {
  for (const [from, to] of edits) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0)
      throw new Error(`build-python: ${name} does not contain exactly once: ${from.slice(0, 80)}…`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  return text;
}

/**
 * Every small module pyodide or Emscripten compiles at run time, by its exact bytes (base64):
 * Emscripten's convertJsFunctionToWasm(func, sig) for every signature pyodide.asm.js declares (its
 * own byte generator is cut out of the file and run here, so the bytes are the ones it will ask
 * for), CPython's count-args helper, pyodide's error sentinel, and the empty-module probe.
 */
function precompiledModules(asmJs, mjs) {
  const start = asmJs.indexOf("var uleb128Encode=");
  const end = asmJs.indexOf("var wasmTableMirror=", start);
  if (start < 0 || end < 0)
    throw new Error("build-python: Emscripten's wasm generator not found in pyodide.asm.js");
  let recorded;
  // Classes, not functions: the generator calls them with `new`.
  const fake = {
    Function: undefined,
    Module: class {
      constructor(bytes) {
        recorded = bytes;
      }
    },
    Instance: class {
      exports = { f: null };
    },
  };
  // Build time, in Node: the generator is pyodide's own code.
  const convert = new Function("WebAssembly", `${asmJs.slice(start, end)}; return convertJsFunctionToWasm;`)(
    fake,
  );
  const modules = new Map();
  const key = (bytes) => Buffer.from(bytes).toString("base64");
  const sigs = [...new Set([...asmJs.matchAll(/\.sig="([a-z]*)"/g)].map((m) => m[1]))].sort();
  for (const sig of sigs) {
    convert(() => {}, sig);
    const bytes = new Uint8Array(recorded);
    if (!modules.has(key(bytes))) modules.set(key(bytes), { name: `tramp_${sig.replace(/p/g, "i")}`, bytes });
  }
  const countArgs = asmJs.match(
    /function getPyEMCountArgsPtr\(\)\{[\s\S]*?const code=new Uint8Array\(\[([0-9,]+)\]\)/,
  );
  const sentinel = mjs.match(/W\("(AGFzbQ[A-Za-z0-9+/=]+)"\)/);
  if (!countArgs || !sentinel) throw new Error("build-python: count-args or sentinel module not found");
  const fixed = [
    ["count_args", new Uint8Array(countArgs[1].split(",").map(Number))],
    ["sentinel", new Uint8Array(Buffer.from(sentinel[1], "base64"))],
    ["empty_probe", new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])],
  ];
  for (const [name, bytes] of fixed) modules.set(key(bytes), { name, bytes });
  return modules;
}

function registry(precompiled) {
  const entries = [...precompiled.entries()];
  return [
    "// Generated by scripts/build-python.mjs: precompiled small wasm modules by their exact bytes (base64).",
    ...entries.map(([, p], i) => `import m${i} from "precompiled/${p.name}.wasm";`),
    `export const PRECOMPILED = new Map([${entries.map(([k], i) => `[${JSON.stringify(k)}, m${i}]`).join(", ")}]);`,
    `export const BY_NAME = { ${entries.map(([, p], i) => `${p.name}: m${i}`).join(", ")} };`,
    "",
  ].join("\n");
}

function manifest(sources, precompiled, stamp) {
  const mods = [];
  for (const [from, to, kind] of COPIES) mods.push([from, to, kind]);
  for (const f of sources) mods.push([f, `${f}.txt`, f.endsWith(".py") ? "text" : "js"]);
  mods.push(["precompiled.js", "precompiled.js.txt", "js"]);
  for (const p of precompiled.values())
    mods.push([`precompiled/${p.name}.wasm`, `precompiled/${p.name}.wasm.bin`, "wasm"]);
  return [
    "// Generated by scripts/build-python.mjs. Do not edit.",
    ...mods.map(([, file], i) => `import a${i} from "./${file}";`),
    "export const PYTHON_MODULES = {",
    ...mods.map(([name, , kind], i) => `  ${JSON.stringify(name)}: { ${kind}: a${i} },`),
    "};",
    `export const PYODIDE_VERSION = ${JSON.stringify(JSON.parse(readFileSync(join(PYODIDE, "package.json"), "utf8")).version)};`,
    "/** Names the warm Python worker's code (pyodide, this runtime, the TypeScript runtime's bundles) in its ids. */",
    `export const PYTHON_VERSION = "py-${stamp.slice(0, 10)}";`,
    "",
  ].join("\n");
}

const MANIFEST_TYPES = `export declare const PYTHON_MODULES: Record<string, WorkerLoaderModule>;
export declare const PYODIDE_VERSION: string;
export declare const PYTHON_VERSION: string;
`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  throw new Error("build-python: run scripts/build-sandbox.mjs, which passes the runtime's bundles");
}
