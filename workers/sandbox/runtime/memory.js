// The isolate engine's memory meter. Local workerd sets an isolate no memory limit: a memory bomb
// grew until V8's heap limit ended the whole process (~1.4 GB, ~9 s), or ran to its time limit.
// Cloudflare ends an isolate at 128 MB; this fence is the same everywhere, with the share of those
// 128 MB that code may hold (ISOLATE_METER_BYTES). It sees what passes through natives
// (memory-natives.js puts them in place), in two ways:
// - a native that makes one value of a size the code chooses (fill, Array.from, concat, join, repeat,
//   padStart/padEnd, String concat/replace/replaceAll, typed arrays, array buffers) refuses one larger
//   than what is free, before making it when the size is known;
// - an Array, Map or Set that a native grows (push, unshift, splice, set, add, the Map and Set
//   constructors) is charged, four times per doubling of its size from 16, its size times a slot
//   plus the average shallow size of a sample of its elements, replacing its last charge; a
//   collected container gives its charge back (FinalizationRegistry: only between the code's awaits).
// Over the budget the execution stops with ResourceLimitError, and stays stopped (the guard too).
// Not seen: memory grown by syntax alone (`o[k] = v`, `s += t`, literals); there Cloudflare's limit,
// and locally the time limit and V8's heap limit, are the bounds (docs/security.md). Armed by
// runtime.js before the agent's code runs; off once the run is over, when the runtime reports.
import { ERROR_CAPS } from "../../../shared/contract/caps";
import { ISOLATE_METER_BYTES, memoryLimitError } from "../../../shared/contract/engine";
import { clip } from "./intrinsics.js";

const { getOwnPropertyDescriptor } = Reflect;
const { isArray } = Array;
const { isView } = ArrayBuffer;
const ErrorCtor = Error;
const MapCtor = Map;
const SetCtor = Set;
const ArrayBufferCtor = ArrayBuffer;
const SharedArrayBufferCtor = SharedArrayBuffer;
const clz32 = Math.clz32;
const floor = Math.floor;
const keysOf = Object.keys;
/** the bytes the meter counts for one element's slot in an array, Map or Set */
export const SLOT = 8;
/** and for an object's or a string's header */
const HEADER = 16;
const FunctionCall = Function.prototype.call;
/** @param {Function} fn @returns {(self: unknown, ...args: unknown[]) => any} `fn` called on `self` */
export const bindCall = (fn) => FunctionCall.bind(fn);
export const mapSize = bindCall(
  /** @type {Function} */ (getOwnPropertyDescriptor(Map.prototype, "size")?.get),
);
export const setSize = bindCall(
  /** @type {Function} */ (getOwnPropertyDescriptor(Set.prototype, "size")?.get),
);
/** containers smaller than this are never charged */
const MIN_CHARGED = 16;
const SAMPLES = 8;

let armed = false;
/** whether the meter counts now (natives check it first: off, they are the natives plus a call) */
export const meterArmed = () => armed;
let held = 0;
/** @type {{ name: string, message: string, stack?: string } | null} */
let stopped = null;
/** @type {(stop: { name: string, message: string }) => void} */
let onStop = () => {};
/** @type {WeakMap<object, { bytes: number }>} the charge of each charged container */
const charges = new WeakMap();
const returned = new FinalizationRegistry((/** @type {{ bytes: number }} */ charge) => {
  held -= charge.bytes;
});
let measuring = false;

/**
 * Arms the meter with ISOLATE_METER_BYTES (memory-natives.js `meterMemory`).
 * @param {(stop: { name: string, message: string }) => void} stop told once, when the budget is exceeded
 */
export function armMeter(stop) {
  onStop = stop;
  armed = true;
}

/** The meter's stop (with where it happened), if any; from now on it meters nothing: the run is over. */
export function meterState() {
  armed = false;
  return stopped;
}

/** Ends the execution: the budget is spent. Every later metered call throws again. */
function exceed() {
  if (stopped === null) {
    const { name, message } = memoryLimitError(ISOLATE_METER_BYTES);
    const err = new ErrorCtor(message);
    err.name = name;
    const stack = typeof err.stack === "string" ? { stack: clip(err.stack, ERROR_CAPS.stack) } : {};
    stopped = { name, message, ...stack };
    onStop({ name, message });
  }
  const again = new ErrorCtor(stopped.message);
  again.name = stopped.name;
  throw again;
}

/** A value of `bytes` about to be made (or just made): refused when it does not fit what is free. */
export function fits(/** @type {number} */ bytes) {
  if (!armed) return;
  if (stopped !== null || !(bytes <= ISOLATE_METER_BYTES - held)) exceed();
}

/**
 * A container that grew from `before` to `size`: charged again each time its size passes a quarter
 * of the way to the next power of two (16, 20, 24, 28, 32, 40, …), so at most 25% behind.
 * @param {object} container @param {number} before @param {number} size
 * @param {(container: any, size: number, a?: unknown, b?: unknown) => number} perItem its items' average shallow size
 * @param {unknown} [a] @param {unknown} [b] what was just added, for `perItem`
 */
export function grew(container, before, size, perItem, a, b) {
  if (!armed || measuring || size < MIN_CHARGED) return;
  const shift = 29 - clz32(size);
  if (clz32(size) === clz32(before) && size >>> shift === before >>> shift) return;
  measuring = true;
  let bytes = size * SLOT;
  try {
    bytes += size * perItem(container, size, a, b);
  } catch {
    // an element's getter or proxy threw: its slot is what is counted
  } finally {
    measuring = false;
  }
  let charge = charges.get(container);
  if (charge === undefined) {
    charge = { bytes: 0 };
    charges.set(container, charge);
    returned.register(container, charge);
  }
  held += bytes - charge.bytes;
  charge.bytes = bytes;
  if (stopped !== null || held > ISOLATE_METER_BYTES) exceed();
}

/**
 * What one element holds beyond its slot, roughly as V8 does: a header, and a string's characters, a
 * buffer's bytes, a slot per element of an array, entry of a Map or Set, own key of an object.
 * @param {unknown} value
 */
export function shallow(value) {
  if (typeof value === "string") return HEADER + value.length;
  if (typeof value !== "object" || value === null) return 0;
  if (isArray(value)) return HEADER + value.length * SLOT;
  if (isView(value) || value instanceof ArrayBufferCtor || value instanceof SharedArrayBufferCtor)
    return HEADER + /** @type {ArrayBuffer} */ (value).byteLength;
  if (value instanceof MapCtor) return HEADER + mapSize(value) * 2 * SLOT;
  if (value instanceof SetCtor) return HEADER + setSize(value) * SLOT;
  return HEADER + keysOf(value).length * SLOT;
}

/** Average shallow size of SAMPLES elements spread over an array-like. */
export function arrayItems(/** @type {ArrayLike<unknown>} */ list, /** @type {number} */ size) {
  let sum = 0;
  for (let i = 0; i < SAMPLES; i++) sum += shallow(list[floor(((i + 0.5) * size) / SAMPLES)]);
  return sum / SAMPLES;
}
