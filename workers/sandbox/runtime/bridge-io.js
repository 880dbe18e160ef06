// What every runtime part that talks to the bridge shares: arguments out as size-checked JSON text,
// answers back as a value or a thrown error.
import { ErrorCtor, stringify } from "./intrinsics.js";

/** @typedef {import("../../../shared/contract/sandbox").BridgeResult} BridgeResult */

/**
 * A bridge answer's value, or its error thrown (with `path` for workspace errors).
 * @param {BridgeResult} res
 */
export function unwrap(res) {
  if (res.ok) return res.value;
  const err = /** @type {Error & { path?: string }} */ (new ErrorCtor(res.error.message));
  err.name = res.error.name;
  if (typeof res.error.path === "string") err.path = res.error.path;
  throw err;
}

/**
 * @param {unknown} value
 * @param {number} maxChars
 * @param {string} what
 */
export function toJsonText(value, maxChars, what) {
  let text;
  try {
    text = stringify(value === undefined ? null : value);
  } catch (err) {
    throw new TypeError(
      `${what}: arguments are not JSON-serializable (${err instanceof ErrorCtor ? err.message : "?"})`,
    );
  }
  if (typeof text === "string" && text.length > maxChars) {
    const err = new ErrorCtor(
      `${what}: arguments are ${text.length} characters of JSON; the limit is ${maxChars}. Pass less per call: split the data across calls`,
    );
    err.name = "LimitError";
    throw err;
  }
  return text ?? "null";
}
