// The conformance suite's CLI (@modelcontextprotocol/conformance, scripts/node22-conformance/) as
// scripts/conformance/run.mjs uses it: which server scenarios each protocol era has, and their checks
// from a run. An era's scenarios run in one process of the CLI (`--suite all --spec-version <era>`,
// every scenario of that revision at its wire: 2025-11-25 with initialize and Mcp-Session-Id,
// 2026-07-28 stateless), a few seconds for all of them; the extension scenarios, which the suite puts
// off the spec timeline and refuses with --spec-version, each in a process of its own at the suite's
// default wire (2026-07-28).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE_CLI } from "../lib/toolchain.mjs";

/** The eras run, in order: a dated revision's name is its --spec-version. */
export const ERAS = ["2025-11-25", "2026-07-28", "extensions"];
export const ERA_ABOUT = {
  "2025-11-25": "stateful: initialize, Mcp-Session-Id",
  "2026-07-28": "stateless: server/discover, _meta on every request",
  extensions: "extension scenarios, off the spec timeline: at the suite's default wire, 2026-07-28",
};
const RUN_MS = 300_000;

/** The CLI's version (its package.json). */
export function suiteVersion() {
  return JSON.parse(readFileSync(join(CONFORMANCE_CLI, "../../package.json"), "utf8")).version;
}

/** `conformance list --server [--spec-version v]`: each scenario with its tags (spec versions or "extension"). */
function listScenarios(node, specVersion) {
  const args = [CONFORMANCE_CLI, "list", "--server", ...(specVersion ? ["--spec-version", specVersion] : [])];
  const out = spawnSync(node, args, { encoding: "utf8" });
  const found = [...out.stdout.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].map((m) => ({
    name: m[1],
    tags: (m[2] ?? "").split(","),
  }));
  if (out.status !== 0 || found.length === 0) throw new Error(`conformance list failed:\n${out.stderr}`);
  return found;
}

/** Every era's scenarios, as the suite lists them. */
export function scenariosByEra(node) {
  return {
    "2025-11-25": listScenarios(node, "2025-11-25").map((s) => s.name),
    "2026-07-28": listScenarios(node, "2026-07-28").map((s) => s.name),
    extensions: listScenarios(node, undefined)
      .filter((s) => s.tags.includes("extension"))
      .map((s) => s.name),
  };
}

/** Runs a command without blocking this process, which serves the auth proxy meanwhile. */
function runCommand(command, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The checks of each scenario in a results directory (`server-<scenario>-<time>/checks.json`). */
function readChecks(dir) {
  const found = new Map();
  for (const sub of existsSync(dir) ? readdirSync(dir) : []) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(sub)?.[1];
    const file = join(dir, sub, "checks.json");
    if (scenario && existsSync(file)) found.set(scenario, JSON.parse(readFileSync(file, "utf8")));
  }
  return found;
}

/**
 * Runs an era's scenarios against `mcpUrl`: all of a dated era's in one process (`scenarios`
 * undefined), else each named one in its own. Returns the checks by scenario and the CLI's output.
 * @returns {Promise<{ checks: Map<string, Array<Record<string, unknown>>>, output: string, seconds: number }>}
 */
export async function runEra({ node, mcpUrl, era, scenarios, resultsDir }) {
  const dir = join(resultsDir, era);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const wire = era === "extensions" ? [] : ["--spec-version", era];
  const base = [CONFORMANCE_CLI, "server", "--url", mcpUrl, "-o", dir, ...wire];
  const started = Date.now();
  const runs = scenarios
    ? scenarios.map((scenario) => [...base, "--scenario", scenario])
    : [[...base, "--suite", "all"]];
  let output = "";
  for (const args of runs) {
    const run = await runCommand(node, args, RUN_MS);
    output += run.stdout + (run.status === null ? `\n(killed after ${RUN_MS / 1000} s)\n` : "");
    if (run.stderr.trim()) output += `\n${run.stderr.slice(-2000)}`;
  }
  return { checks: readChecks(dir), output, seconds: (Date.now() - started) / 1000 };
}
