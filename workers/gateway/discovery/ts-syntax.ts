/** Small helpers for writing TypeScript source text: identifiers, property keys, literal types. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that cannot name a function or namespace (they can still be property names). */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with yield let static implements interface package private protected public await any boolean " +
    "never number object string symbol undefined unknown bigint declare namespace module type"
  ).split(" "),
);

/** Usable as a `function` or `namespace` name in a declaration. */
export function isDeclarableName(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** A property key as written in a type literal: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `obj.name` or `obj["name"]`. */
export function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

export function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Cuts `text` to `max` characters, ending with `…` when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * The TypeScript literal type of a JSON value (`"a"`, `3`, `null`, `[1, "x"]`, `{ a: 1 }`), or undefined
 * when it is not representable or longer than `max` characters.
 */
export function literalType(value: unknown, max = 200): string | undefined {
  const text = literal(value, 0);
  return text !== undefined && text.length <= max ? text : undefined;
}

function literal(value: unknown, depth: number): string | undefined {
  if (depth > 4) return undefined;
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = literal(item, depth + 1);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(", ")}]`;
  }
  if (!isRecord(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const text = literal(item, depth + 1);
    if (text === undefined) return undefined;
    parts.push(`${propertyKey(key)}: ${text}`);
  }
  return parts.length === 0 ? "{}" : `{ ${parts.join("; ")} }`;
}

/** The base type of a JSON value, for widening literals that are too many or too long. */
export function baseType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "unknown[]";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "{ [key: string]: unknown }";
    default:
      return "unknown";
  }
}
