// `npm test`: the unit and end-to-end suites on the toolchain of scripts/lib/toolchain.mjs (the current
// Node and the pinned wrangler unless WRANGLER_TOOLCHAIN=current), with the teardown-crash allowance
// of scripts/lib/test-suites.mjs (`npm run test:unit` / `test:e2e` run one suite plainly).
import { join } from "node:path";
import { root } from "./lib/root.mjs";
import { runTestSuites } from "./lib/test-suites.mjs";
import { useToolchain } from "./lib/toolchain.mjs";

await useToolchain("test");

process.exit(await runTestSuites("test", join(root, "node_modules/.cache/test-reports")));
