// Plain `wrangler dev` (what a Workers developer types) runs one Worker alone: no demo upstream, no
// sandbox host process, and no API key or admin token unless .dev.vars has them. wrangler runs the
// [build] command first (with WRANGLER_COMMAND=dev) and shows what it prints, so the build says what
// to run instead; the scripts' own `wrangler dev` (scripts/lib/wrangler-dev.mjs) sets LOCAL_STACK_ENV.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "./root.mjs";

export const LOCAL_STACK_ENV = "CODE_MCP_LOCAL_STACK";

/** wrangler builds twice on start (again when its file watcher is ready): say it once a minute. */
const SAID = join(root, "node_modules/.cache/plain-wrangler-dev-hint");
const QUIET_MS = 60_000;

export function hintIfPlainWranglerDev() {
  if (process.env.WRANGLER_COMMAND !== "dev" || process.env[LOCAL_STACK_ENV]) return;
  const said = statSync(SAID, { throwIfNoEntry: false });
  if (said && Date.now() - said.mtimeMs < QUIET_MS) return;
  mkdirSync(dirname(SAID), { recursive: true });
  writeFileSync(SAID, "");
  console.log(
    "Plain `wrangler dev` runs this Worker alone: no demo upstream, and without .dev.vars no API key (every request 401). For the local stack and a key: npm run dev",
  );
}
