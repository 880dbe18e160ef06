import { isWordAt, scan } from "../boundary";
import type { PiiMatch } from "../types";

/**
 * `local@label.label.tld`. Every quantifier is bounded and the parts are separated by characters
 * they cannot contain (`@`, `.`), so a failed attempt costs a bounded number of steps; the
 * look-behind starts attempts only where a local part can begin.
 */
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-]|\.[A-Za-z0-9])/g;

const MAX_EMAIL = 200;

export function findEmails(text: string, out: PiiMatch[]): void {
  if (!text.includes("@")) return;
  scan(EMAIL, text, (m) => accept(text, m.index, m.index + m[0].length), out);
}

function accept(text: string, matchStart: number, end: number): PiiMatch | null {
  let start = matchStart;
  // Leading dots are punctuation ("see...alice@example.com"), not part of the address.
  while (text.charCodeAt(start) === 46) start++;
  const value = text.slice(start, end);
  const at = value.indexOf("@");
  const local = value.slice(0, at);
  if (local.length === 0 || local.endsWith(".") || local.includes("..")) return null;
  if (value.length > MAX_EMAIL) return null;
  for (const label of value.slice(at + 1).split(".")) {
    if (label.startsWith("-") || label.endsWith("-")) return null;
  }
  if (isWordAt(text, start - 1) || isWordAt(text, end)) return null;
  return { kind: "EMAIL", start, end, value };
}
