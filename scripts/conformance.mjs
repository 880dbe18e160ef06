// `npm run conformance`: the MCP conformance suite (scripts/conformance/run.mjs) under Node 22
// against a local stack of its own (scripts/lib/stack.mjs, as `npm run dev` runs it), on current
// wrangler unless WRANGLER_TOOLCHAIN=pinned. The end-to-end suite runs the same scenarios against
// its stack (test/e2e/conformance.e2e.test.ts). `npm run conformance -- ping` runs one scenario (in
// each era that has it).
import { randomBytes } from "node:crypto";
import { runConformance } from "./conformance/run.mjs";
import { startStack } from "./lib/stack.mjs";
import { conformanceNode, useToolchain } from "./lib/toolchain.mjs";

const toolchain = await useToolchain("conformance");
const only = process.argv.slice(2);

async function main() {
  const key = `conformance_${randomBytes(16).toString("hex")}`;
  const starting = startStack({ vars: { DEV_API_KEY: key }, persist: "temp", envFile: null, log: () => {} });
  // wrangler dev runs in its own process groups: on Ctrl-C (which may arrive twice, from the terminal
  // and from the Node 20 parent), stop it, once it has started if it is still starting.
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      starting.then((s) => s.stop()).finally(() => process.exit(130));
    });
  }
  const stack = await starting;
  try {
    const about = ` on Node ${process.version}, wrangler ${toolchain.wranglerVersion}`;
    const node = conformanceNode();
    const { ok } = await runConformance({ gatewayUrl: stack.url, key, node, only, about });
    return ok;
  } finally {
    await stack.stop();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error(`[conformance] ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  },
);
