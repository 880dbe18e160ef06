// `npm run conformance`: the MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// scripts/node22/) under Node 22 against a local stack (scripts/lib/stack.mjs, as `npm run dev`
// runs it). The suite cannot send an API key, so it talks to the gateway through a loopback proxy
// that adds one (scripts/lib/auth-proxy.mjs) and forwards everything else, Host and Origin included.
// Runs every scenario in scripts/conformance/scenarios.mjs APPLIES and prints a line per scenario;
// the others are listed with why they do not apply, each re-checked against the live server.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { APPLIES, DOES_NOT_APPLY } from "./conformance/scenarios.mjs";
import { startAuthProxy } from "./lib/auth-proxy.mjs";
import { CONFORMANCE_CLI, reexecUnderNode22, TOOLCHAIN } from "./lib/node22.mjs";
import { startStack } from "./lib/stack.mjs";
import { preferCurrentWrangler, wranglerVersion } from "./lib/wrangler-dev.mjs";

await reexecUnderNode22();
preferCurrentWrangler();

const RESULTS = join(TOOLCHAIN, "results");
const cliVersion = JSON.parse(readFileSync(join(CONFORMANCE_CLI, "../../package.json"), "utf8")).version;
const only = process.argv.slice(2);

/** The suite's own list of server scenarios (`conformance list --server`). */
function serverScenarios() {
  const out = spawnSync(process.execPath, [CONFORMANCE_CLI, "list", "--server"], { encoding: "utf8" });
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
async function runScenario(mcpUrl, scenario) {
  const dir = join(RESULTS, scenario);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const run = await runCommand(
    process.execPath,
    [CONFORMANCE_CLI, "server", "--url", mcpUrl, "--scenario", scenario, "-o", dir],
    120_000,
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

async function main() {
  const all = serverScenarios();
  const unlisted = all.filter((s) => !APPLIES.includes(s) && !(s in DOES_NOT_APPLY));
  const unknown = only.filter((s) => !APPLIES.includes(s));
  if (unknown.length > 0)
    throw new Error(`not scenarios that apply: ${unknown.join(", ")} (see ${APPLIES.join(", ")})`);
  const chosen = only.length > 0 ? only : APPLIES;
  const key = `conformance_${randomBytes(16).toString("hex")}`;
  const starting = startStack({ vars: { DEV_API_KEY: key }, persist: "temp", envFile: null, log: () => {} });
  // wrangler dev runs in its own process groups: on Ctrl-C (which may arrive twice, from the terminal
  // and from the Node 20 parent), stop it, once it has started if it is still starting.
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      starting.then((s) => s.stop()).finally(() => process.exit(130));
    });
  }
  const stack = await starting;
  const proxy = await startAuthProxy({ target: stack.url, key });
  const mcpUrl = `${proxy.url}/mcp`;
  try {
    // A saved skill, so that resources/list has a skill:// entry for resources-list to check.
    const saved = await fetch(`${stack.url}/v1/skills/conformance_probe`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ description: "Resource listed for the conformance run", code: "return 1" }),
    });
    if (!saved.ok) throw new Error(`saving a skill failed: HTTP ${saved.status} ${await saved.text()}`);
    const server = await probe(mcpUrl);
    console.log(
      `\nMCP conformance ${cliVersion} on Node ${process.version}, wrangler ${wranglerVersion()}, against ${mcpUrl} (auth proxy to ${stack.url})`,
    );
    console.log(
      `gateway: capabilities ${Object.keys(server.capabilities).join(", ")}; tools ${server.tools.join(", ")}; resources ${server.resources.join(", ")}\n`,
    );
    const results = [];
    for (const scenario of chosen) {
      const r = await runScenario(mcpUrl, scenario);
      results.push(r);
      const counts = `${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings`;
      console.log(
        `  ${r.ok ? "PASS" : "FAIL"}  ${scenario.padEnd(30)} ${counts} (${r.seconds.toFixed(1)} s)`,
      );
      for (const note of r.notes) console.log(`          ${note}`);
      if (!r.ok) console.log(r.output.replace(/^/gm, "          | "));
    }
    const nowApply = [];
    for (const [scenario, skip] of Object.entries(DOES_NOT_APPLY)) {
      if (!all.includes(scenario)) continue;
      const still = skip.stillTrue(server);
      if (!still) nowApply.push(scenario);
      console.log(
        `  ${still ? "SKIP" : "FAIL"}  ${scenario.padEnd(30)} ${still ? "" : "NOW APPLIES? "}${skip.reason}`,
      );
    }
    for (const scenario of unlisted) {
      console.log(`  FAIL  ${scenario.padEnd(30)} new in the suite: add it to APPLIES or DOES_NOT_APPLY`);
    }
    const failed = results.filter((r) => !r.ok).length;
    const skipped = Object.keys(DOES_NOT_APPLY).filter((s) => all.includes(s)).length - nowApply.length;
    console.log(
      `\nconformance: ${results.length - failed} passed, ${failed} failed, ${skipped} skipped (do not apply), ${nowApply.length + unlisted.length} unaccounted; results in ${RESULTS}`,
    );
    return failed === 0 && nowApply.length === 0 && unlisted.length === 0 && results.length > 0;
  } finally {
    await proxy.close();
    await stack.stop();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error(`[conformance] ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  },
);
