// `npm run test:node22`: the unit and end-to-end suites (npm run test:unit, npm run test:e2e) under
// Node 22 — vitest, wrangler and the upstreams the e2e setup starts all run on it (scripts/lib/node22.mjs).
import { spawnSync } from "node:child_process";
import { reexecUnderNode22 } from "./lib/node22.mjs";
import { root } from "./lib/wrangler-dev.mjs";

await reexecUnderNode22();

const inPath = spawnSync("node", ["-v"], { encoding: "utf8" }).stdout.trim();
if (inPath !== process.version) {
  console.error(`[test:node22] \`node\` in PATH is ${inPath}, not ${process.version}`);
  process.exit(1);
}
console.error(`[test:node22] Node ${process.version}`);

const results = [];
for (const suite of ["test:unit", "test:e2e"]) {
  const started = Date.now();
  const run = spawnSync("npm", ["run", suite], { cwd: root, stdio: "inherit" });
  results.push({ suite, ok: run.status === 0, seconds: (Date.now() - started) / 1000 });
  if (run.status !== 0) break;
}
for (const r of results) {
  console.error(
    `[test:node22] ${r.ok ? "PASS" : "FAIL"} ${r.suite} on Node ${process.version} in ${r.seconds.toFixed(0)} s`,
  );
}
process.exit(results.length === 2 && results.every((r) => r.ok) ? 0 : 1);
