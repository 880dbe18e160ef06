// What prelude.js (and its polyfill groups) may ask the worker of an interpreter: one table of
// functions, each serving the execution that took the interpreter (interpreter.js binds them).
import { QUICKJS_LIMITS as LIMITS } from "../../../shared/contract/engine";
import { answerV8 } from "./worker-v8.js";

/* global POLYFILL_SOURCES */
/** polyfills/*.js by group name, minified, inlined at build time (scripts/build-quickjs.mjs): evaluated on first use */
const POLYFILLS = POLYFILL_SOURCES;
/** polyfills/v8.js and v8-builtins.js: not loaded on first use but run in every interpreter by prelude.js */
export const V8_POLYFILLS = [POLYFILLS.v8, POLYFILLS["v8-builtins"]];

/** A string from the VM, its length checked before it is copied. */
function str(vm, handle, max, what) {
  if (vm.typeof(handle) !== "string") throw new Error(`${what} must be a string`);
  const length = vm.getLength(handle) ?? 0;
  if (length > max) throw new Error(`${what} is ${length} characters; at most ${max}`);
  return vm.getString(handle);
}

/** An ArrayBuffer's bytes from the VM, copied out, its size checked first. */
function buffer(vm, handle, max, what) {
  const length = vm.getNumber(vm.getProp(handle, "byteLength"));
  if (!(length <= max)) throw new Error(`${what} is too large`);
  const view = vm.getArrayBuffer(handle);
  const copy = view.value.slice();
  view.dispose();
  return copy;
}

/** The worker's atob/btoa over a string from the VM; null (the prelude throws) when it refuses the text. */
function latin1(exec, text, convert) {
  const input = str(exec.vm, text, exec.run.memoryBytes, "text");
  try {
    return exec.vm.newString(convert(input));
  } catch {
    return exec.vm.null;
  }
}

/**
 * What prelude.js (and its polyfill groups) may ask the worker, as `worker.<name>(…)`. Each reads from
 * the VM only what it has bounded: strings and buffers up to the interpreter's memory limit, bridge
 * arguments to the run's `maxCallChars`, URLs to LIMITS.maxUrlChars.
 * @type {Record<string, (exec: import("./execution.js").Execution, ...args: import("quickjs-emscripten-core").QuickJSHandle[]) => any>}
 */
export const WORKER_FUNCTIONS = {
  sleep: (exec, ms) => exec.sleep(exec.vm.getNumber(ms)),
  call: (exec, method, argsText, buffers) => {
    const { vm } = exec;
    const count = vm.getLength(buffers) ?? 0;
    if (count > LIMITS.maxCallBuffers)
      throw new Error(`at most ${LIMITS.maxCallBuffers} byte arrays per call`);
    const bytes = [];
    for (let i = 0; i < count; i++)
      bytes.push(new Uint8Array(buffer(vm, vm.getProp(buffers, i), exec.run.memoryBytes, "data")));
    return exec.call(
      str(vm, method, 64, "method"),
      str(vm, argsText, exec.run.maxCallChars, "arguments"),
      bytes,
    );
  },
  polyfill: (exec, group) => {
    const name = str(exec.vm, group, 16, "group");
    if (!Object.hasOwn(POLYFILLS, name)) throw new Error(`no polyfill group ${name}`);
    return exec.vm.newString(POLYFILLS[name]);
  },
  encodeUtf8: (exec, text) =>
    exec.vm.newArrayBuffer(new TextEncoder().encode(str(exec.vm, text, exec.run.memoryBytes, "text")).buffer),
  decodeUtf8: (exec, bytes, fatal) => {
    const { vm } = exec;
    const data = buffer(vm, bytes, exec.run.memoryBytes, "data");
    try {
      return vm.newString(new TextDecoder("utf-8", { fatal: vm.dump(fatal) === true }).decode(data));
    } catch (err) {
      if (err instanceof TypeError) return vm.null;
      throw err;
    }
  },
  btoa: (exec, text) => latin1(exec, text, btoa),
  atob: (exec, text) => latin1(exec, text, atob),
  random: (exec, n) =>
    exec.vm.newArrayBuffer(
      crypto.getRandomValues(new Uint8Array(Math.min(exec.vm.getNumber(n), 65_536))).buffer,
    ),
  uuid: (exec) => exec.vm.newString(crypto.randomUUID()),
  digest: (exec, algorithm, data) => {
    const { vm } = exec;
    const name = str(vm, algorithm, 16, "algorithm").toUpperCase();
    if (!DIGESTS.has(name))
      throw new Error(`unsupported algorithm ${name}; use SHA-1, SHA-256, SHA-384 or SHA-512`);
    const bytes = buffer(vm, data, exec.run.memoryBytes, "data");
    return exec.later(crypto.subtle.digest(name, bytes), (out) => vm.newArrayBuffer(out));
  },
  parseUrl: (exec, input, base) => {
    const { vm } = exec;
    const href = str(vm, input, LIMITS.maxUrlChars, "url");
    const from = vm.typeof(base) === "string" ? str(vm, base, LIMITS.maxUrlChars, "base") : undefined;
    const url = URL.canParse(href, from) ? new URL(href, from) : undefined;
    return url ? vm.newString(JSON.stringify(urlParts(url))) : vm.null;
  },
  v8: (exec, request) => exec.vm.newString(answerV8(str(exec.vm, request, exec.run.memoryBytes, "request"))),
  /** A line of the agent's module, for V8's words of a caught "not a function" (polyfills/v8.js). */
  agentLine: (exec, n) => {
    const lines = (exec.run.modules["agent.js"] ?? "").split("\n");
    return exec.vm.newString(lines[exec.vm.getNumber(n) - 1] ?? "");
  },
  setUrl: (exec, href, part, value) => {
    const { vm } = exec;
    const url = new URL(str(vm, href, LIMITS.maxUrlChars, "url"));
    const name = str(vm, part, 16, "part");
    if (!URL_SETTABLE.has(name)) throw new Error(`cannot set ${name}`);
    url[name] = str(vm, value, LIMITS.maxUrlChars, "value");
    return vm.newString(JSON.stringify(urlParts(url)));
  },
};

const DIGESTS = new Set(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);
const URL_SETTABLE = new Set([
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
]);
/** @param {URL} url */
function urlParts(url) {
  const { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin } = url;
  return { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin };
}
