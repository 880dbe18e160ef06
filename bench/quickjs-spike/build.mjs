// Bundles engine.js for the Dynamic Worker (QuickJS glue inlined, the wasm left as its own module)
// and copies the wasm: `node build.mjs` (QuickJS) or `node build.mjs ng` (quickjs-ng).
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { build } from "../../node_modules/esbuild/lib/main.js";

const pkg =
  process.argv[2] === "ng" ? "@jitl/quickjs-ng-wasmfile-release-sync" : "@jitl/quickjs-wasmfile-release-sync";
mkdirSync("build", { recursive: true });
const bundled = await build({
  entryPoints: ["engine.js"],
  bundle: true,
  write: false,
  format: "esm",
  platform: "neutral",
  conditions: ["workerd", "worker", "import"],
  mainFields: ["module", "main"],
  alias: { QUICKJS_VARIANT: pkg },
  external: ["cloudflare:workers", "./quickjs.wasm"],
  logLevel: "warning",
});
writeFileSync("build/engine.txt", bundled.outputFiles[0].text);
copyFileSync(`node_modules/${pkg}/dist/emscripten-module.wasm`, "build/quickjs.bin");
console.log(`${pkg}: engine ${bundled.outputFiles[0].text.length} chars`);
