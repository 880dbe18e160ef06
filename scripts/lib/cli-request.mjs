// What the operator CLIs (scripts/admin.mjs, scripts/skills.mjs) share: the error they print
// without a stack, and one HTTP request to the gateway that says plainly when it cannot be reached.

/** A failure to print as is (exit 1), not a bug. */
export class CliError extends Error {}

const TIMEOUT_MS = 30_000;

/**
 * `fetch` with a timeout and a JSON body when one is given; an unreachable gateway is a CliError
 * naming the URL and what to check.
 */
export async function requestGateway(url, { method, bearer, accept = "application/json", body }) {
  try {
    return await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        Accept: accept,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause = err instanceof Error ? (err.cause?.code ?? err.cause?.message ?? err.message) : String(err);
    throw new CliError(
      `Cannot reach ${url}: ${cause}. Is the gateway running (npm run dev), or is --url wrong?`,
    );
  }
}
