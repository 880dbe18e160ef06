// `npm run admin -- …`: the operators' command line for the gateway's admin API (/admin/*): teams
// (servers, allow/deny, limits, approvals), their API keys, users' connections, and pending approvals. Plain Node, no dependencies. See README "Teams and keys".
import { parseArgs } from "node:util";
import { callAdmin as call, adminTarget as target } from "./lib/admin-api.mjs";
import { approvals } from "./lib/admin-approvals.mjs";
import { connections } from "./lib/admin-connections.mjs";
import { teamBody } from "./lib/admin-team-body.mjs";
import { CliError } from "./lib/cli-request.mjs";

const USAGE = `Usage: npm run admin -- <command> [options]

Teams
  teams list            the stored teams
  teams create <team> [--servers <json|@file>] [--allow a,b] [--deny c] [--limits <json|@file>]
                        [--pii tokenize|off] [--approvals <json|@file>] [--engine quickjs|isolate]
                        [--tools <json|@file>] [--egress host,*.host:port]
                        create or replace the team (PUT: fields not given are removed)
  teams show <team>     the team's record (team default, without one, is the configuration's:
                        DEV_API_KEY and MCP_SERVERS)
  teams delete <team>   delete the team and revoke all its keys

Keys
  keys create <team> --name <name> [--user <user>]
                        make an API key for the team; the key is printed once, only its hash is kept.
                        --user: who it acts as (an email, say): its upstream connections are that
                        user's; without it the key is a user of its own
  keys list <team>      the team's keys (id, name, user, prefix, created, last used)
  keys revoke <id>      revoke a key (next request on); one made without --user ends its connections

Connections (users' own grants to upstream servers with "auth")
  connections list <team>
                        each user's connections: server, status, scopes, times (never a token)
  connections end <team> <user> <server>
                        end one: revoked at the upstream where it offers that, deleted here

Approvals
  approvals list [--team <team>]
                        calls from code waiting for a person (id, tool, arguments, waiting), then
                        the last day's decisions
  approvals approve <id> [--remember execution|session]
  approvals deny <id>   decide one: the waiting call runs, or throws ApprovalDeniedError

Options
  --url <url>           the gateway (default: $GATEWAY_URL, else http://127.0.0.1:$PORT,
                        where npm run dev serves; PORT 8787)
  --token <token>       the admin token (default: $ADMIN_TOKEN, else ADMIN_TOKEN in .dev.vars)
  --json                print the server's JSON answer as is
  -h, --help            this text

  --servers             MCP_SERVERS-shaped JSON, e.g. '{"demo":{"service":"DEMO"}}', or @path/to/file.json
  --allow, --deny       comma-separated globs over qualified tool names ("demo.list_*,github.*");
                        repeatable; deny wins; no --allow allows every tool; a glob that matches
                        no tool of the team's servers is saved with a "warning: ..." on stderr
  --limits              JSON: {"requestsPerMinute":60,"timeoutMs":30000,"maxToolCalls":50,"maxOutputChars":24000}
  --pii                 tokenize: emails, phones, cards, … in results become [EMAIL_1]-style tokens
                        (overrides the deployment's PII_MODE for this team)
  --approvals           JSON: {"require":["github.*"],"skip":["demo.update_ticket"],"destructive":true,
                        "timeoutSeconds":120} (overrides the deployment's APPROVALS for this team)
  --engine              quickjs (an interpreter in the team's warm workers) or isolate (a fresh V8
                        isolate per execution); overrides the deployment's SANDBOX_ENGINE
  --egress              hosts the team's code may fetch (off without it): api.example.com,
                        *.example.com, each optionally :port; comma-separated, repeatable
  --tools               JSON: {"demo.list_tickets":{"name":"tickets","description":"Open tickets."}}:
                        the team's own name and/or description for a tool (MCP and OpenAPI alike)

Examples
  npm run admin -- teams create acme --servers '{"demo":{"service":"DEMO"}}' --deny 'demo.create_*,demo.update_*'
  npm run admin -- keys create acme --name laptop
  npm run admin -- --url https://code-mcp-gateway-acme.example.workers.dev keys list acme
`;

const OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  servers: { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  limits: { type: "string" },
  pii: { type: "string" },
  approvals: { type: "string" },
  engine: { type: "string" },
  tools: { type: "string" },
  egress: { type: "string", multiple: true },
  name: { type: "string" },
  user: { type: "string" },
  team: { type: "string" },
  remember: { type: "string" },
};

/** Which options each command takes (besides --url, --token, --json, --help). */
const COMMANDS = {
  "teams list": { args: [], options: [] },
  "teams create": {
    args: ["team"],
    options: ["servers", "allow", "deny", "limits", "pii", "approvals", "engine", "tools", "egress"],
  },
  "teams show": { args: ["team"], options: [] },
  "teams delete": { args: ["team"], options: [] },
  "keys create": { args: ["team"], options: ["name", "user"] },
  "keys list": { args: ["team"], options: [] },
  "keys revoke": { args: ["id"], options: [] },
  "connections list": { args: ["team"], options: [] },
  "connections end": { args: ["team", "user", "server"], options: [] },
  "approvals list": { args: [], options: ["team"] },
  "approvals approve": { args: ["id"], options: ["remember"] },
  "approvals deny": { args: ["id"], options: [] },
};
const COMMON = new Set(["url", "token", "json", "help"]);
/** The team of DEV_API_KEY (workers/gateway/teams/schema.ts DEFAULT_TEAM). */
const DEFAULT_TEAM = "default";
const CONFIGURED_DEFAULT = `Team ${DEFAULT_TEAM} is the configuration's, not a stored team: requests with DEV_API_KEY act as
team ${DEFAULT_TEAM}, on the upstreams of MCP_SERVERS (wrangler.toml [vars]) with the deployment's limits.
A stored team named ${DEFAULT_TEAM} (teams create ${DEFAULT_TEAM} …) would override its servers, allow/deny and limits.`;
/** Pages of `GET /admin/teams` (1,000 names each) that `teams list` reads at most. */
const MAX_TEAM_PAGES = 100;

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${err instanceof Error ? err.message : err}\nRun with --help for usage.`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === "help") return { help: true };
  if (positionals.length === 0) throw new CliError(`No command given.\n\n${USAGE}`);
  const command = positionals.slice(0, 2).join(" ");
  const spec = COMMANDS[command];
  if (!spec)
    throw new CliError(`Unknown command "${command}". Commands: ${Object.keys(COMMANDS).join(", ")}.`);
  const rest = positionals.slice(2);
  if (rest.length !== spec.args.length) {
    throw new CliError(`Usage: ${command} ${spec.args.map((a) => `<${a}>`).join(" ")} (see --help)`);
  }
  for (const option of Object.keys(values)) {
    if (!COMMON.has(option) && !spec.options.includes(option))
      throw new CliError(`"${command}" does not take --${option} (see --help)`);
  }
  return { command, args: Object.fromEntries(spec.args.map((a, i) => [a, rest[i]])), values };
}

const when = (ms) => (typeof ms === "number" ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z") : "-");
const seg = encodeURIComponent;

function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (cells) =>
    cells
      .map((cell, i) => String(cell ?? "").padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => r[c])))].join("\n");
}

async function run({ command, args, values }) {
  const t = target(values);
  const out = (data, human) => console.log(values.json ? JSON.stringify(data ?? null, null, 2) : human());
  switch (command) {
    case "teams create": {
      const body = teamBody(values);
      const { status, data } = await call(t, "PUT", `/teams/${seg(args.team)}`, body);
      // Globs that match no tool (a typo leaves the tool allowed): saved, but said on stderr.
      const { warnings = [], ...team } = data;
      for (const warning of warnings) console.error(`warning: ${warning}`);
      return out(
        data,
        () =>
          `${status === 201 ? "Created" : "Replaced"} team ${team.name}:\n${JSON.stringify(team, null, 2)}`,
      );
    }
    case "teams list": {
      const teams = [];
      let cursor;
      for (let page = 0; page < MAX_TEAM_PAGES; page++) {
        const query = `?limit=1000${cursor ? `&cursor=${seg(cursor)}` : ""}`;
        const { data } = await call(t, "GET", `/teams${query}`);
        teams.push(...data.teams);
        cursor = data.cursor;
        if (!cursor) break;
      }
      return out({ teams, ...(cursor && { cursor }) }, () => {
        const shown = teams.length === 0 ? "No stored teams." : table(teams, ["name"]);
        const more = cursor ? `\n(the first ${teams.length}; there are more)` : "";
        const stored = teams.some((team) => team.name === DEFAULT_TEAM);
        return `${shown}${more}${stored ? "" : `\n\n${CONFIGURED_DEFAULT}`}`;
      });
    }
    case "teams show": {
      // Without --json, team default's missing record is explained rather than reported as an error.
      const explain = args.team === DEFAULT_TEAM && !values.json;
      const { status, data: team } = await call(
        t,
        "GET",
        `/teams/${seg(args.team)}`,
        undefined,
        explain ? [404] : [],
      );
      if (status === 404) return console.log(CONFIGURED_DEFAULT);
      return out(team, () => JSON.stringify(team, null, 2));
    }
    case "teams delete": {
      await call(t, "DELETE", `/teams/${seg(args.team)}`);
      return out({ deleted: args.team }, () => `Deleted team ${args.team} (its keys are revoked).`);
    }
    case "keys create": {
      if (!values.name)
        throw new CliError("keys create needs --name <name> (what the key is for, e.g. laptop)");
      const body = { name: values.name, ...(values.user ? { user: values.user } : {}) };
      const { data: k } = await call(t, "POST", `/teams/${seg(args.team)}/keys`, body);
      return out(
        k,
        () => `Created API key ${k.id} ("${k.name}", user ${k.user}) for team ${k.team}:

    ${k.key}

This is the only time the key is shown: copy it now (the gateway keeps only its hash).
Use it as "Authorization: Bearer <key>" or "X-API-Key: <key>" on ${t.url}/mcp and /v1/*.
Revoke it with: npm run admin -- keys revoke ${k.id}`,
      );
    }
    case "keys list": {
      const { keys } = (await call(t, "GET", `/teams/${seg(args.team)}/keys`)).data;
      return out({ keys }, () =>
        keys.length === 0
          ? `Team ${args.team} has no keys.`
          : table(
              keys.map((k) => ({
                id: k.id,
                name: k.name,
                user: k.user,
                prefix: `${k.prefix}…`,
                created: when(k.createdAt),
                "last used": when(k.lastUsedAt),
              })),
              ["id", "name", "user", "prefix", "created", "last used"],
            ),
      );
    }
    case "keys revoke": {
      await call(t, "DELETE", `/keys/${seg(args.id)}`);
      return out({ revoked: args.id }, () => `Revoked key ${args.id}.`);
    }
    case "connections list":
    case "connections end":
      return connections(command, args, { call: (...a) => call(t, ...a), out, table, seg });
    case "approvals list":
    case "approvals approve":
    case "approvals deny":
      return approvals(command, args, values, { call: (...a) => call(t, ...a), out, table, when, seg });
  }
}

try {
  const parsed = parse(process.argv.slice(2));
  if (parsed.help) console.log(USAGE);
  else await run(parsed);
} catch (err) {
  if (!(err instanceof CliError)) throw err;
  console.error(`admin: ${err.message}`);
  process.exitCode = 1;
}
