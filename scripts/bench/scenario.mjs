// Section 2: one task on the demo data, done the two ways an agent could, counting the tokens its
// context would hold. Every call is made for real; the two answers must be the same.
//  (i)  direct tool calling: the demo's tools/list, then each call's arguments and full result.
//  (ii) code mode: the gateway's tier-1 tools/list, one search_tools, one execute (code + result).
import { deepStrictEqual } from "node:assert/strict";
import { countTokens } from "../lib/tokens.mjs";
import { text } from "./gateway-client.mjs";
import { int, pct, table } from "./stats.mjs";

export const QUESTION = "Which 5 customers have the most open tickets? Give their names and emails.";
const FILTERS = { status: "open" };
const PAGE_SIZE = 100; // list_tickets' maximum: the fewest calls for an agent paging by hand
const TOP = 5;
const SEARCH = { query: "list tickets by status, get customer email", server: "demo", limit: 5 };
const NEEDED = ["demo.list_tickets", "demo.get_customer"];

// What the agent writes in (ii). Ties break by customer id, as in rank() below.
export const CODE = `const counts = new Map<string, number>();
let cursor: string | undefined;
do {
  const page = await tools.demo.list_tickets({ status: "open", limit: 100, ...(cursor ? { cursor } : {}) });
  for (const t of page.tickets) counts.set(t.customerId, (counts.get(t.customerId) ?? 0) + 1);
  cursor = page.nextCursor;
} while (cursor);
const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
return Promise.all(top.map(async ([id, openTickets]) => {
  const { customer } = await tools.demo.get_customer({ id });
  return { id, name: customer.name, email: customer.email, openTickets };
}));`;

/** The tokens of a tool call as the model emits it: name and arguments. */
const callTokens = (name, args) => countTokens(JSON.stringify({ name, arguments: args }));

function rank(counts) {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** (i): each demo call through its own execute, which hands back the tool's unwrapped result. */
async function direct(gw, demoDefinitions) {
  const ledger = {
    definitions: countTokens(JSON.stringify(demoDefinitions)),
    list: [0, 0, 0],
    get: [0, 0, 0],
  };
  const call = async (tool, args, into) => {
    const { result } = await gw.execute(`return await tools.demo.${tool}(${JSON.stringify(args)});`);
    into[0] += 1;
    into[1] += callTokens(tool, args);
    into[2] += countTokens(JSON.stringify(result));
    return result;
  };
  const counts = new Map();
  let seen = 0;
  let total;
  let cursor;
  do {
    const args = { ...FILTERS, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
    const page = await call("list_tickets", args, ledger.list);
    total = page.total;
    seen += page.tickets.length;
    for (const t of page.tickets) counts.set(t.customerId, (counts.get(t.customerId) ?? 0) + 1);
    cursor = page.nextCursor;
  } while (cursor);
  if (seen !== total) throw new Error(`paging list_tickets gave ${seen} tickets, total says ${total}`);
  const ranked = rank(counts);
  const answer = [];
  for (const [id, openTickets] of ranked.slice(0, TOP)) {
    const { customer } = await call("get_customer", { id }, ledger.get);
    answer.push({ id, name: customer.name, email: customer.email, openTickets });
  }
  const tied = ranked.length > TOP && ranked[TOP][1] === ranked[TOP - 1][1];
  return { ledger, answer, tickets: total, customers: counts.size, tied };
}

/** (ii) through MCP tools/call, counting the text content each result hands the model. */
async function codeMode(gw, session) {
  const step = async (name, args) => {
    const result = await gw.callTool(session, name, args);
    return { result, tokens: [callTokens(name, args), countTokens(text(result))] };
  };
  const search = await step("search_tools", SEARCH);
  const found = JSON.parse(text(search.result)).tools.map((t) => t.name);
  const missing = NEEDED.filter((n) => !found.includes(n));
  if (missing.length)
    throw new Error(`search_tools ${JSON.stringify(SEARCH)} did not find ${missing.join(", ")}`);
  const exec = await step("execute", { code: CODE });
  const out = exec.result.structuredContent;
  if (out.error || out.stats.truncated)
    throw new Error(`execute failed: ${JSON.stringify(out).slice(0, 600)}`);
  const definitions = [];
  for (const name of NEEDED) definitions.push((await step("get_tool_definition", { name })).tokens);
  return { search: search.tokens, exec: exec.tokens, definitions, answer: out.result, stats: out.stats };
}

export async function runScenario({ gw, session, tier1Tokens, demoDefinitions }) {
  const d = await direct(gw, demoDefinitions);
  const c = await codeMode(gw, session);
  deepStrictEqual(c.answer, d.answer, "the two ways gave different answers");

  const sum = (pairs) => pairs.reduce((a, [x, y]) => a + x + y, 0);
  const directTotal =
    d.ledger.definitions + d.ledger.list[1] + d.ledger.list[2] + d.ledger.get[1] + d.ledger.get[2];
  const codeTotal = tier1Tokens + sum([c.search, c.exec]);
  const withDefs = codeTotal + sum(c.definitions);
  const row = (part, calls, [args, results]) => [part, calls, int(args), int(results), int(args + results)];

  console.log(`\n== 3. Scenario on the demo data: "${QUESTION}"`);
  console.log(
    `${d.tickets} open tickets over ${d.customers} customers; tool results counted as the JSON text a client hands the model`,
  );
  console.log("(i) direct tool calling: the demo's tools/list, then every call's arguments and full result");
  console.log(
    table(
      ["context part", "calls", "args", "results", "tokens"],
      [
        ["demo tools/list", "", "", "", int(d.ledger.definitions)],
        row(
          `list_tickets (status open, limit ${PAGE_SIZE}, paged)`,
          d.ledger.list[0],
          d.ledger.list.slice(1),
        ),
        row("get_customer (top 5)", d.ledger.get[0], d.ledger.get.slice(1)),
        ["total", d.ledger.list[0] + d.ledger.get[0], "", "", int(directTotal)],
      ],
    ),
  );
  console.log(
    `(ii) one execute (${c.stats.toolCalls} tool calls inside it, ${c.stats.durationMs} ms): tier-1 tools/list, search_tools, execute`,
  );
  console.log(
    table(
      ["context part", "calls", "args", "results", "tokens"],
      [
        ["gateway tier-1 tools/list", "", "", "", int(tier1Tokens)],
        row(`search_tools ${JSON.stringify(SEARCH)}`, 1, c.search),
        row(`execute (code: ${CODE.length} chars)`, 1, c.exec),
        ["total", 2, "", "", int(codeTotal)],
      ],
    ),
  );
  console.log(
    `saving of (ii) over (i): ${pct(codeTotal, directTotal)} (${int(codeTotal)} vs ${int(directTotal)} tokens)`,
  );
  console.log(
    `  if the agent also reads both full definitions first (get_tool_definition x2, +${int(sum(c.definitions))}): ` +
      `${int(withDefs)} tokens, saving ${pct(withDefs, directTotal)}`,
  );
  console.log(`same answer both ways${d.tied ? " (a tie at rank 5, broken by customer id)" : ""}:`);
  for (const [i, a] of d.answer.entries())
    console.log(`  ${i + 1}. ${a.name} <${a.email}> (${a.id}): ${a.openTickets} open tickets`);
  return { codeTotal, directTotal, tickets: d.tickets };
}
