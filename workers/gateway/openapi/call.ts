import { Buffer } from "node:buffer";
import { quoteName, ToolCallError } from "../discovery/tool-call-error";
import { clip } from "../discovery/ts-syntax";
import type { Span } from "../tracing/trace";
import type { UpstreamServer } from "../upstreams/config";
import type { UserUpstream } from "../upstreams/credentials";
import type { CallParam } from "./convert";
import { RedirectRefused, readCapped, sendTo, TooLarge } from "./http";
import type { OperationIndex } from "./index-store";

/** What the API's error body may say, at most (the ToolError's message holds it). */
const API_MESSAGE_CHARS = 500;

type Args = Record<string, unknown>;

/**
 * Calls one operation of an OpenAPI server with `args` (contract "OpenAPI upstreams") and gives
 * what code receives: the response's JSON (else its text; binary as `{ type, mimeType, data }`).
 * A non-2xx answer is a ToolError with the status and the API's message; a body over `maxBytes` is
 * refused unread past the cap; a redirect to another host is refused.
 */
export async function callOperation(
  server: UpstreamServer | UserUpstream,
  index: OperationIndex,
  tool: { name: string; qualifiedName: string },
  args: Args,
  options: { signal: AbortSignal; maxBytes: number; span?: Span | undefined },
): Promise<unknown> {
  const op = index.operations[tool.name];
  const base = server.openapi?.baseUrl ?? op?.server ?? index.server;
  if (!op || !base) {
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)}: ${op ? "the description names no server; an operator must set baseUrl" : "no such operation in the description; search again"}`,
    );
  }
  const url = new URL(
    joinPath(new URL(base, server.openapi!.descriptionUrl).href, expandPath(op.path, op.params, args)),
  );
  const headers: Record<string, string> = { Accept: "application/json, */*;q=0.5" };
  for (const p of op.params) {
    const value = args[p.arg];
    if (value === undefined || value === null) continue;
    if (p.in === "query") addQuery(url.searchParams, p, value);
    else if (p.in === "header") headers[p.name] = flat(value, ",");
  }
  // the configured headers (credentials) win over header arguments of the same name
  for (const [name, value] of Object.entries(server.headers)) {
    for (const taken of Object.keys(headers))
      if (taken.toLowerCase() === name.toLowerCase()) delete headers[taken];
    headers[name] = value;
  }
  let body: string | undefined;
  if (op.body && args.body !== undefined) {
    headers["Content-Type"] = op.body.contentType;
    body = /json|\*\/\*/.test(op.body.contentType)
      ? JSON.stringify(args.body)
      : op.body.contentType.includes("x-www-form-urlencoded")
        ? formBody(args.body)
        : String(args.body);
    if (headers["Content-Type"] === "*/*") headers["Content-Type"] = "application/json";
  }
  const send = async (): Promise<Response> => {
    const auth = "authProvider" in server ? server.authProvider : undefined;
    if (auth?.token) headers.Authorization = `Bearer ${await auth.token()}`;
    return sendTo(
      server,
      url.href,
      { method: op.method, headers, body, signal: options.signal },
      options.span,
    );
  };
  try {
    let res = await send();
    if (res.status === 401 && "authProvider" in server && server.authProvider?.onUnauthorized) {
      await res.body?.cancel();
      await server.authProvider.onUnauthorized({
        response: res,
        serverUrl: new URL(server.url),
        fetchFn: fetch,
      });
      res = await send();
    }
    return await answer(res, tool.qualifiedName, options.maxBytes);
  } catch (err) {
    if (err instanceof RedirectRefused) {
      throw new ToolCallError("UpstreamError", `${quoteName(tool.qualifiedName)}: ${err.message}`);
    }
    throw err;
  }
}

async function answer(res: Response, name: string, maxBytes: number): Promise<unknown> {
  const type = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!res.ok) {
    const text = await readCapped(res, 64 * 1024, () => "").then(
      (bytes) => new TextDecoder().decode(bytes),
      () => "",
    );
    const said = apiMessage(text);
    throw new ToolCallError(
      "ToolError",
      `${name} returned an error: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${said ? `: ${said}` : ""}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(
      res,
      maxBytes,
      (max) =>
        `${quoteName(name)} returned more than ${max} bytes; the most a sandbox accepts is ${max}. Ask for less: a smaller limit or page, or fewer fields`,
    );
  } catch (err) {
    if (err instanceof TooLarge) throw new ToolCallError("UpstreamError", err.message);
    throw err;
  }
  if (bytes.byteLength === 0) return null;
  if (/json/.test(type) || type === "") {
    const text = new TextDecoder().decode(bytes);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type.startsWith("text/") || /xml|javascript|yaml|csv/.test(type))
    return new TextDecoder().decode(bytes);
  const kind = type.startsWith("image/") ? "image" : type.startsWith("audio/") ? "audio" : "binary";
  return {
    type: kind,
    mimeType: type || "application/octet-stream",
    data: Buffer.from(bytes).toString("base64"),
  };
}

/** The message an API's error body carries (`message`, `error.message`, `detail`, `title`), else its text. */
function apiMessage(text: string): string {
  let said: unknown = text;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const error = json?.error as Record<string, unknown> | string | undefined;
    said =
      json?.message ??
      (typeof error === "object" ? (error?.message ?? error?.code) : error) ??
      json?.detail ??
      json?.title ??
      text;
  } catch {}
  return clip(String(typeof said === "string" ? said : JSON.stringify(said)).trim(), API_MESSAGE_CHARS);
}

function expandPath(path: string, params: CallParam[], args: Args): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const p = params.find((q) => q.in === "path" && q.name === name);
    const value = p ? args[p.arg] : undefined;
    return value === undefined || value === null ? whole : encodeURIComponent(flat(value, ","));
  });
}

function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

const SEPARATORS = { csv: ",", ssv: " ", pipes: "|" } as const;

function addQuery(query: URLSearchParams, p: CallParam, value: unknown): void {
  if (Array.isArray(value)) {
    if (p.style === "multi" || p.style === undefined) for (const v of value) query.append(p.name, scalar(v));
    else query.append(p.name, value.map(scalar).join(SEPARATORS[p.style === "deepObject" ? "csv" : p.style]));
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value))
      query.append(p.style === "deepObject" ? `${p.name}[${k}]` : k, scalar(v));
  } else query.append(p.name, scalar(value));
}

const scalar = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));
const flat = (v: unknown, sep: string): string => (Array.isArray(v) ? v.map(scalar).join(sep) : scalar(v));

function formBody(value: unknown): string {
  const form = new URLSearchParams();
  if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) if (v !== undefined) form.append(k, scalar(v));
  return form.toString();
}
