// The natives the memory meter (memory.js) watches, in place of the realm's own: the same name,
// length and behaviour, plus a size check or a container's charge when the meter is armed.
import {
  armMeter,
  arrayItems,
  bindCall,
  fits,
  grew,
  mapSize,
  meterArmed,
  SLOT,
  setSize,
  shallow,
} from "./memory.js";

const {
  apply,
  construct,
  defineProperty,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  ownKeys,
  setPrototypeOf,
} = Reflect;
const { isArray } = Array;
const MapCtor = Map;
const SetCtor = Set;
const ArrayBufferCtor = ArrayBuffer;
const SharedArrayBufferCtor = SharedArrayBuffer;
const { max, min, trunc } = Math;
const TYPED_ARRAYS = [
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
];

/** A Map's entry: its two slots' shallow sizes beyond the one SLOT grew counts. */
const mapItems = (
  /** @type {unknown} */ _m,
  /** @type {number} */ _n,
  /** @type {unknown} */ key,
  /** @type {unknown} */ value,
) => SLOT + shallow(key) + shallow(value);
const setItems = (/** @type {unknown} */ _s, /** @type {number} */ _n, /** @type {unknown} */ value) =>
  shallow(value);

/** The elements `[start, end)` of a `length`-long array-like span, as Array.prototype.fill reads them. */
function span(/** @type {number} */ length, /** @type {unknown} */ start, /** @type {unknown} */ end) {
  const at = (/** @type {unknown} */ v, /** @type {number} */ otherwise) => {
    if (v === undefined) return otherwise;
    const n = trunc(Number(v)) || 0;
    return n < 0 ? max(length + n, 0) : min(n, length);
  };
  return max(at(end, length) - at(start, 0), 0);
}

/** @param {unknown} value */
function lengthOf(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return 0;
  const n = Number(/** @type {{ length?: unknown }} */ (value).length);
  return n > 0 ? n : 0;
}

/**
 * Puts the metered natives in place of the realm's own and arms the meter: once per isolate, before
 * the agent's code runs.
 * @param {(stop: { name: string, message: string }) => void} stop told once, when the budget is exceeded
 */
export function meterMemory(stop) {
  install();
  armMeter(stop);
}

let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const AP = Array.prototype;
  for (const name of ["push", "unshift"])
    method(AP, name, (native) => {
      const callOne = bindCall(native);
      // `arguments`, not a rest parameter: the common call, one item, allocates no array.
      return function (/** @type {unknown} */ item) {
        // biome-ignore lint/complexity/noArguments: see above
        const all = arguments;
        const size = all.length === 1 ? callOne(this, item) : apply(native, this, all);
        grew(this, size - all.length, size, arrayItems);
        return size;
      };
    });
  method(
    AP,
    "splice",
    (native) =>
      function (/** @type {unknown[]} */ ...args) {
        const before = lengthOf(this);
        const removed = apply(native, this, args);
        grew(this, before, lengthOf(this), arrayItems);
        return removed;
      },
  );
  // The size is read after the native, which checked the receiver: an overwrite counts as growth,
  // which only measures again a container that sits at a checkpoint.
  method(MapCtor.prototype, "set", (native) => {
    const call = bindCall(native);
    return function (/** @type {unknown} */ key, /** @type {unknown} */ value) {
      const result = call(this, key, value);
      if (meterArmed()) {
        const size = mapSize(this);
        grew(this, size - 1, size, mapItems, key, value);
      }
      return result;
    };
  });
  method(SetCtor.prototype, "add", (native) => {
    const call = bindCall(native);
    return function (/** @type {unknown} */ value) {
      const result = call(this, value);
      if (meterArmed()) {
        const size = setSize(this);
        grew(this, size - 1, size, setItems, value);
      }
      return result;
    };
  });
  // One value of a size the code chooses: checked before it is made when the size is known.
  before(AP, "fill", (self, args) => span(lengthOf(self), args[1], args[2]) * SLOT);
  before(AP, "concat", (self, args) => {
    let n = lengthOf(self);
    for (const arg of args) n += isArray(arg) ? lengthOf(arg) : 1;
    return n * SLOT;
  });
  before(AP, "join", (self, [separator]) => {
    const gaps = max(lengthOf(self) - 1, 0);
    return gaps * (typeof separator === "string" ? separator.length : 1);
  });
  before(Array, "from", (_self, [items]) =>
    items !== null && items !== undefined && typeof Object(items)[Symbol.iterator] !== "function"
      ? lengthOf(items) * SLOT
      : 0,
  );
  const SP = String.prototype;
  before(SP, "repeat", (self, args) => (typeof self === "string" ? self.length * (Number(args[0]) || 0) : 0));
  for (const name of ["padStart", "padEnd"]) before(SP, name, (_self, args) => Number(args[0]) || 0);
  for (const name of ["concat", "replace", "replaceAll", "repeat", "padStart", "padEnd"]) after(SP, name);
  after(AP, "join");
  for (const name of ["ArrayBuffer", "SharedArrayBuffer"])
    sizedConstructor(name, (_self, args) => max(Number(args[0]) || 0, Number(args[1]?.maxByteLength) || 0));
  for (const name of TYPED_ARRAYS) {
    const perElement = /** @type {{ BYTES_PER_ELEMENT: number }} */ (globalThis[name]).BYTES_PER_ELEMENT;
    sizedConstructor(name, (_self, [first]) =>
      typeof first === "object" && first !== null
        ? first instanceof ArrayBufferCtor || first instanceof SharedArrayBufferCtor
          ? 0
          : lengthOf(first) * perElement
        : (Number(first) || 0) * perElement,
    );
  }
  before(ArrayBuffer.prototype, "resize", (_self, args) => Number(args[0]) || 0);
  before(ArrayBuffer.prototype, "transfer", (_self, args) => Number(args[0]) || 0);
  before(SharedArrayBuffer.prototype, "grow", (_self, args) => Number(args[0]) || 0);
}

/**
 * Replaces `target[name]` with `make(native)`, keeping the native's name, length and attributes.
 * @param {any} target @param {string} name @param {(native: Function) => Function} make
 */
function method(target, name, make) {
  const descriptor = getOwnPropertyDescriptor(target, name);
  if (typeof descriptor?.value !== "function") return;
  const native = descriptor.value;
  const wrapped = make(native);
  defineProperty(wrapped, "name", { value: native.name });
  defineProperty(wrapped, "length", { value: native.length });
  defineProperty(target, name, { ...descriptor, value: wrapped });
}

/**
 * The size `bytes` reads from a call's receiver and arguments; 0 when reading it throws (the native
 * then says what was wrong).
 * @param {(self: any, args: any[]) => number} bytes @param {unknown} self @param {unknown[]} args
 */
function sized(bytes, self, args) {
  try {
    const n = bytes(self, args);
    return n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/**
 * `target[name]` checks the value it will make (`bytes` of it) before making it.
 * @param {any} target @param {string} name @param {(self: any, args: any[]) => number} bytes
 */
function before(target, name, bytes) {
  method(
    target,
    name,
    (native) =>
      function (/** @type {unknown[]} */ ...args) {
        if (meterArmed()) fits(sized(bytes, this, args));
        return apply(native, this, args);
      },
  );
}

/** `target[name]` checks the string it made. @param {any} target @param {string} name */
function after(target, name) {
  method(
    target,
    name,
    (native) =>
      function (/** @type {unknown[]} */ ...args) {
        const made = apply(native, this, args);
        if (meterArmed() && typeof made === "string") fits(made.length);
        return made;
      },
  );
}

/**
 * The global constructor `name`, checking the bytes its instance will have before making it. Its
 * prototype's `constructor` and subclasses reach the wrapper; species (slice, subarray) does too.
 * @param {string} name @param {(self: unknown, args: any[]) => number} bytes
 */
function sizedConstructor(name, bytes) {
  const G = /** @type {Record<string, any>} */ (globalThis);
  const Native = G[name];
  if (typeof Native !== "function") return;
  const Wrapped = {
    /** @param {unknown[]} args */
    [name]: function (...args) {
      if (new.target === undefined) return apply(Native, this, args);
      if (meterArmed()) fits(sized(bytes, undefined, args));
      return construct(Native, args, new.target === Wrapped ? Native : new.target);
    },
  }[name];
  for (const key of ownKeys(Native)) {
    if (key === "prototype" || key === "name" || key === "length") continue;
    defineProperty(Wrapped, key, /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(Native, key)));
  }
  defineProperty(Wrapped, "prototype", { value: Native.prototype, writable: false });
  defineProperty(Wrapped, "name", { value: Native.name });
  defineProperty(Wrapped, "length", { value: Native.length });
  setPrototypeOf(Wrapped, getPrototypeOf(Native));
  defineProperty(Native.prototype, "constructor", { value: Wrapped, writable: true, configurable: true });
  defineProperty(G, name, { ...getOwnPropertyDescriptor(G, name), value: Wrapped });
}
