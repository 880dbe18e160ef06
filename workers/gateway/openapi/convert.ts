import type { JsonSchema, UpstreamTool } from "../../../shared/contract/tools";
import { clip } from "../discovery/ts-syntax";
import { compactSchema, parameterSchema, type SchemaNames, schemaNames } from "./schemas";

/** How one argument goes into the request (contract "OpenAPI upstreams": each by its own name). */
export interface CallParam {
  /** the argument's name in the tool's input (the parameter's own name unless two collide) */
  arg: string;
  /** the parameter's name in the request */
  name: string;
  in: "path" | "query" | "header";
  /** arrays: repeated (`a=1&a=2`) or joined by `,` ` ` `|`; objects: `deepObject` (`a[k]=v`) */
  style?: "multi" | "csv" | "ssv" | "pipes" | "deepObject";
}

/** What a call needs to build its request: kept in the index beside the tool. */
export interface Operation {
  method: string;
  /** the path template, `/users/{id}` */
  path: string;
  /** the server the description names for this operation (may be relative to the description's URL) */
  server?: string;
  params: CallParam[];
  body?: { contentType: string; required: boolean };
}

export interface ConvertedApi {
  /** title and version of the API, as the description says */
  info: { title: string; version: string };
  tools: UpstreamTool[];
  /** by tool name */
  operations: Record<string, Operation>;
  /** the description's first server (Swagger 2.0: scheme, host, basePath) */
  server?: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Headers the transport sets itself (OpenAPI says such parameter definitions are ignored). */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const DESCRIPTION_CHARS = 600;
const TITLE_CHARS = 120;
const NAME_CHARS = 64;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/**
 * The tools of an OpenAPI 3.0/3.1 or Swagger 2.0 description whose `$ref`s are already resolved
 * (`loadDescription` in describe.ts). Pure: one tool per operation, in the description's order.
 * Throws an Error naming what is wrong when `doc` is not such a description.
 */
export function convertDescription(doc: unknown): ConvertedApi {
  if (!isObj(doc)) throw new Error("OpenAPI description: not a JSON object");
  const swagger = str(doc.swagger);
  const openapi = str(doc.openapi);
  if (!(swagger?.startsWith("2.") || openapi?.startsWith("3."))) {
    throw new Error('OpenAPI description: needs "openapi": "3.x" or "swagger": "2.0"');
  }
  if (!isObj(doc.paths)) throw new Error("OpenAPI description: has no paths object");
  const info = isObj(doc.info) ? doc.info : {};
  const v2 = swagger !== undefined;
  const names = schemaNames(doc);
  const server = v2 ? swaggerServer(doc) : firstServer(doc.servers);
  const tools: UpstreamTool[] = [];
  const operations: Record<string, Operation> = {};
  const taken = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const name = uniqueName(toolName(str(op.operationId) ?? `${method} ${path}`), taken);
      const params = mergeParams(item.parameters, op.parameters);
      const pathServer = v2 ? undefined : (firstServer(op.servers) ?? firstServer(item.servers));
      const built = v2 ? swaggerInput(params, op, names) : openapiInput(params, op.requestBody, names);
      const output = v2 ? swaggerOutput(op.responses, names) : openapiOutput(op.responses, names);
      const summary = str(op.summary);
      tools.push({
        name,
        ...(summary ? { title: clip(summary, TITLE_CHARS) } : {}),
        description: clip(describedAs(op, item, `${method.toUpperCase()} ${path}`), DESCRIPTION_CHARS),
        inputSchema: built.schema,
        ...(output ? { outputSchema: output } : {}),
        annotations: annotationsOf(method),
      });
      operations[name] = {
        method: method.toUpperCase(),
        path,
        ...(pathServer ? { server: pathServer } : {}),
        params: built.params,
        ...(built.body ? { body: built.body } : {}),
      };
    }
  }
  return {
    info: { title: str(info.title) ?? "API", version: str(info.version) ?? "" },
    tools,
    operations,
    ...(server ? { server } : {}),
  };
}

/**
 * The operation's `summary` + `description`; without either, its path's (OpenAPI 3: they apply to
 * every operation of the path; Twilio describes many operations only there) and the method and path.
 */
function describedAs(op: Obj, item: Obj, route: string): string {
  const text = (of: Obj) => [str(of.summary), str(of.description)].filter(Boolean).join("\n\n");
  return text(op) || [text(item), route].filter(Boolean).join("\n\n");
}

/** `operationId` (or `method path`) as an identifier: `get /users/{id}` → `get_users_id`. */
export function toolName(raw: string): string {
  const mapped = raw
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, NAME_CHARS);
  const name = mapped === "" ? "operation" : mapped;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
  taken.add(candidate);
  return candidate;
}

function annotationsOf(method: string): Record<string, unknown> {
  const hints: Record<string, unknown> = {};
  if (method === "get" || method === "head") hints.readOnlyHint = true;
  else if (method === "delete") Object.assign(hints, { readOnlyHint: false, destructiveHint: true });
  else Object.assign(hints, { readOnlyHint: false, ...(method === "put" ? { idempotentHint: true } : {}) });
  return hints;
}

/** Path-level parameters, overridden by the operation's own of the same name and location. */
function mergeParams(pathLevel: unknown, opLevel: unknown): Obj[] {
  const byKey = new Map<string, Obj>();
  for (const list of [pathLevel, opLevel]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isObj(p) && str(p.name) && str(p.in)) byKey.set(`${p.in}:${p.name}`, p);
  }
  return [...byKey.values()];
}

interface BuiltInput {
  schema: JsonSchema;
  params: CallParam[];
  body?: Operation["body"];
}

/** Adds path/query/header parameters to `properties`; path first, so a clash renames the others. */
function addParams(
  params: Obj[],
  properties: Obj,
  required: string[],
  v2: boolean,
  names: SchemaNames,
): CallParam[] {
  const out: CallParam[] = [];
  const order = { path: 0, query: 1, header: 2 } as const;
  const usable = params
    .filter(
      (p): p is Obj & { in: CallParam["in"] } => p.in === "path" || p.in === "query" || p.in === "header",
    )
    .filter((p) => !(p.in === "header" && RESERVED_HEADERS.has(String(p.name).toLowerCase())))
    .sort((a, b) => order[a.in] - order[b.in]);
  for (const p of usable) {
    const name = String(p.name);
    const arg = name in properties || name === "body" ? `${name}_${p.in}` : name;
    properties[arg] = parameterSchema(p, v2, names);
    if (p.required === true || p.in === "path") required.push(arg);
    const style = styleOf(p, v2);
    out.push({ arg, name, in: p.in, ...(style ? { style } : {}) });
  }
  return out;
}

function styleOf(p: Obj, v2: boolean): CallParam["style"] {
  if (v2) {
    const format = str(p.collectionFormat) ?? "csv";
    return p.type === "array" ? (format as CallParam["style"]) : undefined;
  }
  const style = str(p.style) ?? (p.in === "query" ? "form" : "simple");
  if (style === "deepObject") return "deepObject";
  if (style === "spaceDelimited") return "ssv";
  if (style === "pipeDelimited") return "pipes";
  const explode = typeof p.explode === "boolean" ? p.explode : style === "form";
  return explode && p.in === "query" ? "multi" : "csv";
}

function inputSchema(properties: Obj, required: string[]): JsonSchema {
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

function openapiInput(params: Obj[], requestBody: unknown, names: SchemaNames): BuiltInput {
  const properties: Obj = {};
  const required: string[] = [];
  const callParams = addParams(params, properties, required, false, names);
  let body: Operation["body"];
  if (isObj(requestBody) && isObj(requestBody.content)) {
    const types = Object.keys(requestBody.content);
    const contentType =
      types.find(isJsonType) ?? types.find((t) => t === "application/x-www-form-urlencoded") ?? types[0];
    if (contentType) {
      const media = requestBody.content[contentType];
      const schema = isObj(media) && isObj(media.schema) ? compactSchema(media.schema, names) : {};
      properties.body = isJsonType(contentType) || contentType.includes("form") ? schema : { type: "string" };
      if (str(requestBody.description))
        (properties.body as Obj).description ??= clip(str(requestBody.description)!, 300);
      body = { contentType, required: requestBody.required === true };
      if (body.required) required.push("body");
    }
  }
  return { schema: inputSchema(properties, required), params: callParams, ...(body ? { body } : {}) };
}

function swaggerInput(params: Obj[], op: Obj, names: SchemaNames): BuiltInput {
  const properties: Obj = {};
  const required: string[] = [];
  const callParams = addParams(params, properties, required, true, names);
  let body: Operation["body"];
  const bodyParam = params.find((p) => p.in === "body");
  const formParams = params.filter((p) => p.in === "formData");
  const consumes = Array.isArray(op.consumes) ? op.consumes.filter((c) => typeof c === "string") : [];
  if (bodyParam) {
    properties.body = isObj(bodyParam.schema) ? compactSchema(bodyParam.schema, names) : {};
    body = {
      contentType: consumes.find(isJsonType) ?? "application/json",
      required: bodyParam.required === true,
    };
  } else if (formParams.length) {
    const fields: Obj = {};
    const needed: string[] = [];
    for (const p of formParams) {
      fields[String(p.name)] = parameterSchema(p, true, names);
      if (p.required === true) needed.push(String(p.name));
    }
    properties.body = inputSchema(fields, needed);
    body = { contentType: "application/x-www-form-urlencoded", required: needed.length > 0 };
  }
  if (body?.required) required.push("body");
  return { schema: inputSchema(properties, required), params: callParams, ...(body ? { body } : {}) };
}

const isJsonType = (type: string): boolean => /^application\/(.+\+)?json\b/i.test(type) || type === "*/*";

/** The first 2xx response's status, in order (`200` before `201`, `2XX` last). */
function successOf(responses: unknown): Obj | undefined {
  if (!isObj(responses)) return undefined;
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  const response = code ? responses[code] : undefined;
  return isObj(response) ? response : undefined;
}

function openapiOutput(responses: unknown, names: SchemaNames): JsonSchema | undefined {
  const response = successOf(responses);
  if (!response || !isObj(response.content)) return undefined;
  const type = Object.keys(response.content).find(isJsonType);
  const media = type ? response.content[type] : undefined;
  return isObj(media) && isObj(media.schema) ? compactSchema(media.schema, names) : undefined;
}

function swaggerOutput(responses: unknown, names: SchemaNames): JsonSchema | undefined {
  const response = successOf(responses);
  return response && isObj(response.schema) ? compactSchema(response.schema, names) : undefined;
}

function firstServer(servers: unknown): string | undefined {
  if (!Array.isArray(servers) || !isObj(servers[0])) return undefined;
  const { url, variables } = servers[0];
  if (typeof url !== "string") return undefined;
  // Server variables take their defaults: `https://{region}.api.example.com` → the default region.
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = isObj(variables) ? variables[name] : undefined;
    return isObj(variable) && typeof variable.default === "string" ? variable.default : whole;
  });
}

function swaggerServer(doc: Obj): string | undefined {
  const host = str(doc.host);
  const basePath = str(doc.basePath) ?? "";
  if (!host) return basePath || undefined;
  const schemes = Array.isArray(doc.schemes) ? doc.schemes : [];
  const scheme = schemes.includes("https") ? "https" : (str(schemes[0]) ?? "https");
  return `${scheme}://${host}${basePath}`;
}
