// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals, so executions that never use it do not parse it. Gets the prelude's
// `worker`, the global object and its `bytesOf`; returns the globals it defines.
// URL and URLSearchParams (parsing by the worker's WHATWG URL).
(worker, _G) => {
  const apply = Reflect.apply;
  const parse = JSON.parse;
  // --- URL and URLSearchParams (parsing by the worker's WHATWG URL) ---------------------------------
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
  // The part names are the worker's (worker-functions.js urlParts): read from one parse, not kept here too.
  const URL_PARTS = Object.keys(parse(worker.parseUrl("https://example.invalid/", undefined)));
  /** each URL's parts (JSON from the worker) and its searchParams, kept out of agent code's reach */
  const urls = new WeakMap();
  const urlOf = (url) => {
    const state = urls.get(url);
    if (!state) throw new TypeError("Illegal invocation: not a URL");
    return state;
  };
  class URL {
    constructor(input, base) {
      const parts = worker.parseUrl(String(input), base === undefined ? undefined : String(base));
      if (parts === null) throw new TypeError(`Invalid URL: ${String(input).slice(0, 200)}`);
      urls.set(this, { parts: parse(parts), params: undefined });
    }
    static canParse(input, base) {
      return worker.parseUrl(String(input), base === undefined ? undefined : String(base)) !== null;
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
    const parts = worker.setUrl(state.parts.href, part, String(value));
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

  return { URL, URLSearchParams };
};
