// The repository's root directory: every script that locates the repository's files imports it from
// here (scripts/lib/wrangler-dev.mjs passes it on to the e2e tests that import it from there).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
