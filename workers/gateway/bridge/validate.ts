import { type OutputUnit, type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema";
import type { CatalogTool, JsonSchema } from "../../../shared/contract/tools";
import { pointerToken, resolveRef } from "../discovery/schema-ref";
import { isRecord } from "../discovery/ts-syntax";
import { boundedSchema } from "./schema-bounds";

/** Arguments whose JSON is longer than this are refused without being checked. */
const MAX_ARGS_CHARS = 1_000_000;
/** Every failing path is listed for arguments this small; bigger ones get their first failure. */
const FULL_REPORT_CHARS = 20_000;
/**
 * Schema nodes × argument weight above which the check is left to the upstream. Once its refs are
 * inlined a schema is a tree, so each of its nodes meets each argument value at most once; this
 * bounds the worst schema to a few hundred milliseconds.
 */
const MAX_WORK = 1_000_000;
/** Refs are inlined while the copy stays within these bounds (else they accept anything). */
const MAX_NODES = 20_000;
const MAX_DEPTH = 64;
const MAX_RECURSION = 3;

/** Keywords whose failure only says that something below failed; the leaf errors say what. */
const SUMMARY_KEYWORDS = new Set([
  "properties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "additionalProperties",
  "dependentSchemas",
  "if",
  "then",
  "else",
]);
/** Keywords whose value is a subschema or an array of them; the others' values are data. */
const SUBSCHEMAS = new Set([
  "not",
  "allOf",
  "anyOf",
  "oneOf",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "prefixItems",
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(["properties", "dependentSchemas", "dependencies"]);
/** Left out of the copy: meaningless once refs are inlined (a copied `$id` would even clash). */
const UNLINKED = new Set([
  "$ref",
  "$id",
  "id",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
  "$dynamicRef",
  "$recursiveRef",
  "$defs",
  "definitions",
  "__proto__",
]);

interface Checker {
  schema: Schema | boolean;
  draft: SchemaDraft;
  nodes: number;
  /** Stops at the first failure: cheap on arguments that fail everywhere. */
  quick: Validator;
  full?: Validator;
}
/** Per-isolate state: compiled validators by schema (at most 500, then afresh). */
const checkers = new Map<string, Checker>();

/**
 * Checks arguments against the tool's input schema before the upstream sees them, for early,
 * path-precise errors. The schema is third-party input, so the gateway checks a bounded copy
 * (schema-bounds.ts, refs inlined here) and leaves what it cannot check cheaply to the upstream,
 * which validates the arguments against its whole schema anyway. Returns one line per failing
 * path (`/limit: …`), or none.
 */
export function argumentErrors(tool: CatalogTool, args: unknown): string[] {
  try {
    const chars = (JSON.stringify(args) ?? "").length;
    if (chars > MAX_ARGS_CHARS)
      return [`(arguments): ${chars} characters of JSON, over the gateway's limit of ${MAX_ARGS_CHARS}`];
    const checker = checkerFor(tool);
    if (checker.nodes * weight(args) > MAX_WORK) return [];
    const quick = checker.quick.validate(args);
    if (quick.valid) return [];
    if (chars > FULL_REPORT_CHARS) return lines(quick.errors, checker.schema);
    checker.full ??= new Validator(checker.schema, checker.draft, false);
    return lines(checker.full.validate(args).errors, checker.schema);
  } catch {
    // A schema the validator cannot take, or arguments nested past the stack: the upstream decides.
    return [];
  }
}

function checkerFor(tool: CatalogTool): Checker {
  const cacheKey = `${tool.qualifiedName}\u0000${JSON.stringify(tool.inputSchema)}`;
  let checker = checkers.get(cacheKey);
  if (!checker) {
    const draft = draftOf(tool.inputSchema);
    const { schema, nodes } = withoutRefs(boundedSchema(tool.inputSchema), draft);
    checker = { schema, draft, nodes, quick: new Validator(schema, draft, true) };
    if (checkers.size > 500) checkers.clear();
    checkers.set(cacheKey, checker);
  }
  return checker;
}

function lines(errors: OutputUnit[], schema: Schema | boolean): string[] {
  const leaves = errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword));
  const shown = new Set<string>();
  for (const e of leaves.length ? leaves : errors) {
    if (shown.size === LINES_SHOWN) break;
    shown.add(`${pathOf(e.instanceLocation)}: ${unknownProperty(e, errors, schema) ?? e.error}`);
  }
  return [...shown];
}

/** Failing paths listed; one line each. */
const LINES_SHOWN = 10;

/** Properties named in an unknown-property message. */
const NAMES_SHOWN = 10;
const REFUSING = new Set(["additionalProperties", "unevaluatedProperties"]);

/**
 * For a property the schema refuses (`additionalProperties: false`; the validator says only "False
 * boolean schema"), what its object takes instead: the property spelled that way in another case
 * (`group_by` → `groupBy`), else the names it has. The object's schema is where the refusing
 * keyword's own error (at the property's parent) points.
 */
function unknownProperty(
  error: OutputUnit,
  errors: OutputUnit[],
  schema: Schema | boolean,
): string | undefined {
  if (error.keyword !== "false") return undefined;
  const cut = error.instanceLocation.lastIndexOf("/");
  const parent = error.instanceLocation.slice(0, cut);
  const refusal = errors.find((e) => REFUSING.has(e.keyword) && e.instanceLocation === parent);
  if (!refusal) return undefined;
  const at = refusal.keywordLocation;
  const owner = resolveRef(schema as JsonSchema, at.slice(0, at.lastIndexOf("/")) || "#");
  const properties = isRecord(owner) && isRecord(owner.properties) ? Object.keys(owner.properties) : [];
  const token = error.instanceLocation.slice(cut + 1);
  const given = pointerToken(token) ?? token;
  const loose = (name: string) => name.replace(/[_-]/g, "").toLowerCase();
  const meant = properties.find((name) => loose(name) === loose(given));
  if (meant !== undefined) return `not a property here; the tool spells it "${meant}"`;
  if (properties.length === 0) return "not a property here: this object takes none";
  const shown = properties.slice(0, NAMES_SHOWN).join(", ");
  return `not a property here; it takes ${shown}${properties.length > NAMES_SHOWN ? ", …" : ""}`;
}

function pathOf(location: string): string {
  const path = location.replace(/^#/, "");
  return path === "" ? "(arguments)" : path;
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("draft-04")) return "4";
  if (declared.includes("draft-07") || declared.includes("draft-06")) return "7";
  if (declared.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/**
 * What checking a value can cost, in schema-node visits: one per JSON value, plus a twentieth of
 * each string's length (`minLength` and `maxLength` count a string's characters every time).
 */
function weight(args: unknown): number {
  let total = 0;
  const pending: unknown[] = [args];
  while (pending.length > 0) {
    const value = pending.pop();
    total += typeof value === "string" ? 1 + value.length / 20 : 1;
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) pending.push(value[i]);
    else if (isRecord(value)) for (const key in value) pending.push(value[key]);
  }
  return total;
}

class NotInlinable extends Error {}

/**
 * The schema as a tree: each `$ref` replaced by a copy of what it points to. Refs can share
 * targets, so a schema of sixty nodes (`allOf` of two refs to the next level, twenty levels deep)
 * makes the validator visit a million; a tree is visited once per argument value. A recursive ref
 * is followed MAX_RECURSION levels deep, then accepts anything, as does a ref that is not a `#`
 * pointer into the document; so do all refs when the copy would pass MAX_NODES or a nested `$id`
 * changes what `#` means.
 */
function withoutRefs(root: JsonSchema, draft: SchemaDraft): { schema: Schema | boolean; nodes: number } {
  try {
    return copyTree(root, draft, true);
  } catch (err) {
    if (!(err instanceof NotInlinable)) throw err;
    return copyTree(root, draft, false);
  }
}

function copyTree(root: JsonSchema, draft: SchemaDraft, inline: boolean) {
  let nodes = 0;
  /** How many copies of each target are under way: a recursive schema is followed a few levels. */
  const open = new Map<object, number>([[root, 1]]);
  const target = (ref: string, depth: number): unknown => {
    const found = inline ? resolveRef(root, ref) : undefined;
    if (typeof found === "boolean") return found;
    if (!isRecord(found)) return {};
    const copies = open.get(found) ?? 0;
    if (copies >= MAX_RECURSION) return {};
    open.set(found, copies + 1);
    const copied = copy(found, depth + 1);
    open.set(found, copies);
    return copied;
  };
  const copy = (value: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES && inline) throw new NotInlinable();
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    if (!isRecord(value)) return value;
    if (depth > MAX_DEPTH) return {};
    if (inline && depth > 0 && (typeof value.$id === "string" || typeof value.id === "string"))
      throw new NotInlinable();
    const ref = typeof value.$ref === "string" ? value.$ref : undefined;
    // These drafts ignore the siblings of a $ref.
    if (ref !== undefined && (draft === "4" || draft === "7")) return target(ref, depth);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (UNLINKED.has(key)) continue;
      if (SUBSCHEMAS.has(key)) out[key] = copy(child, depth + 1);
      else if (SCHEMA_MAPS.has(key) && isRecord(child)) {
        out[key] = Object.fromEntries(
          Object.entries(child).map(([name, sub]) => [name, copy(sub, depth + 1)]),
        );
      } else {
        // Data (`enum` is checked entry by entry), or a keyword the validator does not know.
        out[key] = child;
        nodes += Array.isArray(child) ? child.length : 1;
      }
    }
    if (ref === undefined) return out;
    const referenced = target(ref, depth);
    if (isRecord(referenced) && Object.keys(referenced).length === 0) return out;
    out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), referenced];
    return out;
  };
  return { schema: copy(root, 0) as Schema | boolean, nodes };
}
