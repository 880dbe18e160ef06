// Turns whatever the agent's code returns or logs into JSON-safe data, within a budget: the walk
// stops early on huge or deep values instead of building a giant string inside the isolate.
// Intrinsics are captured at module load, before the agent's code can replace them.

const stringify = JSON.stringify;
const isArray = Array.isArray;
const objectKeys = Object.keys;
const toStringTag = Object.prototype.toString;
const ErrorProto = Error.prototype;
const protoOf = Object.prototype.isPrototypeOf;
/** @param {unknown} value */
const isError = (value) => protoOf.call(ErrorProto, value);
const MAX_DEPTH = 32;

/**
 * @typedef {{ chars: number, truncated: boolean, promise: boolean }} Budget
 */

/**
 * @param {unknown} value
 * @param {number} maxChars rough size after which the walk stops adding entries
 * @returns {{ value: unknown, truncated: boolean, promise: boolean }} `promise`: a Promise was met
 */
export function toJsonSafe(value, maxChars) {
  /** @type {Budget} */
  const budget = { chars: maxChars, truncated: false, promise: false };
  const out = walk(value, new WeakSet(), 0, budget);
  return { value: out === undefined ? null : out, truncated: budget.truncated, promise: budget.promise };
}

/**
 * Where the first Promise in `value` is, as a path from `root` (`result.total`), or undefined.
 * @param {unknown} value
 * @param {string} root
 */
export function promisePath(value, root) {
  /** @type {Array<[unknown, string, number]>} */
  const stack = [[value, root, 0]];
  const seen = new WeakSet();
  let visited = 0;
  while (stack.length > 0 && visited++ < 100_000) {
    const [node, path, depth] = /** @type {[unknown, string, number]} */ (stack.pop());
    if (node === null || typeof node !== "object" || seen.has(node) || depth > MAX_DEPTH) continue;
    seen.add(node);
    if (toStringTag.call(node) === "[object Promise]") return path;
    if (isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}[${i}]`, depth + 1]);
    } else if (!(node instanceof Map) && !(node instanceof Set) && !ArrayBuffer.isView(node)) {
      const keys = objectKeys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = /** @type {string} */ (keys[i]);
        const step =
          key.length <= 40 && /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${stringify(key.slice(0, 40))}]`;
        stack.push([/** @type {Record<string, unknown>} */ (node)[key], path + step, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * @param {unknown} value
 * @param {WeakSet<object>} seen objects on the current path (cycles become "[Circular]")
 * @param {number} depth
 * @param {Budget} budget
 * @returns {unknown}
 */
function walk(value, seen, depth, budget) {
  switch (typeof value) {
    case "string":
      budget.chars -= value.length + 2;
      return value;
    case "number":
      budget.chars -= 8;
      if (Number.isFinite(value)) return Object.is(value, -0) ? 0 : value;
      return String(value);
    case "boolean":
      budget.chars -= 5;
      return value;
    case "bigint":
      budget.chars -= 12;
      return value.toString();
    case "undefined":
      return undefined;
    case "symbol":
      return value.toString();
    case "function":
      return `[Function: ${value.name || "anonymous"}]`;
  }
  if (value === null) return null;
  const obj = /** @type {object} */ (value);
  if (seen.has(obj)) return "[Circular]";
  if (depth >= MAX_DEPTH) {
    budget.truncated = true;
    return "[Max depth]";
  }
  seen.add(obj);
  try {
    return walkObject(obj, seen, depth, budget);
  } catch (err) {
    return `[Unserializable: ${errorText(err)}]`;
  } finally {
    seen.delete(obj);
  }
}

/**
 * @param {object} obj
 * @param {WeakSet<object>} seen
 * @param {number} depth
 * @param {Budget} budget
 * @returns {unknown}
 */
function walkObject(obj, seen, depth, budget) {
  const tag = toStringTag.call(obj);
  if (tag === "[object Date]") {
    const time = /** @type {Date} */ (obj).getTime();
    return Number.isNaN(time) ? "Invalid Date" : new Date(time).toISOString();
  }
  if (tag === "[object RegExp]") return String(obj);
  if (tag === "[object Error]" || isError(obj))
    return errorToJson(/** @type {Error} */ (obj), seen, depth, budget);
  if (tag === "[object Promise]") {
    budget.promise = true;
    return "[Promise]";
  }
  if (obj instanceof ArrayBuffer) return walkList(Array.from(new Uint8Array(obj)), seen, depth, budget);
  if (ArrayBuffer.isView(obj)) {
    const view = /** @type {ArrayLike<number>} */ (/** @type {unknown} */ (obj));
    return walkList(Array.from(view), seen, depth, budget);
  }
  if (obj instanceof Map) {
    const entries = [...obj.entries()];
    if (entries.every(([k]) => typeof k === "string" || typeof k === "number")) {
      return walkEntries(
        entries.map(([k, v]) => [String(k), v]),
        seen,
        depth,
        budget,
      );
    }
    return walkList(entries, seen, depth, budget);
  }
  if (obj instanceof Set) return walkList([...obj], seen, depth, budget);
  if (isArray(obj)) return walkList(obj, seen, depth, budget);
  const withToJson = /** @type {{ toJSON?: unknown }} */ (obj);
  if (typeof withToJson.toJSON === "function") {
    return walk(/** @type {() => unknown} */ (withToJson.toJSON).call(obj), seen, depth + 1, budget);
  }
  return walkEntries(
    objectKeys(obj).map((k) => [k, /** @type {Record<string, unknown>} */ (obj)[k]]),
    seen,
    depth,
    budget,
  );
}

/**
 * @param {ArrayLike<unknown>} list
 * @param {WeakSet<object>} seen
 * @param {number} depth
 * @param {Budget} budget
 */
function walkList(list, seen, depth, budget) {
  /** @type {unknown[]} */
  const out = [];
  const length = list.length;
  for (let i = 0; i < length; i++) {
    if (budget.chars <= 0) {
      budget.truncated = true;
      out[out.length] = `[… ${length - i} more items]`;
      break;
    }
    const item = walk(list[i], seen, depth + 1, budget);
    out[out.length] = item === undefined ? null : item;
    budget.chars -= 1;
  }
  return out;
}

/**
 * @param {Array<[string, unknown]>} entries
 * @param {WeakSet<object>} seen
 * @param {number} depth
 * @param {Budget} budget
 */
function walkEntries(entries, seen, depth, budget) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (let i = 0; i < entries.length; i++) {
    if (budget.chars <= 0) {
      budget.truncated = true;
      out["…"] = `${entries.length - i} more keys`;
      break;
    }
    const [key, raw] = /** @type {[string, unknown]} */ (entries[i]);
    let item;
    try {
      item = walk(raw, seen, depth + 1, budget);
    } catch (err) {
      item = `[Unserializable: ${errorText(err)}]`;
    }
    if (item !== undefined) {
      out[key] = item;
      budget.chars -= key.length + 4;
    }
  }
  return out;
}

/**
 * @param {Error} err
 * @param {WeakSet<object>} seen
 * @param {number} depth
 * @param {Budget} budget
 */
function errorToJson(err, seen, depth, budget) {
  /** @type {Record<string, unknown>} */
  const out = { name: String(err.name), message: String(err.message) };
  for (const key of objectKeys(err)) {
    const item = walk(
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (err))[key],
      seen,
      depth + 1,
      budget,
    );
    if (item !== undefined) out[key] = item;
  }
  if (err.cause !== undefined) out.cause = walk(err.cause, seen, depth + 1, budget);
  return out;
}

/** @param {unknown} err */
export function errorText(err) {
  try {
    if (err !== null && typeof err === "object" && "message" in err) {
      const e = /** @type {{ name?: unknown, message?: unknown }} */ (err);
      return `${String(e.name ?? "Error")}: ${String(e.message)}`;
    }
    return String(err);
  } catch {
    return "[unprintable value]";
  }
}

/**
 * console.log-style formatting: strings as they are, everything else as compact JSON.
 * @param {unknown[]} args
 * @param {number} maxChars
 */
export function formatLogArgs(args, maxChars) {
  const parts = [];
  for (const arg of args) {
    if (typeof arg === "string") {
      parts[parts.length] = arg;
    } else if (arg !== null && typeof arg === "object" && isError(arg)) {
      parts[parts.length] = errorText(arg);
    } else if (arg === undefined) {
      parts[parts.length] = "undefined";
    } else {
      const safe = toJsonSafe(arg, maxChars).value;
      parts[parts.length] = typeof safe === "string" && typeof arg !== "object" ? safe : stringify(safe);
    }
  }
  let text = "";
  for (let i = 0; i < parts.length; i++) text += i === 0 ? parts[i] : ` ${parts[i]}`;
  return text;
}

/**
 * A thrown value as the result's `error` (before the sandbox host maps lines, before the runtime clips it):
 * `data` is an Error's own fields but name and message (`code`, `status`, `cause`, …), or a thrown
 * non-Error itself, JSON-safe.
 * @param {unknown} err
 * @returns {{ name: string, message: string, stack?: string, data?: unknown }}
 */
export function describeError(err) {
  try {
    const safe = toJsonSafe(err, 2000).value;
    if (err !== null && typeof err === "object" && isError(err)) {
      const e = /** @type {Error} */ (err);
      const out = { name: String(e.name || "Error"), message: String(e.message) };
      const fields = safe !== null && typeof safe === "object" ? safe : {};
      const {
        name: _name,
        message: _message,
        stack: _stack,
        ...data
      } = /** @type {Record<string, unknown>} */ (fields);
      const withData = objectKeys(data).length > 0 ? { ...out, data } : out;
      return typeof e.stack === "string" ? { ...withData, stack: e.stack } : withData;
    }
    const message = `Uncaught ${typeof safe === "string" ? safe : stringify(safe)}`;
    return err === undefined ? { name: "Error", message } : { name: "Error", message, data: safe };
  } catch {
    return { name: "Error", message: "Uncaught value that could not be described" };
  }
}
