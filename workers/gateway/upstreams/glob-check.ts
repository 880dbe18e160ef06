import { SKILLS_SERVER } from "../skills/catalog";
import { globMatcher } from "../teams/policy";
import { type Catalog, type UpstreamsContext, upstreamsFor } from ".";
import { describeFailure, withDeadline } from "./fetch-tools";

/** The check waits at most this long for the team's tool lists, whatever UPSTREAM_TIMEOUT_MS is. */
const MAX_WAIT_MS = 15_000;
/** A glob as a warning quotes it (globs are up to 200 characters). */
const GLOB_CHARS = 80;

const quoted = (glob: string) =>
  JSON.stringify(glob.length <= GLOB_CHARS ? glob : `${glob.slice(0, GLOB_CHARS - 1)}…`);

/** The server a glob is limited to (`github.*` → github), or undefined when it can match any. */
function serverOf(glob: string): string | undefined {
  const head = glob.split("*")[0] ?? "";
  const dot = head.indexOf(".");
  return dot > 0 ? head.slice(0, dot) : undefined;
}

/**
 * What `PUT /admin/teams/{team}` says of the team's allow/deny globs: one warning per glob that
 * matches no tool of the team's servers (a typo leaves a tool allowed without a word). The tool
 * lists come the way the gateway gets them (the team's KV cache, else the servers, each within
 * UPSTREAM_TIMEOUT_MS, all within MAX_WAIT_MS). A glob that could match a server without a tool list
 * is said to be unchecked against that server rather than unmatched. Globs over `skills.` are not
 * checked: skills come and go.
 */
export async function globWarnings(ctx: UpstreamsContext): Promise<string[]> {
  const globs = [
    ...(ctx.teamRecord?.allow ?? []).map((glob) => ({ list: "allow", glob })),
    ...(ctx.teamRecord?.deny ?? []).map((glob) => ({ list: "deny", glob })),
  ].filter(({ glob }) => serverOf(glob) !== SKILLS_SERVER);
  if (globs.length === 0) return [];
  const wait = Math.min(ctx.config.upstreams.timeoutMs, MAX_WAIT_MS) + 1_000;
  let catalog: Catalog;
  try {
    const upstreams = await upstreamsFor(ctx);
    catalog = await withDeadline(upstreams.catalog(), wait, `no tool lists within ${wait} ms`);
  } catch (err) {
    return [`allow/deny globs were not checked: ${describeFailure(err).slice(0, 200)}`];
  }
  const names = [...catalog.tools, ...(catalog.notAllowed ?? [])].map((t) => t.qualifiedName);
  const servers = catalog.servers.map((s) => s.name);
  const unlisted = catalog.servers.filter((s) => s.state === "failing");
  const warnings: string[] = [];
  for (const { list, glob } of globs) {
    const matches = globMatcher(glob);
    if (names.some(matches)) continue;
    const rule = `${list} ${quoted(glob)}`;
    const server = serverOf(glob);
    if (server !== undefined && !servers.includes(server)) {
      warnings.push(
        `${rule} matches no tool: the team has no server "${server.slice(0, 32)}" (servers: ${servers.join(", ").slice(0, 100) || "none"})`,
      );
      continue;
    }
    const unchecked = unlisted.filter((s) => server === undefined || s.name === server);
    if (unchecked.length > 0) {
      const which = unchecked.map((s) => `${s.name} (${(s.error ?? "no tool list").slice(0, 80)})`);
      warnings.push(`${rule} could not be checked against ${which.join(", ").slice(0, 200)}`);
      continue;
    }
    warnings.push(
      `${rule} matches no tool of the team's servers (${servers.join(", ").slice(0, 100) || "none"}); check its spelling`,
    );
  }
  return warnings;
}
