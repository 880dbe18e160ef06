/**
 * Which URLs a team's sandboxed code may fetch. A team lists host patterns: `api.example.com`,
 * `*.example.com` (its subdomains, not example.com itself), an IP literal (`10.0.0.7`, `[::1]`),
 * each optionally with `:port`. A URL passes when it is http(s) without credentials, a pattern
 * matches its host, and its port is the scheme's default or one that matching pattern lists.
 * Patterns are compared as parsed values, never compiled into regexes, so the work stays linear.
 */

export interface EgressPattern {
  /** canonical form, as stored: lowercase, punycode, IPv6 in brackets */
  text: string;
  /** the host without `*.`, as `URL.hostname` spells it */
  host: string;
  /** `*.host`: subdomains of host only */
  wildcard: boolean;
  /** an extra port allowed besides the scheme's default, as `URL.port` spells it */
  port?: string;
}

export type EgressDecision = { ok: true } | { ok: false; reason: string };

export type ParsedEgressPattern = { ok: true; pattern: EgressPattern } | { ok: false; reason: string };

const MAX_HOST_CHARS = 253;
const MAX_LABEL_CHARS = 63;
// "*." + 253 + ":65535", with room to say what is wrong with longer input
const MAX_PATTERN_CHARS = 300;

/** A host pattern checked and put in canonical form; the reason names the pattern. */
export function parseEgressPattern(raw: string): ParsedEgressPattern {
  const bad = (why: string): ParsedEgressPattern => ({
    ok: false,
    reason: `egress pattern ${JSON.stringify(raw.length > 100 ? `${raw.slice(0, 100)}…` : raw)} ${why}`,
  });
  if (raw.length === 0) return bad("is empty");
  if (raw.length > MAX_PATTERN_CHARS) return bad(`is longer than ${MAX_PATTERN_CHARS} characters`);
  const text = raw.toLowerCase();
  if (text.includes("://")) return bad("has a scheme: list the host only, like api.example.com");
  for (const [sign, what] of [
    ["@", "user info"],
    ["/", "a path"],
    ["\\", "a path"],
    ["?", "a query"],
    ["#", "a fragment"],
  ] as const) {
    if (text.includes(sign)) return bad(`has ${what}: list the host only, like api.example.com`);
  }

  const wildcard = text.startsWith("*.");
  const rest = wildcard ? text.slice(2) : text;
  if (rest.includes("*")) return bad("may use * only as a leading *. (like *.example.com)");

  const split = splitPort(rest);
  if (typeof split === "string") return bad(split);
  const { host, port } = split;
  if (port !== undefined && !isPort(port)) return bad("has a port that is not a number from 1 to 65535");
  if (host.length === 0) return bad("has no host");
  if (host.length > MAX_HOST_CHARS) return bad(`has a host longer than ${MAX_HOST_CHARS} characters`);

  const why = host.startsWith("[") ? ipv6Problem(host, wildcard) : hostNameProblem(host, wildcard);
  if (why) return bad(why);
  const canonical = hostnameOf(host);
  if (canonical === undefined) return bad("is not a valid host name");
  if (canonical !== host) return bad(`is not in canonical form: write the host as ${canonical}`);

  const pattern: EgressPattern = {
    text: `${wildcard ? "*." : ""}${host}${port ? `:${port}` : ""}`,
    host,
    wildcard,
  };
  if (port !== undefined) pattern.port = port;
  return { ok: true, pattern };
}

/** Whether code may fetch `url`; a refusal's reason names the URL's host but not the team. */
export function egressDecision(url: URL, patterns: string[]): EgressDecision {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `egress over ${url.protocol} (to ${url.host || url.href}) is not allowed` };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: `egress to ${url.host} with credentials in the URL is not allowed` };
  }
  let hostListed = false;
  for (const raw of patterns) {
    const parsed = parseEgressPattern(raw);
    if (!parsed.ok || !hostMatches(url.hostname, parsed.pattern)) continue;
    // URL.port is "" exactly when the port is the scheme's default
    if (url.port === "" || url.port === parsed.pattern.port) return { ok: true };
    hostListed = true;
  }
  const target = hostListed ? `${url.hostname}:${url.port}` : url.hostname;
  return { ok: false, reason: `egress to ${target} is not allowed` };
}

function hostMatches(hostname: string, pattern: EgressPattern): boolean {
  if (!pattern.wildcard) return hostname === pattern.host;
  return hostname.length > pattern.host.length + 1 && hostname.endsWith(`.${pattern.host}`);
}

/** `host[:port]`, or what is wrong with it. */
function splitPort(rest: string): { host: string; port?: string } | string {
  if (rest.startsWith("[")) {
    const end = rest.indexOf("]");
    if (end < 0) return "has an IPv6 address without its closing ]";
    const host = rest.slice(0, end + 1);
    const after = rest.slice(end + 1);
    if (after === "") return { host };
    return after.startsWith(":") ? { host, port: after.slice(1) } : "has text after the IPv6 address";
  }
  const colon = rest.indexOf(":");
  if (colon < 0) return { host: rest };
  if (rest.indexOf(":", colon + 1) >= 0)
    return "has an IPv6 address without brackets: write it like [2001:db8::1]";
  return { host: rest.slice(0, colon), port: rest.slice(colon + 1) };
}

function isPort(port: string): boolean {
  if (port.length === 0 || port.length > 5 || port.startsWith("0")) return false;
  for (const ch of port) if (ch < "0" || ch > "9") return false;
  return Number(port) <= 65_535;
}

function ipv6Problem(host: string, wildcard: boolean): string | undefined {
  if (wildcard) return "puts *. before an IP address: wildcards need a domain name";
  for (const ch of host.slice(1, -1)) {
    if (!isHexDigit(ch) && ch !== ":" && ch !== ".") return "is not a valid IPv6 address";
  }
  return undefined;
}

function hostNameProblem(host: string, wildcard: boolean): string | undefined {
  for (const ch of host) {
    if (ch > "\u007f") {
      const ascii = hostnameOf(host);
      return ascii ? `is not ASCII: write the host in punycode, as ${ascii}` : "is not a valid host name";
    }
    if (!isHostChar(ch)) return `has ${JSON.stringify(ch)}, which a host name cannot contain`;
  }
  let numeric = true;
  for (const label of host.split(".")) {
    if (label.length === 0) return "has an empty label (a leading, trailing or doubled dot)";
    if (label.length > MAX_LABEL_CHARS) return `has a label longer than ${MAX_LABEL_CHARS} characters`;
    if (label.startsWith("-") || label.endsWith("-")) return "has a label that starts or ends with -";
    for (const ch of label) if (ch < "0" || ch > "9") numeric = false;
  }
  if (wildcard && numeric) return "puts *. before an IP address: wildcards need a domain name";
  return undefined;
}

function isHostChar(ch: string): boolean {
  return (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") || ch === "-" || ch === "." || ch === "_";
}

function isHexDigit(ch: string): boolean {
  return (ch >= "0" && ch <= "9") || (ch >= "a" && ch <= "f");
}

/** What the URL parser makes of a host: how requests will spell it (IPv4 forms, IDN, IPv6). */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}
