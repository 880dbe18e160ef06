// A polyfill group of the quickjs engine's prelude (prelude.js), evaluated the first time agent code
// reads one of its globals, so executions that never use it do not parse it. Gets the prelude's
// `worker`, the global object and its `bytesOf`; returns the globals it defines.
// TextEncoder and TextDecoder (UTF-8 by the worker).
(worker, _G, bytesOf) => {
  const U8 = Uint8Array;
  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(input = "") {
      return new U8(worker.encodeUtf8(String(input)));
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
      const text = worker.decodeUtf8(bytes.slice().buffer, this.#fatal);
      if (text === null) throw new TypeError("TextDecoder.decode: the data is not valid UTF-8");
      return !this.#ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
  }
  return { TextEncoder, TextDecoder };
};
