// The MCP conformance suite (@modelcontextprotocol/conformance, pinned in scripts/node22-conformance/) against a
// running gateway: every scenario of scripts/conformance/scenarios.mjs APPLIES in its own process of
// the suite's CLI under Node 22, a line printed per scenario; the others listed with why they do not
// apply, each re-checked against the live server. The suite cannot send an API key, so it talks to
// the gateway through a loopback proxy that adds one (scripts/lib/auth-proxy.mjs). Used by
// `npm run conformance` (its own stack) and by the end-to-end suite (the e2e stack).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startAuthProxy } from "../lib/auth-proxy.mjs";
import { root } from "../lib/root.mjs";
import { CONFORMANCE_CLI } from "../lib/toolchain.mjs";
import { APPLIES, DOES_NOT_APPLY } from "./scenarios.mjs";

const RESULTS = join(root, "node_modules/.cache/conformance-results");
const SCENARIO_MS = 120_000;

/** The suite's own list of server scenarios (`conformance list --server`). */
function serverScenarios(node) {
  const out = spawnSync(node, [CONFORMANCE_CLI, "list", "--server"], { encoding: "utf8" });
  const names = [...out.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  if (out.status !== 0 || names.length === 0) throw new Error(`conformance list failed:\n${out.stderr}`);
  return names;
}

/** What the gateway declares and serves, read once as any MCP client would. */
async function probe(mcpUrl) {
  const client = new Client({ name: "conformance-probe", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    return { capabilities, tools, resources, templates };
  } finally {
    await client.close();
  }
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

/** One scenario in its own process; its checks from the results directory it writes. */
async function runScenario(node, mcpUrl, scenario) {
  const dir = join(RESULTS, scenario);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const run = await runCommand(
    node,
    [CONFORMANCE_CLI, "server", "--url", mcpUrl, "--scenario", scenario, "-o", dir],
    SCENARIO_MS,
  );
  const seconds = (Date.now() - started) / 1000;
  const [sub] = readdirSync(dir);
  const file = sub ? join(dir, sub, "checks.json") : "";
  const checks = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
  const count = (status) => checks.filter((c) => c.status === status).length;
  const passed = count("SUCCESS");
  const failed = count("FAILURE");
  const ok = run.status === 0 && failed === 0 && passed > 0;
  const notes = checks
    .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
    .map(
      (c) =>
        `${c.status === "FAILURE" ? "failed" : "warning"}: ${c.name}: ${c.errorMessage ?? c.description}`,
    );
  if (!ok && checks.length === 0)
    notes.push(`no checks written (exit ${run.status}): ${run.stderr.slice(-600)}`);
  return { scenario, ok, passed, failed, warnings: count("WARNING"), seconds, notes, output: run.stdout };
}

/**
 * Runs the scenarios (`only`, else all of APPLIES) against the gateway at `gatewayUrl` with `key`,
 * the suite's CLI under `node` (Node ≥ 22). Prints through `print`; returns whether everything
 * passed and every scenario is accounted for, with the report's lines.
 * @param {{ gatewayUrl: string, key: string, node: string, only?: string[], print?: (line: string) => void, about?: string }} options
 */
export async function runConformance({ gatewayUrl, key, node, only = [], print = console.log, about = "" }) {
  const all = serverScenarios(node);
  const unlisted = all.filter((s) => !APPLIES.includes(s) && !(s in DOES_NOT_APPLY));
  const unknown = only.filter((s) => !APPLIES.includes(s));
  if (unknown.length > 0)
    throw new Error(`not scenarios that apply: ${unknown.join(", ")} (see ${APPLIES.join(", ")})`);
  const chosen = only.length > 0 ? only : APPLIES;
  const cliVersion = JSON.parse(readFileSync(join(CONFORMANCE_CLI, "../../package.json"), "utf8")).version;
  const lines = [];
  const say = (line) => {
    lines.push(line);
    print(line);
  };
  const proxy = await startAuthProxy({ target: gatewayUrl, key });
  const mcpUrl = `${proxy.url}/mcp`;
  try {
    // A saved skill, so that resources/list has a skill:// entry for resources-list to check.
    const saved = await fetch(`${gatewayUrl}/v1/skills/conformance_probe`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ description: "Resource listed for the conformance run", code: "return 1" }),
    });
    if (!saved.ok) throw new Error(`saving a skill failed: HTTP ${saved.status} ${await saved.text()}`);
    const server = await probe(mcpUrl);
    say(`\nMCP conformance ${cliVersion}${about}, against ${mcpUrl} (auth proxy to ${gatewayUrl})`);
    say(
      `gateway: capabilities ${Object.keys(server.capabilities).join(", ")}; tools ${server.tools.join(", ")}; resources ${server.resources.join(", ")}\n`,
    );
    const results = [];
    for (const scenario of chosen) {
      const r = await runScenario(node, mcpUrl, scenario);
      results.push(r);
      const counts = `${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings`;
      say(`  ${r.ok ? "PASS" : "FAIL"}  ${scenario.padEnd(30)} ${counts} (${r.seconds.toFixed(1)} s)`);
      for (const note of r.notes) say(`          ${note}`);
      if (!r.ok) say(r.output.replace(/^/gm, "          | "));
    }
    const nowApply = [];
    for (const [scenario, skip] of Object.entries(DOES_NOT_APPLY)) {
      if (!all.includes(scenario)) continue;
      const still = skip.stillTrue(server);
      if (!still) nowApply.push(scenario);
      say(
        `  ${still ? "SKIP" : "FAIL"}  ${scenario.padEnd(30)} ${still ? "" : "NOW APPLIES? "}${skip.reason}`,
      );
    }
    for (const scenario of unlisted) {
      say(`  FAIL  ${scenario.padEnd(30)} new in the suite: add it to APPLIES or DOES_NOT_APPLY`);
    }
    const failed = results.filter((r) => !r.ok).length;
    const skipped = Object.keys(DOES_NOT_APPLY).filter((s) => all.includes(s)).length - nowApply.length;
    say(
      `\nconformance: ${results.length - failed} passed, ${failed} failed, ${skipped} skipped (do not apply), ${nowApply.length + unlisted.length} unaccounted; results in ${RESULTS}`,
    );
    const ok = failed === 0 && nowApply.length === 0 && unlisted.length === 0 && results.length > 0;
    return { ok, lines };
  } finally {
    await proxy.close();
  }
}
