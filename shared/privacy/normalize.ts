import type { PiiKind } from "../contract/session";
import { formatIPv6, parseIPv6 } from "./ip-parse";

/**
 * The vault key of a detected value: two spellings of one value get one key (and one token).
 * EMAIL lower case; PHONE its digits, a leading `+` kept and a `(0)` trunk prefix dropped; CARD its
 * digits; IBAN without spaces, upper case; SSN its digits; IPv4 as written, IPv6 in RFC 5952 form.
 */
export function normalizePii(kind: PiiKind, value: string): string {
  switch (kind) {
    case "EMAIL":
      return value.toLowerCase();
    case "PHONE": {
      const plus = value.startsWith("+");
      const digits = (plus ? value.replace("(0)", "") : value).replace(/\D/g, "");
      return plus ? `+${digits}` : digits;
    }
    case "CARD":
    case "SSN":
      return value.replace(/\D/g, "");
    case "IBAN":
      return value.replace(/[\s-]/g, "").toUpperCase();
    case "IP": {
      if (!value.includes(":")) return value;
      const parsed = parseIPv6(value);
      return parsed ? formatIPv6(parsed.groups) : value.toLowerCase();
    }
  }
}
