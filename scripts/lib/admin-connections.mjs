// `npm run admin -- connections …`: a team's users' connections to upstream servers
// (GET /admin/teams/{team}/connections, DELETE /admin/teams/{team}/connections/{user}/{server}).

/**
 * @param {string} command "connections list" | "connections end"
 * @param {{ team: string, user?: string, server?: string }} args
 * @param {{ call: Function, out: Function, table: Function, seg: Function }} io
 */
export async function connections(command, args, { call, out, table, seg }) {
  if (command === "connections list") {
    const { data } = await call("GET", `/teams/${seg(args.team)}/connections`);
    return out(data, () =>
      data.connections.length === 0
        ? `Team ${args.team} has no connections.`
        : table(
            data.connections.map((c) => ({
              user: c.user,
              server: c.server,
              status: c.status,
              scopes: c.scopes.join(" "),
              connected: c.connectedAt,
              "token expires": c.expiresAt ?? "-",
            })),
            ["user", "server", "status", "scopes", "connected", "token expires"],
          ),
    );
  }
  const path = `/teams/${seg(args.team)}/connections/${seg(args.user)}/${seg(args.server)}`;
  const { data } = await call("DELETE", path);
  return out(
    data,
    () =>
      `Ended ${args.user}'s connection to ${args.server} (${data.revoked ? "revoked upstream" : "deleted here; the upstream offers no revocation"}).`,
  );
}
