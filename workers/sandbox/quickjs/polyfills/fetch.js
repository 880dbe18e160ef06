// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals, so executions that never use it do not parse it. Gets the prelude's
// `worker`, the global object and its `bytesOf`; returns the globals it defines.
// Headers, Request and Response (the fetch() that reaches the network is network.js's, over the bridge).
(_worker, G, bytesOf) => {
  const U8 = Uint8Array;
  const apply = Reflect.apply;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
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
    if (typeof body === "string") return new G.TextEncoder().encode(body);
    if (body instanceof G.URLSearchParams) return new G.TextEncoder().encode(body.toString());
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
      return new G.TextDecoder().decode(this.#take());
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
      this.url = new G.URL(from ? from.url : String(input instanceof G.URL ? input.href : input)).href;
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
  return { Headers, Request, Response };
};
