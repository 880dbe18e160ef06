// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals, so executions that never use it do not parse it. Gets the prelude's
// `worker`, the global object and its `bytesOf`; returns the globals it defines.
// DOMException.
(_worker, _G) => {
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
  return { DOMException };
};
