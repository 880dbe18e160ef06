// Where `npm run dev` serves (127.0.0.1, port $PORT, else 8787), and so where the CLIs that talk to
// it (admin, skills, inspect) go unless told otherwise ($GATEWAY_URL, --url).
const DEFAULT_PORT = 8787;

export function devPort() {
  return Number(process.env.PORT || DEFAULT_PORT);
}

/** The gateway the CLIs talk to by default: $GATEWAY_URL, else the dev stack's address. */
export function defaultGatewayUrl() {
  return (process.env.GATEWAY_URL || `http://127.0.0.1:${devPort()}`).replace(/\/+$/, "");
}

/**
 * `command` (an `npm run …` line) as it must be typed in any shell to reach the dev stack on `port`:
 * the port spelled out unless it is the default, and GATEWAY_URL when one is set, since it wins.
 */
export function devCommand(port, command) {
  if (process.env.GATEWAY_URL) return `GATEWAY_URL=http://127.0.0.1:${port} ${command}`;
  return port === DEFAULT_PORT ? command : `PORT=${port} ${command}`;
}
