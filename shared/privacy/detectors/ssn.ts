import { NUMERIC_LEFT, scan, standsAlone } from "../boundary";
import type { PiiMatch } from "../types";

/** US SSN, dashes required: `ddd-dd-dddd`. */
const SSN = new RegExp(`${NUMERIC_LEFT}(\\d{3})-(\\d{2})-(\\d{4})`, "g");

export function findSsns(text: string, out: PiiMatch[]): void {
  if (!text.includes("-")) return;
  scan(SSN, text, (m) => accept(text, m), out);
}

/** Never issued: area 000, 666 or 900–999; group 00; serial 0000. */
function accept(text: string, m: RegExpExecArray): PiiMatch | null {
  const [value, area = "", group = "", serial = ""] = m;
  if (area === "000" || area === "666" || area.startsWith("9")) return null;
  if (group === "00" || serial === "0000") return null;
  const end = m.index + value.length;
  if (!standsAlone(text, m.index, end, "-./")) return null;
  return { kind: "SSN", start: m.index, end, value };
}
