// Runs inside each fresh QuickJS context before any other code (the `quickjs` engine, interpreter.js).
// QuickJS has the language (Object, Array, JSON, Math, Date, Map/Set, typed arrays, BigInt, Promise,
// RegExp, Proxy, Reflect) but none of the web platform; this gives agent code what the `isolate`
// engine gives it: console, timers, TextEncoder/TextDecoder, atob/btoa, crypto, structuredClone,
// URL/URLSearchParams, Headers/Request/Response and a `fetch` that refuses (network.js replaces it
// when the team has egress). What needs the worker (bytes, randomness, URL parsing, timers, bridge
// calls) goes through `worker`, an object only this function's closure holds.
//
// It also closes what QuickJS would otherwise open: `eval` and the Function constructors (Workers
// forbid code from strings; so does this engine), and Array methods that loop in C over an
// array-like's `length` without allocating or calling back into JS, which the interrupt handler
// never sees: those refuse a length over MAX_NATIVE_LENGTH before they start.
//
// Returns the bridge the runtime is given (and `begin`, which starts an execution): each method sends
// its arguments as JSON text to the worker, which calls the gateway's bridge over RPC and answers
// with JSON text; byte arrays cross beside it, marked in the text with a per-execution tag.
(worker, bridgeMethods, answers, builtins) => {
  const G = globalThis;
  const define = (target, name, value) =>
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const U8 = Uint8Array;
  const AB = ArrayBuffer;
  const isView = ArrayBuffer.isView;
  const toBytes = (buffer) => new U8(buffer);
  /** An ArrayBuffer or a view as a Uint8Array over the same bytes (polyfill groups get it too). */
  const bytesOf = (input, what) => {
    if (input instanceof AB) return new U8(input);
    if (isView(input)) return new U8(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError(`${what}: expected an ArrayBuffer or a typed array`);
  };
  /** The ArrayBuffer holding exactly these bytes: the view's own when it spans it, else a copy. */
  const bufferOf = (bytes) =>
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.slice().buffer;

  // The original eval, kept in this closure for the polyfill groups (sources from the worker only).
  const evalSource = G.eval;

  // --- code from strings: refused, as on Workers -------------------------------------------------
  const noCodegen = () => {
    throw new EvalError("Code generation from strings disallowed for this context");
  };
  const fnProtos = [
    Function.prototype,
    Object.getPrototypeOf(async () => {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const proto of fnProtos) {
    // A function, not an arrow: `new Function(…)` must reach it (and throw EvalError) too.
    // biome-ignore lint/complexity/useArrowFunction: arrows cannot be called with `new`
    const stand = function () {
      return noCodegen();
    };
    Object.defineProperty(stand, "prototype", { value: proto, writable: false });
    define(proto, "constructor", stand);
  }
  define(G, "Function", Function.prototype.constructor);
  define(
    G,
    "eval",
    {
      eval() {
        return noCodegen();
      },
    }.eval,
  );

  // --- natives that loop over a huge length without the interrupt handler ----------------------
  const MAX_NATIVE_LENGTH = 2 ** 24;
  const lengthOf = (value) => {
    if (value === null || value === undefined || (typeof value !== "object" && typeof value !== "function"))
      return 0;
    const n = Number(value.length);
    return n > 0 ? n : 0;
  };
  const tooLong = (name, n) => {
    const err = new RangeError(
      `${name}: a length of ${n} is over this sandbox's ${MAX_NATIVE_LENGTH}; work in smaller pieces`,
    );
    err.name = "ResourceLimitError";
    return err;
  };
  const AP = Array.prototype;
  for (const name of Object.getOwnPropertyNames(AP)) {
    const native = AP[name];
    if (name === "constructor" || typeof native !== "function") continue;
    const spreads = name === "concat";
    const guarded = {
      [name](...args) {
        const n = lengthOf(this);
        if (n > MAX_NATIVE_LENGTH) throw tooLong(`Array.prototype.${name}`, n);
        if (spreads)
          for (const arg of args) {
            const m = lengthOf(arg);
            if (m > MAX_NATIVE_LENGTH) throw tooLong("Array.prototype.concat", m);
          }
        return apply(native, this, args);
      },
    }[name];
    Object.defineProperty(guarded, "length", { value: native.length, configurable: true });
    define(AP, name, guarded);
  }
  if (AP[Symbol.iterator] !== AP.values) define(AP, Symbol.iterator, AP.values);
  const arrayFrom = Array.from;
  define(Array, "from", function from(items, ...rest) {
    const n = items && typeof items[Symbol.iterator] !== "function" ? lengthOf(items) : 0;
    if (n > MAX_NATIVE_LENGTH) throw tooLong("Array.from", n);
    return apply(arrayFrom, this, [items, ...rest]);
  });

  // --- V8's Error.captureStackTrace, which the runtime uses to say where a call was made ---------
  if (typeof Error.captureStackTrace !== "function")
    define(Error, "captureStackTrace", (target) => {
      if (target === null || typeof target !== "object")
        throw new TypeError("captureStackTrace: target must be an object");
      define(target, "stack", new Error().stack);
    });

  // --- V8's answers and errors where QuickJS has none or others (polyfills/v8*.js, given evaluated) -
  const helpers = { define, lengthOf, tooLong, MAX_NATIVE_LENGTH };
  const v8 = answers(worker, G, helpers);
  builtins(worker, G, helpers, v8);

  // --- console: the runtime replaces its methods with the capturing ones --------------------------
  const noop = () => {};
  define(G, "console", {});
  for (const level of ["log", "info", "warn", "error", "debug", "trace", "dir", "table", "assert"])
    G.console[level] = noop;

  // --- timers ------------------------------------------------------------------------------------
  let nextTimer = 1;
  const live = new Map();
  const schedule = (fn, ms, args, repeat) => {
    if (typeof fn !== "function") throw new TypeError("setTimeout: the callback must be a function");
    const id = nextTimer++;
    const delay = Math.max(0, Math.min(Number(ms) || 0, 2 ** 31 - 1));
    live.set(id, true);
    const arm = () =>
      worker.sleep(delay).then(() => {
        if (!live.has(id)) return;
        if (repeat) arm();
        else live.delete(id);
        apply(fn, undefined, args);
      });
    arm();
    return id;
  };
  const cancel = (id) => {
    live.delete(id);
  };
  define(G, "setTimeout", (fn, ms, ...args) => schedule(fn, ms, args, false));
  define(G, "setInterval", (fn, ms, ...args) => schedule(fn, Math.max(Number(ms) || 0, 1), args, true));
  define(G, "clearTimeout", cancel);
  define(G, "clearInterval", cancel);
  define(G, "queueMicrotask", (fn) => {
    if (typeof fn !== "function") throw new TypeError("queueMicrotask: the callback must be a function");
    Promise.resolve().then(() => fn());
  });
  let start = Date.now();
  define(G, "performance", {
    now: () => Date.now() - start,
    get timeOrigin() {
      return start;
    },
  });

  // --- globals made on first use (polyfills/*.js, from the worker) ------------------------------
  const GROUPS = {
    text: ["TextEncoder", "TextDecoder"],
    dom: ["DOMException"],
    clone: ["structuredClone"],
    url: ["URL", "URLSearchParams"],
    fetch: ["Headers", "Request", "Response"],
    intl: ["Intl"],
    abort: ["AbortController", "AbortSignal"],
  };
  for (const [group, names] of Object.entries(GROUPS)) {
    const load = () => {
      const made = evalSource(worker.polyfill(group))(worker, G, bytesOf, v8);
      for (const name of names) define(G, name, made[name]);
    };
    for (const name of names)
      Object.defineProperty(G, name, {
        configurable: true,
        enumerable: false,
        get() {
          load();
          return G[name];
        },
        set(value) {
          define(G, name, value);
        },
      });
  }
  define(G, "btoa", (text) => {
    const out = worker.btoa(String(text));
    if (out === null)
      throw new G.DOMException("btoa: the string has characters outside Latin-1", "InvalidCharacterError");
    return out;
  });
  define(G, "atob", (text) => {
    const out = worker.atob(String(text));
    if (out === null)
      throw new G.DOMException("atob: the string is not valid base64", "InvalidCharacterError");
    return out;
  });

  // --- crypto ------------------------------------------------------------------------------------
  const getRandomValues = (array) => {
    if (
      !isView(array) ||
      array instanceof Float32Array ||
      array instanceof Float64Array ||
      array instanceof DataView
    )
      throw new TypeError("crypto.getRandomValues: expected an integer typed array");
    if (array.byteLength > 65536)
      throw new G.DOMException("crypto.getRandomValues: at most 65536 bytes at a time", "QuotaExceededError");
    new U8(array.buffer, array.byteOffset, array.byteLength).set(toBytes(worker.random(array.byteLength)));
    return array;
  };
  const unsupported = (name) => async () => {
    throw new G.DOMException(
      `crypto.subtle.${name} is not available in this sandbox's engine (quickjs); digest is. A team on the isolate engine has all of crypto.subtle`,
      "NotSupportedError",
    );
  };
  const subtle = {};
  for (const name of [
    "encrypt",
    "decrypt",
    "sign",
    "verify",
    "generateKey",
    "deriveKey",
    "deriveBits",
    "importKey",
    "exportKey",
    "wrapKey",
    "unwrapKey",
  ])
    subtle[name] = unsupported(name);
  subtle.digest = async (algorithm, data) => {
    const name = typeof algorithm === "string" ? algorithm : algorithm?.name;
    return worker.digest(String(name), bufferOf(bytesOf(data, "crypto.subtle.digest")));
  };
  define(G, "crypto", { getRandomValues, randomUUID: () => worker.uuid(), subtle });
  define(G, "fetch", async () => {
    throw new TypeError("Network connection lost: this worker is not permitted to access the internet");
  });

  // --- the bridge ------------------------------------------------------------------------------
  // Bytes travel beside the JSON, not in it: each ArrayBuffer or view becomes `tag + index` (the
  // execution's tag, given to `begin`) in the text, its buffer in the list; the worker answers alike.
  let tag = "";
  const send = (method, args) => {
    const buffers = [];
    const text = stringify(args, (_key, value) => {
      if (!(value instanceof AB) && !isView(value)) return value;
      buffers.push(bufferOf(bytesOf(value, "bridge")));
      return tag + (buffers.length - 1);
    });
    return worker.call(method, text, buffers).then(([answer, ...got]) =>
      // A reviver runs JS for every value: only when the answer carries bytes (tool results rarely do).
      got.length === 0
        ? parse(answer)
        : parse(answer, (_key, value) =>
            typeof value === "string" && value.startsWith(tag)
              ? new U8(got[Number(value.slice(tag.length))])
              : value,
          ),
    );
  };
  const bridge = {};
  for (const method of bridgeMethods) bridge[method] = (...args) => send(method, args);
  bridge.fetch = async (request) => {
    const body = request._peek();
    const answer = await send("fetch", [
      {
        url: request.url,
        method: request.method,
        headers: [...request.headers],
        redirect: request.redirect,
        body,
      },
    ]);
    return new G.Response(answer.body, answer);
  };
  /** Called when an execution takes this interpreter (made ahead): its clock starts, its tag is set. */
  const begin = (executionTag) => {
    start = Date.now();
    tag = executionTag;
  };
  return { bridge: Object.freeze(bridge), begin };
};
