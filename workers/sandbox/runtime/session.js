// The session globals agent code sees: `state`, `workspace` and `session` (contract "Inside executed
// code"). Each call goes over RPC to the bridge's `session()` as one SessionCall (shared/contract/
// session.ts); the gateway validates it, counts it and runs it in the session's Durable Object.
// Values are checked here only to fail early with a clear message; the gateway checks again.
import { SESSION_LIMITS } from "../../../shared/contract/caps";
import { clip, ErrorCtor, stringify } from "./intrinsics.js";

const parse = JSON.parse;
const Uint8ArrayCtor = Uint8Array;
const ArrayBufferCtor = ArrayBuffer;
const isView = ArrayBuffer.isView;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = encoder.encode.bind(encoder);
const decode = decoder.decode.bind(decoder);
// The gateway enforces the same limits (shared/contract/session.ts).
const {
  maxFileBytes: MAX_FILE_BYTES,
  maxStateValueChars: MAX_VALUE_CHARS,
  maxKeyChars: MAX_KEY_CHARS,
} = SESSION_LIMITS;

/**
 * @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge
 * @typedef {import("../../../shared/contract/session").SessionCall} SessionCall
 */

/**
 * @param {string} name
 * @param {string} message
 */
function fail(name, message) {
  const err = new ErrorCtor(message);
  err.name = name;
  return err;
}

/** @param {unknown} key */
function checkKey(key) {
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_CHARS) {
    throw fail("TypeError", `state: a key is a string of 1 to ${MAX_KEY_CHARS} characters`);
  }
  return key;
}

/** @param {unknown} data */
function toBytes(data) {
  let bytes;
  if (typeof data === "string") {
    if (data.length > MAX_FILE_BYTES) throw tooLarge(data.length, "characters");
    bytes = encode(data);
  } else if (data instanceof Uint8ArrayCtor) bytes = data;
  else if (data instanceof ArrayBufferCtor) bytes = new Uint8ArrayCtor(data);
  else if (isView(data)) bytes = new Uint8ArrayCtor(data.buffer, data.byteOffset, data.byteLength);
  else throw fail("TypeError", "workspace.write(path, data): data must be a string or a Uint8Array");
  if (bytes.byteLength > MAX_FILE_BYTES) throw tooLarge(bytes.byteLength, "bytes");
  return bytes;
}

/**
 * @param {number} size
 * @param {string} unit
 */
function tooLarge(size, unit) {
  return fail(
    "QuotaError",
    `workspace.write: the file is ${size} ${unit}; a file may hold at most ${MAX_FILE_BYTES} bytes`,
  );
}

/**
 * `methods` with each call's promise tracked as `<name>.<method>()`.
 * @param {string} name
 * @param {Record<string, (...args: unknown[]) => Promise<unknown>>} methods
 * @param {(label: string, call: Promise<unknown>) => Promise<unknown>} track
 */
function tracked(name, methods, track) {
  /** @type {Record<string, (...args: unknown[]) => Promise<unknown>>} */
  const out = {};
  for (const [method, fn] of Object.entries(methods)) {
    out[method] = (...args) => track(`${name}.${method}()`, fn(...args));
  }
  return out;
}

/**
 * @param {Bridge | undefined} bridge
 * @param {(res: import("../../../shared/contract/sandbox").BridgeResult) => unknown} unwrap
 * @param {(label: string, call: Promise<unknown>) => Promise<unknown>} track pending.js: no call is dropped
 */
export function installSession(bridge, unwrap, track) {
  /** @param {SessionCall} call */
  const send = async (call) => {
    if (!bridge) throw fail("NoSessionError", "This sandbox has no session");
    return unwrap(await bridge.session(call));
  };
  /** @param {unknown} prefix */
  const optionalPrefix = (prefix) =>
    prefix === undefined || prefix === null ? {} : { prefix: String(prefix) };

  const state = {
    get: async (/** @type {unknown} */ key) => {
      const json = await send({ op: "state.get", key: checkKey(key) });
      return typeof json === "string" ? parse(json) : undefined;
    },
    set: async (/** @type {unknown} */ key, /** @type {unknown} */ value) => {
      const checked = checkKey(key);
      let json;
      try {
        json = stringify(value);
      } catch (err) {
        throw fail(
          "TypeError",
          `state.set: the value is not JSON-serializable (${err instanceof ErrorCtor ? clip(err.message, 300) : "?"})`,
        );
      }
      if (typeof json !== "string")
        throw fail(
          "TypeError",
          "state.set: the value is undefined or not JSON (use state.delete to remove a key)",
        );
      if (json.length > MAX_VALUE_CHARS) {
        throw fail(
          "QuotaError",
          `state.set: the value is ${json.length} characters of JSON; at most ${MAX_VALUE_CHARS} are kept per key`,
        );
      }
      await send({ op: "state.set", key: checked, json });
    },
    delete: async (/** @type {unknown} */ key) => send({ op: "state.delete", key: checkKey(key) }),
    keys: async (/** @type {unknown} */ prefix) => send({ op: "state.keys", ...optionalPrefix(prefix) }),
  };

  const workspace = {
    write: async (/** @type {unknown} */ path, /** @type {unknown} */ data) =>
      send({ op: "workspace.write", path: String(path), data: toBytes(data) }),
    read: async (/** @type {unknown} */ path) =>
      decode(/** @type {Uint8Array} */ (await send({ op: "workspace.read", path: String(path) }))),
    readBytes: async (/** @type {unknown} */ path) => send({ op: "workspace.read", path: String(path) }),
    list: async (/** @type {unknown} */ prefix) => send({ op: "workspace.list", ...optionalPrefix(prefix) }),
    delete: async (/** @type {unknown} */ path) => send({ op: "workspace.delete", path: String(path) }),
  };

  const session = {
    info: async () => send({ op: "session.info" }),
    history: async () => send({ op: "session.history" }),
  };

  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  g.state = tracked("state", state, track);
  g.workspace = tracked("workspace", workspace, track);
  g.session = tracked("session", session, track);
}
