import { sha256 } from "../../../shared/hash";

/**
 * JSON with object keys sorted at every depth, so equal arguments hash equally whatever their key
 * order. Follows JSON.stringify otherwise (toJSON honoured, undefined/functions dropped, non-finite
 * numbers → null); BigInt → decimal string, a cycle → "[Circular]". Never throws on plain data.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value, new Set())) ?? "null";
}

/** Lowercase hex SHA-256 of the value's canonical JSON. */
export function sha256Hex(value: unknown): Promise<string> {
  return sha256(canonicalJson(value));
}

/** UTF-8 bytes of the value's JSON; 0 for undefined or what cannot be serialized. */
export function jsonBytes(value: unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 0;
  }
  return text === undefined ? 0 : utf8Bytes(text);
}

/** UTF-8 bytes of `s`, counted without encoding it. */
export function utf8Bytes(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const dropped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

function normalize(value: unknown, path: Set<object>): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return normalize(toJSON.call(value), path);
  if (path.has(value)) return "[Circular]";
  path.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => {
        const n = normalize(item, path);
        return dropped(n) ? null : n;
      });
    }
    const out = Object.create(null) as Record<string, unknown>;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) {
      const n = normalize(record[key], path);
      if (!dropped(n)) out[key] = n;
    }
    return out;
  } finally {
    path.delete(value);
  }
}
