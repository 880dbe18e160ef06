// The MCP conformance suite (@modelcontextprotocol/conformance, pinned in scripts/node22-conformance/) against a
// running gateway, in each protocol era (scripts/conformance/suite.mjs): the suite's CLI under Node 22,
// a line printed per scenario; the scenarios of scripts/conformance/scenarios.mjs APPLIES must pass,
// the others are listed with why they do not apply, each re-checked against the live server. The
// suite cannot send an API key, so it talks to the gateway through a loopback proxy that adds one
// (scripts/lib/auth-proxy.mjs). Used by `npm run conformance` (its own stack) and by the end-to-end
// suite (the e2e stack).
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startAuthProxy } from "../lib/auth-proxy.mjs";
import { root } from "../lib/root.mjs";
import { APPLIES, CHECKS_DO_NOT_APPLY, DOES_NOT_APPLY } from "./scenarios.mjs";
import { ERA_ABOUT, ERAS, runEra, scenariosByEra, suiteVersion } from "./suite.mjs";

const RESULTS = join(root, "node_modules/.cache/conformance-results");

/** What the gateway declares and serves, read once as any MCP client would. */
async function probe(mcpUrl) {
  const client = new Client({ name: "conformance-probe", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const listed = (await client.listTools()).tools;
    const tools = listed.map((t) => t.name);
    const headerTools = listed
      .filter((t) =>
        Object.values(t.inputSchema.properties ?? {}).some((p) => p?.["x-mcp-header"] !== undefined),
      )
      .map((t) => t.name);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    return { capabilities, tools, headerTools, resources, templates };
  } finally {
    await client.close();
  }
}

const SCHEMA_CHECK = "wire-schema-valid";

/**
 * A scenario that applies, judged from its checks: it passes with no failed check but those of
 * CHECKS_DO_NOT_APPLY (each still true of the live server) and at least one passed check of its own.
 */
function judge(scenario, checks, server) {
  const exempt = CHECKS_DO_NOT_APPLY[scenario] ?? {};
  const count = (status) => checks.filter((c) => c.status === status && !(c.id in exempt)).length;
  const notes = [];
  for (const c of checks) {
    const skip = exempt[c.id];
    if (skip) {
      const still = skip.stillTrue(server);
      if (!still) notes.push({ fails: true, line: `NOW APPLIES? ${c.id} (${c.status}): ${skip.reason}` });
      else if (c.status !== "SUCCESS") notes.push({ fails: false, line: `n/a ${c.id}: ${skip.reason}` });
    } else if (c.status === "FAILURE" || c.status === "WARNING") {
      const what = c.status === "FAILURE" ? "failed" : "warning";
      notes.push({
        fails: c.status === "FAILURE",
        line: `${what}: ${c.id}: ${c.errorMessage ?? c.description}`,
      });
    }
  }
  const own = checks.filter((c) => c.status === "SUCCESS" && c.id !== SCHEMA_CHECK && !(c.id in exempt));
  if (checks.length === 0) notes.push({ fails: true, line: "no checks written" });
  else if (own.length === 0) notes.push({ fails: true, line: `no passed check but ${SCHEMA_CHECK}` });
  const ok = !notes.some((n) => n.fails);
  const counts = `${count("SUCCESS")} passed, ${count("FAILURE")} failed, ${count("WARNING")} warnings`;
  return { ok, counts, notes: [...new Set(notes.map((n) => n.line))] };
}

/**
 * Runs the scenarios (`only`, else all of APPLIES) of every era against the gateway at `gatewayUrl`
 * with `key`, the suite's CLI under `node` (Node ≥ 22). Prints through `print`; returns whether
 * everything passed and every scenario is accounted for, with the report's lines and the figures.
 * @param {{ gatewayUrl: string, key: string, node: string, only?: string[], print?: (line: string) => void, about?: string }} options
 */
export async function runConformance({ gatewayUrl, key, node, only = [], print = console.log, about = "" }) {
  const byEra = scenariosByEra(node);
  const applying = Object.values(APPLIES).flat();
  const unknown = only.filter((s) => !applying.includes(s));
  if (unknown.length > 0)
    throw new Error(
      `not scenarios that apply: ${unknown.join(", ")} (see ${[...new Set(applying)].join(", ")})`,
    );
  const lines = [];
  const say = (line) => {
    lines.push(line);
    print(line);
  };
  const proxy = await startAuthProxy({ target: gatewayUrl, key });
  const mcpUrl = `${proxy.url}/mcp`;
  try {
    // A saved skill, so that resources/list (and the skills extension) has an entry to check.
    const saved = await fetch(`${gatewayUrl}/v1/skills/conformance_probe`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ description: "Resource listed for the conformance run", code: "return 1" }),
    });
    if (!saved.ok) throw new Error(`saving a skill failed: HTTP ${saved.status} ${await saved.text()}`);
    const server = await probe(mcpUrl);
    say(`\nMCP conformance ${suiteVersion()}${about}, against ${mcpUrl} (auth proxy to ${gatewayUrl})`);
    say(
      `gateway: capabilities ${Object.keys(server.capabilities).join(", ")}; tools ${server.tools.join(", ")}; resources ${server.resources.join(", ")}`,
    );
    const totals = { passed: 0, failed: 0, skipped: 0, unaccounted: 0 };
    const figures = [];
    for (const era of ERAS) {
      const listed = byEra[era];
      const chosen = (only.length > 0 ? only : APPLIES[era]).filter((s) => APPLIES[era].includes(s));
      if (chosen.length === 0) continue;
      // A dated era runs whole in one process (its skipped scenarios too, against the gateway's
      // unknown-tool and method-not-found errors); a chosen few, and extensions, one by one.
      const whole = era !== "extensions" && only.length === 0;
      const run = await runEra({
        node,
        mcpUrl,
        era,
        scenarios: whole ? undefined : chosen,
        resultsDir: RESULTS,
      });
      say(`\n${era} (${ERA_ABOUT[era]}): ${listed.length} scenarios, run in ${run.seconds.toFixed(1)} s`);
      const tally = { passed: 0, failed: 0, skipped: 0, unaccounted: 0 };
      for (const scenario of chosen) {
        const r = judge(scenario, run.checks.get(scenario) ?? [], server);
        tally[r.ok ? "passed" : "failed"]++;
        say(`  ${r.ok ? "PASS" : "FAIL"}  ${scenario.padEnd(46)} ${r.counts}`);
        for (const note of r.notes) say(`          ${note}`);
      }
      if (tally.failed > 0) say(run.output.replace(/^/gm, "          | "));
      if (only.length === 0) {
        for (const scenario of listed.filter((s) => !APPLIES[era].includes(s))) {
          const skip = DOES_NOT_APPLY[scenario];
          const still = skip?.stillTrue(server) === true;
          tally[still ? "skipped" : "unaccounted"]++;
          const why = !skip
            ? "new in the suite: add it to APPLIES or DOES_NOT_APPLY"
            : `${still ? "" : "NOW APPLIES? "}${skip.reason}`;
          say(`  ${still ? "SKIP" : "FAIL"}  ${scenario.padEnd(46)} ${why}`);
        }
      }
      for (const key of Object.keys(totals)) totals[key] += tally[key];
      figures.push({ era, ...tally, seconds: run.seconds });
    }
    say(
      `\nconformance: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (do not apply), ${totals.unaccounted} unaccounted (${figures.map((f) => `${f.era}: ${f.passed}/${f.failed}/${f.skipped}`).join("; ")}); results in ${RESULTS}`,
    );
    const ok = totals.failed === 0 && totals.unaccounted === 0 && totals.passed > 0;
    return { ok, lines, figures };
  } finally {
    await proxy.close();
  }
}
