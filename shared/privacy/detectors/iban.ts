import { isWordAt, scan } from "../boundary";
import type { PiiMatch } from "../types";

/**
 * Country code, two check digits, then the account part: compact, or printed in groups of four
 * separated by single spaces. Upper case only (as printed and as banks issue them).
 */
const IBAN =
  /(?<![0-9A-Za-z_])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![0-9A-Za-z_])/g;

/** IBAN lengths from the SWIFT registry. */
const LENGTHS: Record<string, number> = Object.fromEntries(
  (
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 " +
    "DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 " +
    "IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 " +
    "MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 " +
    "SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30"
  )
    .split(" ")
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

export function findIbans(text: string, out: PiiMatch[]): void {
  scan(IBAN, text, (m) => accept(text, m.index, m[0]), out);
}

function accept(text: string, start: number, printed: string): PiiMatch | null {
  const grouped = printed.includes(" ");
  const known = LENGTHS[printed.slice(0, 2)];
  // Outside the registry only the grouped form counts: compact, it is too easily an id.
  if (known === undefined && !grouped) return null;
  let value = printed;
  if (known !== undefined) {
    value = prefixOfLength(printed, known) ?? "";
    if (value === "") return null;
  }
  const compact = value.replaceAll(" ", "");
  if (compact.length < 15 || compact.length > 34 || !mod97IsOne(compact)) return null;
  const end = start + value.length;
  if (isWordAt(text, start - 1) || isWordAt(text, end)) return null;
  return { kind: "IBAN", start, end, value };
}

/** The prefix holding exactly `length` characters besides spaces, when it ends on a group's end. */
function prefixOfLength(printed: string, length: number): string | undefined {
  let count = 0;
  for (let i = 0; i < printed.length; i++) {
    if (printed.charCodeAt(i) !== 32) count++;
    if (count === length) {
      const next = printed.charAt(i + 1);
      return next === "" || next === " " ? printed.slice(0, i + 1) : undefined;
    }
  }
  return undefined;
}

/** ISO 13616: move the first four characters to the end, letters to 10–35, remainder mod 97 is 1. */
function mod97IsOne(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (let i = 0; i < moved.length; i++) {
    const code = moved.charCodeAt(i);
    const v = code >= 65 ? code - 55 : code - 48;
    rest = v >= 10 ? (rest * 100 + v) % 97 : (rest * 10 + v) % 97;
  }
  return rest === 1;
}
