// The parent Worker: GET /?code=…&slot=…&fuel=… runs the code in the warm Dynamic Worker of that
// slot (LOADER.get with a fixed id: created once, then reused while warm).
import engineSource from "./build/engine.txt";
import wasmBytes from "./build/quickjs.bin";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const slot = url.searchParams.get("slot") ?? "0";
    const worker = env.LOADER.get(`spike:quickjs-1:${slot}`, async () => ({
      compatibilityDate: "2026-04-01",
      mainModule: "engine.js",
      modules: { "engine.js": engineSource, "quickjs.wasm": { wasm: wasmBytes } },
      globalOutbound: null,
      env: {},
    }));
    const out = await worker.getEntrypoint().run(url.searchParams.get("code") ?? "1 + 1", {
      fuel: Number(url.searchParams.get("fuel") ?? "2000"),
      shared: url.searchParams.get("shared") === "1",
    });
    return Response.json(out);
  },
};
