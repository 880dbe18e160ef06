// `npm run test:node22`: the unit and end-to-end suites (npm run test:unit, npm run test:e2e) under
// Node 22 — vitest, wrangler and the upstreams the e2e setup starts all run on it (scripts/lib/node22.mjs),
// and the end-to-end stacks on the current wrangler of the Node 22 toolchain (WRANGLER_TOOLCHAIN),
// with the teardown-crash allowance of scripts/lib/test-suites.mjs.
import { spawnSync } from "node:child_process";
import { reexecUnderNode22, TOOLCHAIN } from "./lib/node22.mjs";
import { runTestSuites } from "./lib/test-suites.mjs";
import { preferCurrentWrangler, wranglerVersion } from "./lib/wrangler-dev.mjs";

await reexecUnderNode22();
preferCurrentWrangler();

const inPath = spawnSync("node", ["-v"], { encoding: "utf8" }).stdout.trim();
if (inPath !== process.version) {
  console.error(`[test:node22] \`node\` in PATH is ${inPath}, not ${process.version}`);
  process.exit(1);
}
console.error(
  `[test:node22] Node ${process.version}, wrangler ${wranglerVersion()} (WRANGLER_TOOLCHAIN=${process.env.WRANGLER_TOOLCHAIN})`,
);

process.exit(runTestSuites("test:node22", TOOLCHAIN));
