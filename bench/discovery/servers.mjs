// The 22 servers of bench/fixtures/mcp-tool-corpus.json as named upstreams: one short upstream name per
// corpus entry (by package), a one-line description, and the tools exactly as collected. Qualified
// names are `<name>.<tool>` with the tool name unchanged.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** This folder, bench/discovery. */
const HERE = dirname(fileURLToPath(import.meta.url));
export const CORPUS_FILE = join(HERE, "../fixtures/mcp-tool-corpus.json");

/** Same rule as the gateway's MCP_SERVERS names (shared/contract/tools.ts SERVER_NAME). */
const SERVER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** package → [upstream name, description]. */
const NAMES = {
  "@modelcontextprotocol/server-everything": [
    "everything",
    "MCP reference test server: echo, sums, sample images, annotations, long-running operations",
  ],
  "@modelcontextprotocol/server-filesystem": [
    "filesystem",
    "Local filesystem: read, write and edit files, directories, search, file metadata",
  ],
  "@modelcontextprotocol/server-memory": [
    "memory",
    "Knowledge-graph memory: entities, relations and observations that persist across chats",
  ],
  "@modelcontextprotocol/server-sequential-thinking": [
    "sequential-thinking",
    "Step-by-step reasoning scratchpad for breaking down problems",
  ],
  "@modelcontextprotocol/server-github": [
    "github",
    "GitHub: repositories, files, branches, issues, pull requests, code search",
  ],
  "@modelcontextprotocol/server-gitlab": [
    "gitlab",
    "GitLab: projects, files, branches, issues, merge requests",
  ],
  "@modelcontextprotocol/server-slack": [
    "slack",
    "Slack workspace: channels, messages, threads, reactions, users",
  ],
  "@modelcontextprotocol/server-puppeteer": [
    "puppeteer",
    "Headless Chrome via Puppeteer: navigate, click, fill, screenshot, run JavaScript",
  ],
  "@modelcontextprotocol/server-postgres": ["postgres", "PostgreSQL database: read-only SQL queries"],
  "@modelcontextprotocol/server-redis": ["redis", "Redis key-value store: set, get, delete and list keys"],
  "@modelcontextprotocol/server-brave-search": [
    "brave-search",
    "Brave Search: web search and local business search",
  ],
  "@modelcontextprotocol/server-google-maps": [
    "google-maps",
    "Google Maps: geocoding, places, directions, distances, elevation",
  ],
  "@notionhq/notion-mcp-server": [
    "notion",
    "Notion workspace: pages, blocks, databases and data sources, comments, users",
  ],
  "@playwright/mcp": [
    "playwright",
    "Browser automation via Playwright: navigate, click, type, forms, tabs, screenshots, snapshots",
  ],
  "chrome-devtools-mcp": [
    "chrome-devtools",
    "Chrome DevTools: page automation, console, network requests, performance traces, Lighthouse",
  ],
  "@wonderwhy-er/desktop-commander": [
    "desktop-commander",
    "Local machine: terminal commands and processes, files and directories, code search, edits",
  ],
  "firecrawl-mcp": [
    "firecrawl",
    "Firecrawl: scrape, crawl and map websites, web search, research papers, page monitors",
  ],
  "tavily-mcp": ["tavily", "Tavily: web search, page extraction, site crawl and map, research reports"],
  "exa-mcp-server": ["exa", "Exa: web search and fetching pages as clean markdown"],
  "@upstash/context7-mcp": [
    "context7",
    "Context7: up-to-date documentation and code examples for programming libraries",
  ],
  "mcp-server-kubernetes": [
    "kubernetes",
    "Kubernetes cluster via kubectl and Helm: resources, logs, rollouts, scaling, pods, nodes",
  ],
  "@supabase/mcp-server-supabase": [
    "supabase",
    "Supabase: projects, Postgres SQL and migrations, edge functions, branches, logs",
  ],
};

/**
 * @typedef {{ name: string, title?: string, description?: string, inputSchema: Record<string, unknown>,
 *   outputSchema?: Record<string, unknown>, annotations?: Record<string, unknown> }} CorpusTool
 * @typedef {{ name: string, package: string, description: string, tools: CorpusTool[] }} CorpusServer
 * @typedef {CorpusTool & { server: string, qualifiedName: string }} CorpusCatalogTool
 * @typedef {{ id: string, intent: string, accept: string[], half: "tune" | "holdout", author: 1 | 2 | 3 }} Intent
 * @typedef {Intent & { task: string }} SearchedIntent an intent as an agent searched for it: `intent` is the query, `task` the intent's own text
 */

/** @type {CorpusServer[] | undefined} */
let cached;

/**
 * [{ name, package, description, tools }] in corpus order; throws when the corpus and NAMES disagree.
 * @returns {CorpusServer[]}
 */
export function corpusServers() {
  if (cached) return cached;
  const corpus = JSON.parse(readFileSync(CORPUS_FILE, "utf8"));
  const servers = corpus.servers.map((entry) => {
    const known = NAMES[entry.package];
    if (!known) throw new Error(`servers.mjs: no upstream name for corpus package ${entry.package}`);
    const [name, description] = known;
    if (!SERVER_NAME.test(name)) throw new Error(`servers.mjs: bad upstream name ${name}`);
    return { name, package: entry.package, description, tools: entry.tools };
  });
  const names = new Set(servers.map((s) => s.name));
  if (names.size !== servers.length) throw new Error("servers.mjs: duplicate upstream names");
  cached = servers;
  return servers;
}

/**
 * Every corpus tool as a gateway CatalogTool: `{ ...tool, server, qualifiedName }`.
 * @returns {CorpusCatalogTool[]}
 */
export function corpusCatalog() {
  return corpusServers().flatMap((server) =>
    server.tools.map((tool) => ({
      ...tool,
      server: server.name,
      qualifiedName: `${server.name}.${tool.name}`,
    })),
  );
}

export const INTENTS_FILE = join(HERE, "intents.json");
const HALVES = new Set(["tune", "holdout"]);
/** Who wrote an intent: 1 with the ranking, 2 and 3 blind to it (bench/README.md). */
export const AUTHORS = [1, 2, 3];

/**
 * Problems with `intents` against the corpus: ids unique, non-empty text, half "tune" | "holdout",
 * author one of AUTHORS, every accepted name a corpus tool, both halves covering every server. Empty
 * when valid.
 * @param {unknown[]} intents
 * @returns {string[]}
 */
export function intentProblems(intents) {
  const problems = [];
  const known = new Set(corpusCatalog().map((tool) => tool.qualifiedName));
  const ids = new Set();
  const covered = { tune: new Set(), holdout: new Set() };
  for (const [i, entry] of intents.entries()) {
    const where = `intent ${entry?.id ?? `#${i}`}`;
    if (typeof entry?.id !== "string" || entry.id === "") problems.push(`${where}: no id`);
    else if (ids.has(entry.id)) problems.push(`${where}: duplicate id`);
    ids.add(entry?.id);
    if (typeof entry?.intent !== "string" || entry.intent.trim() === "")
      problems.push(`${where}: no intent text`);
    if (!HALVES.has(entry?.half)) problems.push(`${where}: half must be "tune" or "holdout"`);
    if (!AUTHORS.includes(entry?.author)) problems.push(`${where}: author must be ${AUTHORS.join(", ")}`);
    if (!Array.isArray(entry?.accept) || entry.accept.length === 0) {
      problems.push(`${where}: accept must list at least one tool`);
      continue;
    }
    for (const name of entry.accept) {
      if (!known.has(name)) problems.push(`${where}: ${name} is not a corpus tool`);
      else covered[entry.half]?.add(serverOf(name));
    }
  }
  for (const server of corpusServers())
    for (const half of HALVES)
      if (!covered[half].has(server.name))
        problems.push(`half ${half} has no intent for server ${server.name}`);
  return problems;
}

/**
 * intents.json, checked (throws listing every problem).
 * @returns {Intent[]}
 */
export function loadIntents() {
  const intents = JSON.parse(readFileSync(INTENTS_FILE, "utf8"));
  const problems = intentProblems(intents);
  if (problems.length > 0) throw new Error(`bench/discovery/intents.json:\n  ${problems.join("\n  ")}`);
  return intents;
}

export const AGENT_QUERIES_FILE = join(HERE, "agent-queries.json");
/**
 * Every set in the repo of the intents as an agent wrote them (bench/README.md): agent-queries.json,
 * a second agent's queries, and the tasks restated as a verb and its object.
 */
export const AGENT_QUERY_SETS = [
  AGENT_QUERIES_FILE,
  join(HERE, "agent-queries-2.json"),
  join(HERE, "agent-restated.json"),
];
const MAX_QUERY_CHARS = 500;

/**
 * Problems with agent-queries.json's `queries` against `intents`: one non-empty query (at most the
 * 500 characters search_tools takes) for every intent id, and no id that is not an intent's.
 * @param {Intent[]} intents
 * @param {unknown} queries
 * @returns {string[]}
 */
export function agentQueryProblems(intents, queries) {
  if (typeof queries !== "object" || queries === null || Array.isArray(queries))
    return ["queries must be an object mapping intent ids to query text"];
  const problems = [];
  const ids = new Set(intents.map((intent) => intent.id));
  for (const id of ids) {
    const query = /** @type {Record<string, unknown>} */ (queries)[id];
    if (typeof query !== "string" || query.trim() === "") problems.push(`intent ${id}: no query`);
    else if (query.length > MAX_QUERY_CHARS)
      problems.push(`intent ${id}: query is ${query.length} characters (at most ${MAX_QUERY_CHARS})`);
  }
  for (const id of Object.keys(queries)) if (!ids.has(id)) problems.push(`${id}: no such intent`);
  return problems;
}

/**
 * The intents as an agent searches for them: each intent's `intent` replaced by the query of
 * agent-queries.json, or of `file` in its shape (its own text kept as `task`), checked (throws listing
 * every problem).
 * @param {Intent[]} intents
 * @param {string} [file]
 * @returns {SearchedIntent[]}
 */
export function loadAgentQueries(intents, file = AGENT_QUERIES_FILE) {
  const { queries } = JSON.parse(readFileSync(file, "utf8"));
  const problems = agentQueryProblems(intents, queries);
  if (problems.length > 0) throw new Error(`${file}:\n  ${problems.join("\n  ")}`);
  return intents.map((intent) => ({ ...intent, task: intent.intent, intent: queries[intent.id] }));
}

/** The server of a qualified tool name (`github.create_issue` → github). */
export function serverOf(qualifiedName) {
  return qualifiedName.slice(0, qualifiedName.indexOf("."));
}
