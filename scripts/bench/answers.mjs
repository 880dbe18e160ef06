// Section 8: what the agent reads. The characters and cl100k tokens of ten typical answers, each
// the JSON text an MCP client gets (the REST body is the same object): discovery, small and huge
// results, errors, a denied tool, a PII result, a skill call, a Python error. Runs on a team of its
// own (demo upstream, one denied tool, PII tokenize, the default output cap and tool-call limit),
// made and deleted here.
// Standalone against any running gateway, or two side by side (e.g. `npm run dev` of an older commit
// on another PORT, for before/after):
//   node scripts/bench/answers.mjs <base URL> <ADMIN_TOKEN> [<before base URL> <before ADMIN_TOKEN>]
import { countTokens } from "../lib/tokens.mjs";
import { admin } from "./admin-api.mjs";
import { int, table } from "./stats.mjs";

const TEAM = "bench-answers";

/** Fetches 3,000 tickets page by page and returns them all. */
const HUGE = `const all = [];
let cursor;
do {
  const page = await tools.demo.list_tickets({ limit: 100, cursor });
  all.push(...page.tickets);
  cursor = page.nextCursor;
} while (cursor && all.length < 3000);
return all;`;

const ANSWERS = [
  ['search_tools "tickets customers" (no limit)', { get: "/v1/tools?q=tickets%20customers" }],
  ["get_tool_definition demo.list_tickets", { get: "/v1/tools/demo.list_tickets" }],
  [
    "small result: ticket_stats by status",
    { code: 'return await tools.demo.ticket_stats({ groupBy: "status" });' },
  ],
  ["huge result: 3,000 tickets", { code: HUGE }],
  [
    "limit error: a loop past the tool-call limit",
    { code: 'for (let i = 0; i < 1000; i++) await tools.demo.ticket_stats({ groupBy: "status" });' },
  ],
  ["validation error", { code: 'return await tools.demo.list_tickets({ status: "bogus", limit: "ten" });' }],
  [
    "denied tool",
    { code: 'return await tools.demo.update_ticket({ ticketId: "tkt_000001", status: "open" });' },
  ],
  [
    "PII result: 5 customers' emails",
    {
      code: "const r = await tools.demo.list_customers({ limit: 5 }); return r.customers.map((c) => ({ id: c.id, email: c.email }));",
    },
  ],
  ["skill call", { code: "return await skills.bench_answers_open_count({});" }],
  ["Python error", { code: "x = {'a': 1}\nx['b']", language: "python" }],
];

const SKILL = {
  description: "Counts open tickets",
  code: 'const s = await tools.demo.ticket_stats({ groupBy: "status" }); return s.groups?.find((g) => g.key === "open")?.count ?? s;',
};

async function answerText(base, key, ask) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const res = ask.get
    ? await fetch(`${base}${ask.get}`, { headers })
    : await fetch(`${base}/v1/execute`, { method: "POST", headers, body: JSON.stringify(ask) });
  const text = await res.text();
  try {
    JSON.parse(text);
  } catch {
    throw new Error(`${ask.get ?? "execute"} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return text;
}

/** The ten answers of one gateway: [name, chars, tokens] rows. */
async function measureAnswers({ base, adminToken }) {
  await admin(base, adminToken, "PUT", `/teams/${TEAM}`, {
    servers: { demo: { service: "DEMO" } },
    deny: ["demo.update_ticket"],
    pii: { mode: "tokenize" },
    // a deployment's defaults, whatever the gateway measured runs with (the bench's allows 1,000,000)
    limits: { maxOutputChars: 24_000, maxToolCalls: 200 },
  });
  const rows = [];
  try {
    const { key } = await admin(base, adminToken, "POST", `/teams/${TEAM}/keys`, { name: "bench" });
    const put = await fetch(`${base}/v1/skills/bench_answers_open_count`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(SKILL),
    });
    if (!put.ok) throw new Error(`PUT skill: ${put.status} ${await put.text()}`);
    for (const [name, ask] of ANSWERS) {
      const text = await answerText(base, key, ask);
      rows.push([name, text.length, countTokens(text)]);
    }
  } finally {
    await admin(base, adminToken, "DELETE", `/teams/${TEAM}`);
  }
  return rows;
}

const sum = (rows) => rows.reduce((s, r) => [s[0] + r[1], s[1] + r[2]], [0, 0]);

/** Measures one gateway (`now`) and optionally another (`before`), prints the table; resolves to the rows. */
export async function runAnswers(now, before) {
  const rows = await measureAnswers(now);
  const old = before ? await measureAnswers(before) : null;
  console.log("\n== 8. What the agent reads: ten typical answers (JSON text as the client gets it)");
  const all = [...rows, ["all ten", ...sum(rows)]];
  if (!old) {
    console.log(
      table(
        ["answer", "chars", "tokens"],
        all.map(([n, c, t]) => [n, int(c), int(t)]),
      ),
    );
    return rows;
  }
  const was = [...old, ["all ten", ...sum(old)]];
  const ratio = (a, b) => `${((100 * a) / b).toFixed(0)} %`;
  console.log(`before: ${before.base}   now: ${now.base}`);
  console.log(
    table(
      ["answer", "chars before", "chars now", "now/before", "tokens before", "tokens now", "now/before"],
      all.map(([n, c, t], i) => {
        const [, c0, t0] = was[i];
        return [n, int(c0), int(c), ratio(c, c0), int(t0), int(t), ratio(t, t0)];
      }),
    ),
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, adminToken, beforeBase, beforeToken] = process.argv.slice(2);
  if (!base || !adminToken || (beforeBase && !beforeToken)) {
    console.error(
      "usage: node scripts/bench/answers.mjs <base URL> <ADMIN_TOKEN> [<before base URL> <before ADMIN_TOKEN>]",
    );
    process.exit(2);
  }
  await runAnswers(
    { base, adminToken },
    beforeBase ? { base: beforeBase, adminToken: beforeToken } : undefined,
  );
}
