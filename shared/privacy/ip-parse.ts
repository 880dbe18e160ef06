/** Strict IP text parsing: dotted-quad IPv4 without leading zeros; IPv6 per RFC 4291 §2.2. */

/** The four octets of `a.b.c.d` (each 0–255, no leading zeros), or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const part of parts) {
    if (!isOctet(part)) return null;
    octets.push(Number(part));
  }
  return octets;
}

/** 0–255 in decimal without leading zeros. */
export function isOctet(part: string): boolean {
  const n = part.length;
  if (n === 0 || n > 3) return false;
  for (let i = 0; i < n; i++) {
    const code = part.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return (n === 1 || part.charCodeAt(0) !== 48) && Number(part) <= 255;
}

export interface IPv6 {
  /** the eight 16-bit groups */
  groups: number[];
  /** groups written out (an embedded IPv4 counts two) */
  written: number;
}

/** Full, `::`-compressed, or with an IPv4 tail (`::ffff:192.0.2.1`); null when not an address. */
export function parseIPv6(text: string): IPv6 | null {
  if (text.length < 2 || text.length > 45) return null;
  let body = text;
  const tail: number[] = [];
  if (text.includes(".")) {
    const colon = text.lastIndexOf(":");
    const v4 = parseIPv4(text.slice(colon + 1));
    if (colon < 0 || v4 === null) return null;
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    body = text.slice(0, colon + 1);
    // "::ffff:" keeps its colon for the split; "…:1:" would end in one dangling colon
    if (!body.endsWith("::")) body = body.slice(0, -1);
  }
  const gap = body.indexOf("::");
  if (gap >= 0 && body.indexOf("::", gap + 1) >= 0) return null;
  const head = hexGroups(gap >= 0 ? body.slice(0, gap) : body);
  const rest = gap >= 0 ? hexGroups(body.slice(gap + 2)) : [];
  if (head === null || rest === null) return null;
  const written = head.length + rest.length + tail.length;
  if (gap < 0 && written !== 8) return null;
  if (gap >= 0 && written > 7) return null;
  const zeros = new Array<number>(8 - written).fill(0);
  return { groups: [...head, ...zeros, ...rest, ...tail], written };
}

function hexGroups(text: string): number[] | null {
  if (text === "") return [];
  const groups: number[] = [];
  for (const part of text.split(":")) {
    if (!/^[0-9A-Fa-f]{1,4}$/.test(part)) return null;
    groups.push(Number.parseInt(part, 16));
  }
  return groups;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (≥ 2) of zero groups as `::`. */
export function formatIPv6(groups: readonly number[]): string {
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `::ffff:${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestAt = i;
      bestLength = j - i;
    }
    i = j > i ? j : i + 1;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt < 0) return hex.join(":");
  return `${hex.slice(0, bestAt).join(":")}::${hex.slice(bestAt + bestLength).join(":")}`;
}
