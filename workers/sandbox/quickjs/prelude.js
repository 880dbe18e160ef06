// Runs inside each fresh QuickJS context before any other code (the `quickjs` engine, engine.js).
// QuickJS has the language (Object, Array, JSON, Math, Date, Map/Set, typed arrays, BigInt, Promise,
// RegExp, Proxy, Reflect) but none of the web platform; this gives agent code what the `isolate`
// engine gives it: console, timers, TextEncoder/TextDecoder, atob/btoa, crypto, structuredClone,
// URL/URLSearchParams, Headers/Request/Response and a `fetch` that refuses (network.js replaces it
// when the team has egress). What needs the host (bytes, randomness, URL parsing, timers, bridge
// calls) goes through `host`, an object only this function's closure holds.
//
// It also closes what QuickJS would otherwise open: `eval` and the Function constructors (Workers
// forbid code from strings; so does this engine), and Array methods that loop in C over an
// array-like's `length` without allocating or calling back into JS, which the interrupt handler
// never sees: those refuse a length over MAX_NATIVE_LENGTH before they start.
//
// Returns the bridge the runtime is given: each method sends its arguments as JSON text to the host,
// which calls the gateway's bridge over RPC and answers with JSON text. Bytes cross as base64 strings
// marked with a per-execution tag that agent code never sees.
(host, tag, bridgeMethods) => {
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
  define(G, "eval", function eval() {
    return noCodegen();
  });

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
      host.sleep(delay).then(() => {
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
  const start = Date.now();
  define(G, "performance", { now: () => Date.now() - start, timeOrigin: start });

  // --- bytes and text ----------------------------------------------------------------------------
  const bytesOf = (input, what) => {
    if (input instanceof AB) return new U8(input);
    if (isView(input)) return new U8(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError(`${what}: expected an ArrayBuffer or a typed array`);
  };
  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(input = "") {
      return toBytes(host.encodeUtf8(String(input)));
    }
    encodeInto(input, dest) {
      const bytes = this.encode(input);
      if (bytes.length <= dest.length) {
        dest.set(bytes);
        return { read: String(input).length, written: bytes.length };
      }
      let read = 0;
      let written = 0;
      for (const ch of String(input)) {
        const b = this.encode(ch);
        if (written + b.length > dest.length) break;
        dest.set(b, written);
        written += b.length;
        read += ch.length;
      }
      return { read, written };
    }
  }
  class TextDecoder {
    #fatal;
    #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      const l = String(label).toLowerCase();
      if (l !== "utf-8" && l !== "utf8" && l !== "unicode-1-1-utf-8")
        throw new RangeError(`TextDecoder: only utf-8 is supported in this sandbox, not "${label}"`);
      this.#fatal = Boolean(options?.fatal);
      this.#ignoreBOM = Boolean(options?.ignoreBOM);
    }
    get encoding() {
      return "utf-8";
    }
    get fatal() {
      return this.#fatal;
    }
    get ignoreBOM() {
      return this.#ignoreBOM;
    }
    decode(input) {
      if (input === undefined) return "";
      const bytes = bytesOf(input, "TextDecoder.decode");
      const text = host.decodeUtf8(bytes.slice().buffer, this.#fatal);
      if (text === null) throw new TypeError("TextDecoder.decode: the data is not valid UTF-8");
      return !this.#ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
  }
  define(G, "TextEncoder", TextEncoder);
  define(G, "TextDecoder", TextDecoder);
  define(G, "btoa", (text) => {
    const out = host.btoa(String(text));
    if (out === null)
      throw new DOMException("btoa: the string has characters outside Latin-1", "InvalidCharacterError");
    return out;
  });
  define(G, "atob", (text) => {
    const out = host.atob(String(text));
    if (out === null) throw new DOMException("atob: the string is not valid base64", "InvalidCharacterError");
    return out;
  });

  class DOMException extends Error {
    #name;
    constructor(message = "", name = "Error") {
      super(message);
      this.#name = String(name);
    }
    get name() {
      return this.#name;
    }
  }
  define(G, "DOMException", DOMException);

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
      throw new DOMException("crypto.getRandomValues: at most 65536 bytes at a time", "QuotaExceededError");
    new U8(array.buffer, array.byteOffset, array.byteLength).set(toBytes(host.random(array.byteLength)));
    return array;
  };
  const unsupported = (name) => async () => {
    throw new DOMException(
      `crypto.subtle.${name} is not available in this sandbox's engine (quickjs); digest is. A team on the isolate engine has all of crypto.subtle`,
      "NotSupportedError",
    );
  };
  const subtle = {};
  for (const name of ["encrypt", "decrypt", "sign", "verify", "generateKey", "deriveKey", "deriveBits", "importKey", "exportKey", "wrapKey", "unwrapKey"])
    subtle[name] = unsupported(name);
  subtle.digest = async (algorithm, data) => {
    const name = typeof algorithm === "string" ? algorithm : algorithm?.name;
    const bytes = bytesOf(data, "crypto.subtle.digest");
    return host.digest(String(name), bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer);
  };
  define(G, "crypto", { getRandomValues, randomUUID: () => host.uuid(), subtle });

  // --- structuredClone ---------------------------------------------------------------------------
  const cloneError = (what) =>
    new DOMException(`structuredClone: ${what} could not be cloned`, "DataCloneError");
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
  define(G, "structuredClone", (value) => {
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
  });

  // --- URL and URLSearchParams (parsing by the host's WHATWG URL) ---------------------------------
  const formEncode = (s) =>
    encodeURIComponent(s)
      .replace(/%20/g, "+")
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const formDecode = (s) => {
    const t = s.replace(/\+/g, " ");
    try {
      return decodeURIComponent(t);
    } catch {
      return t;
    }
  };
  class URLSearchParams {
    #list = [];
    #onChange;
    constructor(init = "", onChange) {
      this.#onChange = typeof onChange === "function" ? onChange : undefined;
      if (init instanceof URLSearchParams) this.#list = [...init.#list];
      else if (typeof init === "object" && init !== null) {
        if (typeof init[Symbol.iterator] === "function")
          for (const pair of init) {
            const [k, v, ...more] = [...pair];
            if (more.length || v === undefined)
              throw new TypeError("URLSearchParams: each pair must have exactly two items");
            this.#list.push([String(k), String(v)]);
          }
        else for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
      } else this.#parse(String(init));
    }
    #parse(text) {
      this.#list = [];
      for (const part of (text.startsWith("?") ? text.slice(1) : text).split("&")) {
        if (part === "") continue;
        const eq = part.indexOf("=");
        this.#list.push(
          eq < 0 ? [formDecode(part), ""] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))],
        );
      }
    }
    #changed() {
      this.#onChange?.(this.toString());
    }
    get size() {
      return this.#list.length;
    }
    append(k, v) {
      this.#list.push([String(k), String(v)]);
      this.#changed();
    }
    delete(k, v) {
      const key = String(k);
      this.#list = this.#list.filter(([a, b]) => !(a === key && (v === undefined || b === String(v))));
      this.#changed();
    }
    get(k) {
      const hit = this.#list.find(([a]) => a === String(k));
      return hit ? hit[1] : null;
    }
    getAll(k) {
      return this.#list.filter(([a]) => a === String(k)).map(([, b]) => b);
    }
    has(k, v) {
      return this.#list.some(([a, b]) => a === String(k) && (v === undefined || b === String(v)));
    }
    set(k, v) {
      const key = String(k);
      const i = this.#list.findIndex(([a]) => a === key);
      if (i < 0) this.#list.push([key, String(v)]);
      else {
        this.#list[i] = [key, String(v)];
        this.#list = this.#list.filter(([a], j) => j <= i || a !== key);
      }
      this.#changed();
    }
    sort() {
      this.#list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      this.#changed();
    }
    forEach(fn, thisArg) {
      for (const [k, v] of this.#list) apply(fn, thisArg, [v, k, this]);
    }
    *entries() {
      for (const [k, v] of this.#list) yield [k, v];
    }
    *keys() {
      for (const [k] of this.#list) yield k;
    }
    *values() {
      for (const [, v] of this.#list) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this.#list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join("&");
    }
    _reset(text) {
      this.#parse(text);
    }
  }
  const URL_PARTS = [
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
    "origin",
  ];
  /** each URL's parts (JSON from the host) and its searchParams, kept out of agent code's reach */
  const urls = new WeakMap();
  const urlOf = (url) => {
    const state = urls.get(url);
    if (!state) throw new TypeError("Illegal invocation: not a URL");
    return state;
  };
  class URL {
    constructor(input, base) {
      const parts = host.parseUrl(String(input), base === undefined ? undefined : String(base));
      if (parts === null) throw new TypeError(`Invalid URL: ${String(input).slice(0, 200)}`);
      urls.set(this, { parts: parse(parts), params: undefined });
    }
    static canParse(input, base) {
      return host.parseUrl(String(input), base === undefined ? undefined : String(base)) !== null;
    }
    static parse(input, base) {
      try {
        return new URL(input, base);
      } catch {
        return null;
      }
    }
    get searchParams() {
      const state = urlOf(this);
      state.params ??= new URLSearchParams(state.parts.search, (text) => setPart(state, "search", text));
      return state.params;
    }
    toString() {
      return urlOf(this).parts.href;
    }
    toJSON() {
      return urlOf(this).parts.href;
    }
  }
  const setPart = (state, part, value) => {
    const parts = host.setUrl(state.parts.href, part, String(value));
    if (parts !== null) state.parts = parse(parts);
  };
  for (const part of URL_PARTS)
    Object.defineProperty(URL.prototype, part, {
      configurable: true,
      enumerable: true,
      get() {
        return urlOf(this).parts[part];
      },
      ...(part === "origin"
        ? {}
        : {
            set(value) {
              const state = urlOf(this);
              setPart(state, part, value);
              if (part === "href" || part === "search") state.params?._reset(state.parts.search);
            },
          }),
    });
  define(G, "URL", URL);
  define(G, "URLSearchParams", URLSearchParams);

  // --- Headers, Request, Response, and fetch -----------------------------------------------------
  class Headers {
    #map = new Map();
    constructor(init) {
      if (init instanceof Headers) for (const [k, v] of init) this.append(k, v);
      else if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
      else if (init && typeof init === "object") for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    append(k, v) {
      const key = String(k).toLowerCase();
      const prev = this.#map.get(key);
      this.#map.set(key, prev === undefined ? String(v) : `${prev}, ${String(v)}`);
    }
    set(k, v) {
      this.#map.set(String(k).toLowerCase(), String(v));
    }
    get(k) {
      return this.#map.get(String(k).toLowerCase()) ?? null;
    }
    has(k) {
      return this.#map.has(String(k).toLowerCase());
    }
    delete(k) {
      this.#map.delete(String(k).toLowerCase());
    }
    forEach(fn, thisArg) {
      for (const [k, v] of this) apply(fn, thisArg, [v, k, this]);
    }
    *entries() {
      yield* [...this.#map].sort(([a], [b]) => (a < b ? -1 : 1));
    }
    *keys() {
      for (const [k] of this.entries()) yield k;
    }
    *values() {
      for (const [, v] of this.entries()) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }
  const bodyBytes = (body) => {
    if (body === undefined || body === null) return undefined;
    if (typeof body === "string") return new TextEncoder().encode(body);
    if (body instanceof URLSearchParams) return new TextEncoder().encode(body.toString());
    return bytesOf(body, "body").slice();
  };
  class Body {
    #bytes;
    #used = false;
    constructor(bytes) {
      this.#bytes = bytes;
    }
    get bodyUsed() {
      return this.#used;
    }
    #take() {
      if (this.#used) throw new TypeError("Body has already been used");
      this.#used = true;
      return this.#bytes ?? new U8(0);
    }
    async arrayBuffer() {
      return this.#take().slice().buffer;
    }
    async bytes() {
      return this.#take().slice();
    }
    async text() {
      return new TextDecoder().decode(this.#take());
    }
    async json() {
      return parse(await this.text());
    }
    _peek() {
      return this.#bytes;
    }
  }
  class Request extends Body {
    constructor(input, init = {}) {
      const from = input instanceof Request ? input : undefined;
      super(init.body !== undefined ? bodyBytes(init.body) : from?._peek());
      this.url = new URL(from ? from.url : String(input instanceof URL ? input.href : input)).href;
      this.method = String(init.method ?? from?.method ?? "GET").toUpperCase();
      this.headers = new Headers(init.headers ?? from?.headers);
      this.redirect = init.redirect ?? from?.redirect ?? "follow";
    }
  }
  class Response extends Body {
    constructor(body, init = {}) {
      super(bodyBytes(body));
      this.status = init.status ?? 200;
      this.statusText = init.statusText ?? "";
      this.headers = new Headers(init.headers);
      this.url = init.url ?? "";
      this.redirected = Boolean(init.redirected);
    }
    get ok() {
      return this.status >= 200 && this.status < 300;
    }
    static json(data, init) {
      return new Response(stringify(data), {
        ...init,
        headers: { "content-type": "application/json", ...(init?.headers ?? {}) },
      });
    }
  }
  define(G, "Headers", Headers);
  define(G, "Request", Request);
  define(G, "Response", Response);
  define(G, "fetch", async () => {
    throw new TypeError("Network connection lost: this worker is not permitted to access the internet");
  });

  // --- the bridge ------------------------------------------------------------------------------
  // Bytes travel beside the JSON, not in it: each ArrayBuffer or view becomes `tag + index` in the
  // text and its buffer goes in the list; the host answers the same way.
  const send = (method, args) => {
    const buffers = [];
    const text = stringify(args, (_key, value) => {
      if (!(value instanceof AB) && !isView(value)) return value;
      const whole = value instanceof AB || (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength);
      buffers.push(value instanceof AB ? value : whole ? value.buffer : value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
      return tag + (buffers.length - 1);
    });
    return host.call(method, text, buffers).then(([answer, ...got]) =>
      parse(answer, (_key, value) =>
        typeof value === "string" && value.startsWith(tag) ? new U8(got[Number(value.slice(tag.length))]) : value,
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
    return new Response(answer.body, answer);
  };
  return Object.freeze(bridge);
};
