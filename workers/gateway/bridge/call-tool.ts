import { type CallToolResult, TRACEPARENT_META_KEY } from "@modelcontextprotocol/client";
import type { CatalogTool } from "../../../shared/contract/tools";
import { findTool } from "../discovery/find-tool";
import { quoteName, REASON_CHARS, ToolCallError } from "../discovery/tool-call-error";
import { clip } from "../discovery/ts-syntax";
import { callOperation } from "../openapi/call";
import type { Span } from "../tracing/trace";
import type { Catalog, UpstreamServer } from "../upstreams";
import { withUpstream } from "../upstreams/client";
import {
  asCaller,
  CredentialsMissing,
  missingCredentials,
  type UpstreamCaller,
} from "../upstreams/credentials";
import { describeFailure, withDeadline } from "../upstreams/fetch-tools";
import { errorText, unwrapResult } from "./unwrap";
import { argumentErrors } from "./validate";

type Args = Record<string, unknown>;

/** A tool result bigger than this is refused rather than copied into the sandbox. */
const MAX_RESULT_CHARS = 8_000_000;

/** How one call goes out: its deadline, what may stop it, what must allow it first. */
export interface CallOptions {
  timeoutMs: number;
  /**
   * aborts the upstream call: a 2025-era upstream gets notifications/cancelled, a 2026-07-28 one
   * sees the request's response stream closed (its cancellation signal)
   */
  signal?: AbortSignal | undefined;
  /** runs after validation, before the upstream sees anything: throws to refuse (approvals) */
  allow?: ((tool: CatalogTool, input: unknown) => Promise<void>) | undefined;
  /** the user a per-user server is called as (their connection, their `${user:NAME}` secrets) */
  caller?: UpstreamCaller | undefined;
  /**
   * the caller lacks credentials for the server: resolves once they exist (the call is tried again,
   * once), or throws the error that says how to get them (bridge/connect-ask.ts)
   */
  onMissing?: ((missing: CredentialsMissing) => Promise<true>) | undefined;
  /** the catalog again, after a connection was made (its tools are listed for the user now) */
  reloadCatalog?: (() => Promise<Catalog>) | undefined;
  /** the call's span: its upstream requests are spans under it and carry its trace context */
  span?: Span | undefined;
}

/**
 * Validates, asks `allow`, calls the upstream, unwraps. Every failure is a ToolCallError naming the
 * tool. Returns the value and its JSON text (made for the size check; the audit sizes the result
 * from it).
 */
export async function callTool(
  catalog: Catalog,
  servers: UpstreamServer[],
  qualifiedName: string,
  args: unknown,
  { timeoutMs, signal, allow, caller, onMissing, reloadCatalog, span }: CallOptions,
): Promise<{ value: unknown; json: string }> {
  const tool = await findOrConnect(catalog, qualifiedName, onMissing, reloadCatalog);
  const input = asJson(tool.qualifiedName, args === undefined || args === null ? {} : args);
  const problems = argumentErrors(tool, input);
  if (problems.length) {
    throw new ToolCallError(
      "ValidationError",
      `Invalid arguments for ${tool.qualifiedName}:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
  const server = servers.find((s) => s.name === tool.server);
  if (!server)
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)}: server "${tool.server}" is not configured; an operator must add it`,
    );
  await allow?.(tool, input);
  span?.set({ "gateway.server": tool.server, "gateway.tool": tool.name });
  // MCP `_meta` carries the trace context too, for an upstream that reads it there (2026-07-28).
  const meta = span ? { _meta: { [TRACEPARENT_META_KEY]: span.traceparent() } } : {};
  const name = tool.upstreamName ?? tool.name;
  const call = async (): Promise<unknown> => {
    const view = caller ? await asCaller(caller, server) : server;
    if (server.openapi) {
      const index = await catalog.operations?.(server.name);
      if (!index) throw new Error("its description is not indexed yet");
      const deadline = AbortSignal.timeout(timeoutMs);
      return callOperation(view, index, { name, qualifiedName: tool.qualifiedName }, input as Args, {
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        maxBytes: MAX_RESULT_CHARS,
        span,
      });
    }
    const result: CallToolResult = await withUpstream(
      view,
      timeoutMs,
      (client) =>
        client.callTool(
          { name, arguments: input as Args, ...meta },
          { timeout: timeoutMs, ...(signal ? { signal } : {}) },
        ),
      span,
    );
    if (result.isError)
      throw new ToolCallError("ToolError", `${tool.qualifiedName} returned an error: ${errorText(result)}`);
    return unwrapResult(result);
  };
  const attempt = () => withDeadline(call(), timeoutMs, `timed out after ${timeoutMs} ms`);
  let value: unknown;
  try {
    try {
      value = await attempt();
    } catch (err) {
      const missing = missingCredentials(err);
      if (!missing) throw err;
      if (!onMissing) throw new CredentialsNeeded(missing);
      await onMissing(missing);
      value = await attempt();
    }
  } catch (err) {
    if (err instanceof ToolCallError) throw err;
    if (err instanceof CredentialsNeeded || missingCredentials(err)) {
      throw new ToolCallError(
        "AuthorizationRequiredError",
        `${quoteName(tool.qualifiedName)}: server "${tool.server}" needs the user's own authorization, which this caller cannot ask for; connect from an MCP client or the REST API with the user's key`,
      );
    }
    if (signal?.aborted) {
      throw new ToolCallError(
        "CancelledError",
        `${quoteName(tool.qualifiedName)}: the execution was cancelled`,
      );
    }
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)} failed: ${clip(describeFailure(err), REASON_CHARS + 60)}; retry later, or use another tool`,
    );
  }
  const json = JSON.stringify(value ?? null);
  if (json.length > MAX_RESULT_CHARS) {
    throw new ToolCallError(
      "UpstreamError",
      `${quoteName(tool.qualifiedName)} returned ${json.length} characters; the most a sandbox accepts is ${MAX_RESULT_CHARS}. Ask for less: a smaller limit or page, or fewer fields`,
    );
  }
  return { value, json };
}

/**
 * The tool, or — when its server is per user and not reachable for this user yet, so that the
 * catalog may not list it — the connection asked for first, then the tool in the reloaded catalog.
 */
async function findOrConnect(
  catalog: Catalog,
  qualifiedName: string,
  onMissing: CallOptions["onMissing"],
  reloadCatalog: CallOptions["reloadCatalog"],
): Promise<CatalogTool> {
  try {
    return findTool(catalog, qualifiedName);
  } catch (err) {
    const server = qualifiedName.slice(0, Math.max(0, qualifiedName.indexOf(".")));
    const needs = catalog.servers.find((s) => s.name === server)?.needs;
    if (!needs || !onMissing || !reloadCatalog) throw err;
    await onMissing(
      "secret" in needs
        ? new CredentialsMissing(server, "secret-missing", needs.secret)
        : new CredentialsMissing(server, needs.connection),
    );
    return findTool(await reloadCatalog(), qualifiedName);
  }
}

/** Missing credentials with nobody to ask. */
class CredentialsNeeded extends Error {
  constructor(readonly missing: CredentialsMissing) {
    super(missing.message);
  }
}

/** Arguments as the upstream will see them (JSON): `undefined` members dropped, Dates as strings. */
function asJson(name: string, args: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(args));
  } catch (err) {
    throw new ToolCallError(
      "ValidationError",
      `Invalid arguments for ${quoteName(name)}: not JSON-serializable (${clip((err as Error).message, REASON_CHARS)}); pass plain objects, arrays, strings, numbers`,
    );
  }
}
