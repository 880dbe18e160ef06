// `npm test`: the unit and end-to-end suites under the current Node, with the teardown-crash
// allowance of scripts/lib/test-suites.mjs (`npm run test:unit` / `test:e2e` run one suite plainly).
import { join } from "node:path";
import { runTestSuites } from "./lib/test-suites.mjs";
import { root } from "./lib/wrangler-dev.mjs";

process.exit(runTestSuites("test", join(root, "node_modules/.cache/test-reports")));
