// Section 4: PII tokenization. Its throughput over a realistic 1 MB JSON result (scripts/bench/pii.mjs),
// and what it adds to the demo task of section 2 end to end: the same execute, alternately for team
// default (PII off) and for a team made here with pii tokenize, over REST. The answers must be the
// same rows, with the emails tokenized in the second.

import { admin } from "./admin-api.mjs";
import { runPiiThroughput } from "./pii.mjs";
import { CODE } from "./scenario.mjs";
import { percentile, table } from "./stats.mjs";

const RUNS = 30;
const TEAM = "bench-pii";

async function timedExecute(base, headers, code) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/execute`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const out = await res.json();
  const ms = performance.now() - t0;
  if (!res.ok || out.error)
    throw new Error(`execute failed: ${res.status} ${JSON.stringify(out).slice(0, 400)}`);
  return { ms, result: out.result };
}

export async function runPrivacy({ base, apiKey, adminToken }) {
  console.log("\n== 5. PII tokenization");
  await runPiiThroughput();
  await admin(base, adminToken, "PUT", `/teams/${TEAM}`, {
    servers: { demo: { service: "DEMO" } },
    pii: { mode: "tokenize" },
  });
  const { key } = await admin(base, adminToken, "POST", `/teams/${TEAM}/keys`, { name: "bench" });
  const off = { "x-api-key": apiKey };
  const on = { authorization: `Bearer ${key}` };
  const times = { off: [], on: [] };
  let answers;
  try {
    for (let i = 0; i < RUNS + 3; i++) {
      const a = await timedExecute(base, off, CODE);
      const b = await timedExecute(base, on, CODE);
      if (i < 3) continue; // warm-up: schema caches, isolates
      times.off.push(a.ms);
      times.on.push(b.ms);
      answers = { off: a.result, on: b.result };
    }
  } finally {
    await admin(base, adminToken, "DELETE", `/teams/${TEAM}`);
  }
  const tokenized = answers.on.every(
    (row, i) => /^\[EMAIL_\d+\]$/.test(row.email) && row.id === answers.off[i].id,
  );
  if (!tokenized)
    throw new Error(`PII team's answer is not the same rows with tokens: ${JSON.stringify(answers.on)}`);
  const p50 = { off: percentile(times.off, 50), on: percentile(times.on, 50) };
  console.log(`the demo task (section 2's execute, ${RUNS} runs each, alternating, REST):`);
  console.log(
    table(
      ["PII", "p50 ms", "p90 ms"],
      [
        ["off (team default)", p50.off.toFixed(1), percentile(times.off, 90).toFixed(1)],
        ["tokenize (emails in the answer tokenized)", p50.on.toFixed(1), percentile(times.on, 90).toFixed(1)],
      ],
    ),
  );
  console.log(`added by tokenization: ${(p50.on - p50.off).toFixed(1)} ms at p50`);
}
