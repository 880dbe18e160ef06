// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals. Gets the prelude's `worker` and the global object; returns the globals it
// defines. AbortController and AbortSignal (with its own listeners: there is no EventTarget).
(_worker, G) => {
  const abortError = () => new G.DOMException("This operation was aborted", "AbortError");
  class AbortSignal {
    #aborted = false;
    #reason = undefined;
    #listeners = [];
    onabort = null;
    get aborted() {
      return this.#aborted;
    }
    get reason() {
      return this.#reason;
    }
    throwIfAborted() {
      if (this.#aborted) throw this.#reason;
    }
    addEventListener(type, listener, options) {
      if (type !== "abort" || typeof listener !== "function") return;
      this.#listeners.push({ listener, once: options === true ? false : Boolean(options?.once) });
    }
    removeEventListener(type, listener) {
      if (type === "abort") this.#listeners = this.#listeners.filter((l) => l.listener !== listener);
    }
    static abort(reason) {
      const signal = new AbortSignal();
      signal.#fire(reason === undefined ? abortError() : reason);
      return signal;
    }
    static timeout(ms) {
      const signal = new AbortSignal();
      setTimeout(() => signal.#fire(new G.DOMException("The operation timed out.", "TimeoutError")), ms);
      return signal;
    }
    static any(signals) {
      const signal = new AbortSignal();
      for (const s of signals) {
        if (s.aborted) return AbortSignal.abort(s.reason);
        s.addEventListener("abort", () => signal.#fire(s.reason), { once: true });
      }
      return signal;
    }
    #fire(reason) {
      if (this.#aborted) return;
      this.#aborted = true;
      this.#reason = reason;
      const event = { type: "abort", target: this };
      if (typeof this.onabort === "function") this.onabort(event);
      const listeners = this.#listeners;
      this.#listeners = [];
      for (const { listener } of listeners) listener.call(this, event);
    }
    static _fire(signal, reason) {
      signal.#fire(reason === undefined ? abortError() : reason);
    }
  }
  const fire = AbortSignal._fire;
  delete AbortSignal._fire;
  class AbortController {
    #signal = new AbortSignal();
    get signal() {
      return this.#signal;
    }
    abort(reason) {
      fire(this.#signal, reason);
    }
  }
  return { AbortController, AbortSignal };
};
