// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals, so executions that never use it do not parse it. Gets the prelude's
// `worker`, the global object and its `bytesOf`; returns the globals it defines.
// structuredClone.
(_worker, G) => {
  const AB = ArrayBuffer;
  const isView = ArrayBuffer.isView;
  // --- structuredClone ---------------------------------------------------------------------------
  const cloneError = (what) =>
    new G.DOMException(`structuredClone: ${what} could not be cloned`, "DataCloneError");
  const typedCtors = [
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
    BigInt64Array,
    BigUint64Array,
  ];
  const structuredClone = (value) => {
    const seen = new Map();
    const walk = (v) => {
      if (v === null || (typeof v !== "object" && typeof v !== "function")) {
        if (typeof v === "symbol") throw cloneError("a Symbol");
        return v;
      }
      if (typeof v === "function") throw cloneError("a function");
      if (seen.has(v)) return seen.get(v);
      let out;
      if (Array.isArray(v)) {
        out = [];
        seen.set(v, out);
        for (let i = 0; i < v.length; i++) if (i in v) out[i] = walk(v[i]);
        out.length = v.length;
        return out;
      }
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof AB) out = v.slice(0);
      else if (v instanceof DataView) out = new DataView(v.buffer.slice(0), v.byteOffset, v.byteLength);
      else if (isView(v)) {
        const Ctor = typedCtors.find((C) => v instanceof C);
        out = new Ctor(v);
      } else if (v instanceof Map) {
        out = new Map();
        seen.set(v, out);
        for (const [k, x] of v) out.set(walk(k), walk(x));
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        seen.set(v, out);
        for (const x of v) out.add(walk(x));
        return out;
      } else if (v instanceof Error) {
        out = new Error(v.message);
        out.name = v.name;
        if (typeof v.stack === "string") out.stack = v.stack;
      } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet)
        throw cloneError(`a ${v.constructor.name}`);
      else {
        out = {};
        seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = walk(v[k]);
        return out;
      }
      seen.set(v, out);
      return out;
    };
    return walk(value);
  };
  return { structuredClone };
};
