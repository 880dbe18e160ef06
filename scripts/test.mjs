// `npm test`: the unit and end-to-end suites on the toolchain of scripts/lib/toolchain.mjs (the current
// Node and the pinned wrangler unless WRANGLER_TOOLCHAIN=current), with the teardown-crash allowance
// of scripts/lib/test-suites.mjs (`npm run test:unit` / `test:e2e` run one suite plainly).
// `node scripts/test.mjs unit` (or `e2e`) runs one suite with the allowance; scripts/check.mjs does.
import { join } from "node:path";
import { root } from "./lib/root.mjs";
import { runTestSuites, SUITE_NAMES } from "./lib/test-suites.mjs";
import { useToolchain } from "./lib/toolchain.mjs";

const only = process.argv.slice(2);
const unknown = only.filter((name) => !SUITE_NAMES.includes(name));
if (unknown.length > 0) {
  console.error(`[test] no suite named ${unknown.join(", ")}; the suites are ${SUITE_NAMES.join(", ")}`);
  process.exit(2);
}

await useToolchain("test");

process.exit(
  await runTestSuites(
    "test",
    join(root, "node_modules/.cache/test-reports"),
    only.length > 0 ? only : SUITE_NAMES,
  ),
);
