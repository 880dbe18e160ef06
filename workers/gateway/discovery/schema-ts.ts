import type { JsonSchema } from "../../../shared/contract/tools";
import { docComment, propertyDoc } from "./doc-comment";
import { resolveRef } from "./schema-ref";
import { DEFAULT_TS_OPTIONS, type TsOptions, type TsResult, UNEXPRESSED } from "./schema-ts-options";
import { baseType, isRecord, literalType, propertyKey } from "./ts-syntax";

const UNION = 0;
const INTERSECTION = 1;
const PRIMARY = 2;
const MAX_HOPS = 64;
const MAX_REF_CHAIN = 16;
const COMPACT_MEMBERS = 8;
const MAX_MEMBERS = 100;
const MAX_TUPLE = 20;
const MAX_KEY = 200;

interface Ts {
  text: string;
  prec: number;
}
interface Ctx {
  root: JsonSchema;
  opts: TsOptions;
  refs: string[];
  used: number;
  truncated: boolean;
  unexpressed: boolean;
}
interface Pos {
  indent: string;
  depth: number;
  level: number;
  hops: number;
}

/** A JSON Schema as a TypeScript type expression; `indent` is the indentation of the line it starts on. */
export function convertSchema(
  schema: unknown,
  indent = "",
  options: Partial<TsOptions> = {},
  root?: JsonSchema,
): TsResult {
  const opts = { ...DEFAULT_TS_OPTIONS, ...options };
  const doc = root ?? (isRecord(schema) ? schema : {});
  const ctx: Ctx = { root: doc, opts, refs: ["#"], used: 0, truncated: false, unexpressed: false };
  const type = convert(schema, ctx, { indent, depth: 0, level: 0, hops: 0 });
  const unexpressed = !opts.compact && (ctx.truncated || ctx.unexpressed);
  return { text: type.text, truncated: ctx.truncated, unexpressed };
}

function leaf(ctx: Ctx, text: string): Ts {
  ctx.used += text.length;
  return { text, prec: PRIMARY };
}

function paren(type: Ts, min: number): string {
  return type.prec < min ? `(${type.text})` : type.text;
}

function overBudget(ctx: Ctx): boolean {
  return ctx.used >= ctx.opts.maxChars;
}

function convert(schema: unknown, ctx: Ctx, pos: Pos): Ts {
  if (schema === false) return leaf(ctx, "never");
  if (!isRecord(schema)) return leaf(ctx, "unknown");
  if (pos.hops > MAX_HOPS || pos.depth > ctx.opts.maxDepth || overBudget(ctx)) {
    ctx.truncated = true;
    return leaf(ctx, "unknown");
  }
  if (UNEXPRESSED.some((key) => schema[key] !== undefined)) ctx.unexpressed = true;
  const next = { ...pos, hops: pos.hops + 1 };
  const combined = ["$ref", "allOf", "anyOf", "oneOf"].some((key) => schema[key] !== undefined);
  const parts: Ts[] = [];
  const own = ownType(schema, ctx, next, combined);
  if (own) parts.push(own);
  if (typeof schema.$ref === "string") parts.push(refType(schema.$ref, ctx, next));
  if (Array.isArray(schema.allOf))
    parts.push(...members(schema.allOf, ctx, next, (s) => convert(s, ctx, next), false));
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) parts.push(union(members(list, ctx, next, (s) => convert(s, ctx, next))));
  }
  const type = intersection(parts);
  return schema.nullable === true ? union([type, leaf(ctx, "null")]) : type;
}

/**
 * Maps list items, stopping at the size budget or the member cap: compact output ends with `…`; a cut
 * union keeps what it shows and says how many alternatives are left out; other lists just end.
 */
function members(list: unknown[], ctx: Ctx, pos: Pos, map: (item: unknown) => Ts, alternatives = true): Ts[] {
  const out: Ts[] = [];
  const cap = ctx.opts.compact ? COMPACT_MEMBERS : MAX_MEMBERS;
  for (const [i, item] of list.entries()) {
    if (i >= cap || overBudget(ctx) || pos.hops > MAX_HOPS) {
      if (ctx.opts.compact) return [...out, leaf(ctx, "…")];
      ctx.truncated = true;
      const last = out.pop();
      if (!alternatives || !last) return last ? [...out, last] : [leaf(ctx, "unknown")];
      return [...out, { text: `${last.text} /* … ${list.length - i} more alternatives */`, prec: last.prec }];
    }
    ctx.used += 3;
    out.push(map(item));
  }
  return out;
}

function union(parts: Ts[]): Ts {
  const texts = [...new Set(parts.map((p) => p.text))];
  if (texts.includes("unknown")) return { text: "unknown", prec: PRIMARY };
  const useful = texts.length > 1 ? texts.filter((t) => t !== "never") : texts;
  if (useful.length === 0) return { text: "never", prec: PRIMARY };
  if (useful.length === 1) return parts.find((p) => p.text === useful[0])!;
  return { text: useful.join(" | "), prec: UNION };
}

function intersection(parts: Ts[]): Ts {
  const seen = new Set<string>();
  const useful = parts.filter((p) => p.text !== "unknown" && !seen.has(p.text) && seen.add(p.text));
  if (useful.length === 0) return { text: "unknown", prec: PRIMARY };
  if (useful.some((p) => p.text === "never")) return { text: "never", prec: PRIMARY };
  if (useful.length === 1) return useful[0]!;
  return { text: useful.map((p) => paren(p, INTERSECTION)).join(" & "), prec: INTERSECTION };
}

function refType(ref: string, ctx: Ctx, pos: Pos): Ts {
  if (ctx.refs.includes(ref)) return leaf(ctx, "unknown");
  if (ctx.refs.length > MAX_REF_CHAIN) {
    ctx.truncated = true;
    return leaf(ctx, "unknown");
  }
  const target = resolveRef(ctx.root, ref);
  if (target === undefined) {
    ctx.unexpressed = true;
    return leaf(ctx, "unknown");
  }
  ctx.refs.push(ref);
  try {
    return convert(target, ctx, pos);
  } finally {
    ctx.refs.pop();
  }
}

function typeNames(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  const objectish = ["properties", "additionalProperties", "patternProperties"].some((k) => k in schema);
  if (objectish) return ["object"];
  return "items" in schema || "prefixItems" in schema ? ["array"] : [];
}

function ownType(schema: JsonSchema, ctx: Ctx, pos: Pos, combined: boolean): Ts | undefined {
  if ("const" in schema) return leaf(ctx, literalType(schema.const) ?? baseType(schema.const));
  if (Array.isArray(schema.enum)) return enumType(schema.enum, ctx);
  const names = typeNames(schema);
  const shapeless = !["properties", "additionalProperties", "patternProperties"].some((k) => k in schema);
  const parts = names
    .filter((name) => !(combined && name === "object" && shapeless))
    .map((name) => primitive(name, schema, ctx, pos));
  return parts.length > 0 ? union(parts) : undefined;
}

function enumType(values: unknown[], ctx: Ctx): Ts {
  const cap = ctx.opts.compact ? COMPACT_MEMBERS : MAX_MEMBERS;
  const shown: Ts[] = [];
  for (const [i, value] of values.entries()) {
    if (i >= cap && ctx.opts.compact) {
      shown.push(leaf(ctx, "…"));
      break;
    }
    if (i >= cap || overBudget(ctx)) {
      ctx.truncated = true;
      for (const type of new Set(values.slice(i).map(baseType))) shown.push(leaf(ctx, type));
      break;
    }
    ctx.used += 3;
    shown.push(leaf(ctx, literalType(value) ?? baseType(value)));
  }
  return union(shown);
}

function primitive(name: string, schema: JsonSchema, ctx: Ctx, pos: Pos): Ts {
  switch (name) {
    case "string":
    case "boolean":
    case "null":
      return leaf(ctx, name);
    case "number":
    case "integer":
      return leaf(ctx, "number");
    case "array":
      return arrayType(schema, ctx, { ...pos, depth: pos.depth + 1 });
    case "object":
      return objectType(schema, ctx, pos);
    default:
      return leaf(ctx, "unknown");
  }
}

function arrayType(schema: JsonSchema, ctx: Ctx, pos: Pos): Ts {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (!tuple) return { text: `${paren(convert(schema.items ?? {}, ctx, pos), PRIMARY)}[]`, prec: PRIMARY };
  const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const elements = tuple.slice(0, MAX_TUPLE).map((item, i) => {
    const type = convert(item, ctx, pos);
    return i < min ? type.text : `${paren(type, PRIMARY)}?`;
  });
  if (tuple.length > MAX_TUPLE) ctx.truncated = true;
  if (rest !== false || tuple.length > MAX_TUPLE) {
    const restType =
      isRecord(rest) && tuple.length <= MAX_TUPLE ? convert(rest, ctx, pos) : leaf(ctx, "unknown");
    elements.push(`...${paren(restType, PRIMARY)}[]`);
  }
  return { text: `[${elements.join(", ")}]`, prec: PRIMARY };
}

/** The type of keys not listed in `properties`, or undefined when there are none to show. */
function extraType(schema: JsonSchema, ctx: Ctx, pos: Pos, listsProperties: boolean): Ts | undefined {
  const extra = schema.additionalProperties;
  const patterns = isRecord(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
  const sources = [...(extra === undefined || extra === false ? [] : [extra]), ...patterns];
  if (sources.length === 0) return extra === undefined && !listsProperties ? leaf(ctx, "unknown") : undefined;
  const types = members(sources, ctx, pos, (s) => (s === true ? leaf(ctx, "unknown") : convert(s, ctx, pos)));
  return union(types);
}

function objectType(schema: JsonSchema, ctx: Ctx, pos: Pos): Ts {
  const entries = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
  const listed: unknown[] = Array.isArray(schema.required) ? schema.required : [];
  const required = new Set(listed.filter((r): r is string => typeof r === "string"));
  const named = new Set(entries.map(([key]) => key));
  for (const key of required) if (!named.has(key)) entries.push([key, {}]);
  if (ctx.opts.compact && pos.level >= ctx.opts.collapseDepth && entries.length > 0) return leaf(ctx, "{…}");
  const inner = ctx.opts.compact ? "" : `${pos.indent}  `;
  const child: Pos = { indent: inner, depth: pos.depth + 1, level: pos.level + 1, hops: pos.hops };
  const extra = extraType(schema, ctx, child, entries.length > 0 || isRecord(schema.properties));
  const lines: string[] = [];
  let omitted = 0;
  for (const [key, value] of entries) {
    if (overBudget(ctx) || key.length > MAX_KEY) {
      omitted++;
      continue;
    }
    const described =
      ctx.opts.compact || !isRecord(value) ? undefined : propertyDoc(key, value, ctx.opts.maxDescription);
    if (described && !described.complete) ctx.unexpressed = true;
    const doc = docComment(described?.text ?? "", inner);
    ctx.used += inner.length + key.length + 4 + doc.reduce((n, line) => n + line.length + 1, 0);
    const type = convert(value, ctx, child);
    lines.push(...doc, `${inner}${propertyKey(key)}${required.has(key) ? "" : "?"}: ${type.text};`);
  }
  if (omitted > 0) {
    ctx.truncated = true;
    lines.push(
      ctx.opts.compact ? "…;" : `${inner}// … ${omitted} more ${omitted === 1 ? "property" : "properties"}`,
    );
  }
  const inlineIndex = extra !== undefined && (entries.length === 0 || extra.text === "unknown");
  if (inlineIndex || omitted > 0)
    lines.push(`${inner}[key: string]: ${inlineIndex ? extra!.text : "unknown"};`);
  ctx.used += lines.length + pos.indent.length + 4;
  const literal = block(lines, pos, ctx.opts.compact);
  if (extra === undefined || inlineIndex || omitted > 0) return literal;
  return intersection([literal, block([`[key: string]: ${extra.text};`], pos, true)]);
}

function block(lines: string[], pos: Pos, compact: boolean): Ts {
  if (lines.length === 0) return { text: "{}", prec: PRIMARY };
  if (compact || (lines.length === 1 && !lines[0]!.includes("\n") && lines[0]!.trim().startsWith("["))) {
    return { text: `{ ${lines.map((l) => l.trim().replace(/;$/, "")).join("; ")} }`, prec: PRIMARY };
  }
  return { text: `{\n${lines.join("\n")}\n${pos.indent}}`, prec: PRIMARY };
}
