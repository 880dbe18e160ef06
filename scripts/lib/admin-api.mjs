// The admin API as `npm run admin` (scripts/admin.mjs) reaches it: the target and one request, with
// errors that say what to fix.
import { CliError, requestGateway } from "./cli-request.mjs";
import { defaultGatewayUrl } from "./dev-address.mjs";
import { readDevVar } from "./dev-vars.mjs";

/**
 * Where admin requests go and with which token: --url (else the local stack's address) and --token,
 * else $ADMIN_TOKEN, else ADMIN_TOKEN in .dev.vars; `source` says which, for a 401's hint.
 */
export function adminTarget(values) {
  const url = (values.url ?? defaultGatewayUrl()).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/.test(url)) throw new CliError(`Not an http(s) URL: ${url}`);
  const token =
    (values.token && { token: values.token, source: "--token" }) ||
    (process.env.ADMIN_TOKEN && { token: process.env.ADMIN_TOKEN, source: "$ADMIN_TOKEN" }) ||
    (readDevVar("ADMIN_TOKEN") && { token: readDevVar("ADMIN_TOKEN"), source: ".dev.vars" });
  if (!token) {
    throw new CliError(
      "No admin token: set ADMIN_TOKEN, pass --token, or put ADMIN_TOKEN in .dev.vars (the gateway must have the same value).",
    );
  }
  return { url, ...token };
}

/**
 * One admin request: status and parsed JSON answer (undefined for 204), or a CliError naming status
 * and message unless the status is one of `expected`.
 */
export async function callAdmin(t, method, path, body, expected = []) {
  const url = `${t.url}/admin${path}`;
  const res = await requestGateway(url, { method, bearer: t.token, body });
  const text = await res.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok && !expected.includes(res.status)) {
    const error = data?.error;
    const detail = error?.message
      ? `${error.code ? `${error.code}: ` : ""}${error.message}`
      : text.slice(0, 300) || res.statusText;
    const requestId = data?.requestId ?? res.headers.get("X-Request-Id");
    let hint = "";
    if (res.status === 401)
      hint = `\n(the token came from ${t.source}; it must equal the gateway's ADMIN_TOKEN)`;
    if (res.status === 503 && error?.code === "admin_disabled")
      hint =
        "\n(locally: add ADMIN_TOKEN to .dev.vars and restart npm run dev; deployed: wrangler secret put ADMIN_TOKEN)";
    if (res.status === 404 && !error) hint = `\n(no admin API at ${t.url}: is --url the gateway?)`;
    throw new CliError(
      `${method} /admin${path} failed: HTTP ${res.status} ${detail}${requestId ? ` [request ${requestId}]` : ""}${hint}`,
    );
  }
  return { status: res.status, data };
}
