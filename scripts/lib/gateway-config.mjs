// The gateway's wrangler.toml as a generated JSON config in a directory of its own, with paths that
// still lead to the repo, extra vars merged in and extra service bindings added. Used by `npm run dev`
// and the e2e tests (to bind SANDBOX_HOST, the sandbox host in its own process) and by the bench.
// The per-team environments ([env.*]) are left out: they are for deploys.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { root } from "./root.mjs";

/** Keys of a wrangler config holding paths this copy does not rewrite: refuse rather than break them. */
const UNHANDLED_PATH_KEYS = ["assets", "site", "rules", "base_dir", "tsconfig", "alias"];

/** The gateway's wrangler.toml, as written (not normalized), read in a child process (see that script). */
export function readGatewayConfig() {
  const script = join(root, "scripts/lib/read-wrangler-config.mjs");
  const out = execFileSync(process.execPath, [script, join(root, "wrangler.toml")], { encoding: "utf8" });
  return JSON.parse(out);
}

/**
 * @param {{ vars?: Record<string, string>, services?: Array<Record<string, string>>, raw?: Record<string, unknown> }} options
 * @returns {{ path: string, dir: string }}
 */
export function writeGatewayConfig(options = {}) {
  const { env: _teams, ...rawConfig } = options.raw ?? readGatewayConfig();
  const unhandled = UNHANDLED_PATH_KEYS.filter((key) => rawConfig[key] !== undefined);
  if (unhandled.length > 0)
    throw new Error(
      `scripts/lib/gateway-config.mjs does not relocate wrangler.toml's ${unhandled.join(", ")}`,
    );
  const dir = mkdtempSync(join(tmpdir(), "code-mcp-gateway-config-"));
  const abs = (p) => resolve(root, p);
  // wrangler joins build.watch_dir onto the config's directory even when it is absolute
  const rel = (p) => relative(dir, abs(p));
  const build = rawConfig.build && {
    ...rawConfig.build,
    cwd: abs(rawConfig.build.cwd ?? "."),
    ...(rawConfig.build.watch_dir !== undefined && {
      watch_dir: [rawConfig.build.watch_dir].flat().map(rel),
    }),
  };
  const config = {
    ...rawConfig,
    main: abs(rawConfig.main),
    ...(build && { build }),
    vars: { ...rawConfig.vars, ...options.vars },
    services: [...(rawConfig.services ?? []), ...(options.services ?? [])],
  };
  const path = join(dir, "wrangler.json");
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return { path, dir };
}
