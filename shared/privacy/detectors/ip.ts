import { isWordAt, scan, standsAlone } from "../boundary";
import { isOctet, parseIPv6 } from "../ip-parse";
import type { PiiMatch } from "../types";

const IPV4 = /(?<![0-9A-Za-z_])(?<![0-9A-Za-z]\.)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})/g;
/** A version number that happens to have four parts: `version 1.2.3.4`, `build: 10.0.0.1`. */
const VERSION_BEFORE = /\b(?:version|ver|build|release|firmware)\s*[:=]?\s*$/i;

/** IPv4 dotted quad, not part of a longer dotted sequence (`1.2.3.4.5`) or a version. */
export function findIPv4(text: string, out: PiiMatch[]): void {
  if (!text.includes(".")) return;
  scan(
    IPV4,
    text,
    (m) => {
      const start = m.index;
      const end = start + m[0].length;
      for (let i = 1; i <= 4; i++) if (!isOctet(m[i]!)) return null;
      if (!standsAlone(text, start, end, ".")) return null;
      if (VERSION_BEFORE.test(text.slice(Math.max(0, start - 12), start))) return null;
      return { kind: "IP", start, end, value: m[0] };
    },
    out,
  );
}

/**
 * A candidate run of hex digits, colons and dots that starts like an address (`h:` or `::`); the
 * parser decides. The run is bounded (an address is at most 45 characters).
 */
const IPV6_RUN = /(?<![0-9A-Za-z_:.])(?:[0-9A-Fa-f]{1,4}:|::)[0-9A-Fa-f:.]{1,41}/g;
const RUN_CHAR = /[0-9A-Fa-f:.]/;

/**
 * IPv6 that parses, has at least two groups written and a digit: `::`, `::1`, `a::b`, `std::io`
 * and times like `12:30:45` are not taken.
 */
export function findIPv6(text: string, out: PiiMatch[]): void {
  if (!text.includes(":")) return;
  scan(
    IPV6_RUN,
    text,
    (m) => {
      const start = m.index;
      const runEnd = start + m[0].length;
      if (RUN_CHAR.test(text.charAt(runEnd)) || isWordAt(text, runEnd)) return null;
      if (!m[0].includes("::") && m[0].split(":").length < 8) return null;
      // Sentence punctuation after an address: "… at fe80::1." or "host 2001:db8::1:"
      let value = m[0].replace(/\.+$/, "");
      if (value.endsWith(":") && !value.endsWith("::")) value = value.slice(0, -1);
      const parsed = parseIPv6(value);
      if (parsed === null || parsed.written < 2 || !/\d/.test(value)) return null;
      return { kind: "IP", start, end: start + value.length, value };
    },
    out,
  );
}
