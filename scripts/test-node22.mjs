// `npm run test:node22 [-- unit|e2e]`: the unit and end-to-end suites (npm run test:unit, npm run
// test:e2e), or the one named, under Node 22 — vitest, wrangler and the upstreams the e2e setup starts all run on it — and the
// end-to-end stacks on current wrangler unless WRANGLER_TOOLCHAIN=pinned (scripts/lib/toolchain.mjs),
// with the teardown-crash allowance of scripts/lib/test-suites.mjs.
import { spawnSync } from "node:child_process";
import { runTestSuites, SUITE_NAMES } from "./lib/test-suites.mjs";
import { NODE22_DIR, useToolchain } from "./lib/toolchain.mjs";

const only = process.argv.slice(2);
const unknown = only.filter((name) => !SUITE_NAMES.includes(name));
if (unknown.length > 0) {
  console.error(
    `[test:node22] unknown suite ${unknown.join(", ")}; name ${SUITE_NAMES.join(" or ")}, or none for both`,
  );
  process.exit(2);
}

const toolchain = await useToolchain("test:node22");

const inPath = spawnSync("node", ["-v"], { encoding: "utf8" }).stdout.trim();
if (inPath !== process.version) {
  console.error(`[test:node22] \`node\` in PATH is ${inPath}, not ${process.version}`);
  process.exit(1);
}
console.error(
  `[test:node22] Node ${process.version}, wrangler ${toolchain.wranglerVersion} (WRANGLER_TOOLCHAIN=${toolchain.wrangler})`,
);

process.exit(await runTestSuites("test:node22", NODE22_DIR, only.length > 0 ? only : SUITE_NAMES));
