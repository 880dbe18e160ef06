import { pathProblem, SESSION_LIMITS } from "../../../shared/contract/session";
import { GatewayError } from "../errors";
import type { RequestContext } from "../request/context";
import { textForClient } from "./client-text";
import { isActiveType, isTextType, mimeTypeOf, utf8Text } from "./file-types";
import { callSession, sessionNotFound } from "./store";

/**
 * `GET /v1/sessions/{id}/files/{path}`: a workspace file out of band, for a person or a client that
 * opens a new MCP session per call. The path after `/files/` is percent-decoded segment by segment
 * and must be a workspace path (`pathProblem`).
 */
export function filePathOf(url: string, id: string): string {
  const pathname = new URL(url).pathname;
  const prefix = `/v1/sessions/${id}/files/`;
  if (!pathname.startsWith(prefix)) throw sessionNotFound();
  const raw = pathname.slice(prefix.length);
  let path: string;
  try {
    path = raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new GatewayError("invalid_path", "The file path is not valid percent-encoding (UTF-8)");
  }
  const problem = pathProblem(path);
  if (problem !== undefined) throw invalidPath(path, problem);
  return path;
}

/** The file's bytes; unknown, ended or another team's session → 404 session_not_found, no such file → 404 file_not_found. */
export async function readWorkspaceFile(ctx: RequestContext, id: string, path: string): Promise<Uint8Array> {
  const answer = await callSession(
    ctx.env,
    id,
    ctx.team,
    { op: "workspace.read", path },
    ctx.config.sessionQuota,
  );
  if (answer.ok) return answer.value as Uint8Array;
  switch (answer.error.name) {
    case "NotFoundError":
      throw new GatewayError(
        "file_not_found",
        `No workspace file ${JSON.stringify(path)} in this session (workspace.list() shows its files)`,
      );
    case "InvalidPathError":
      throw new GatewayError("invalid_path", answer.error.message.slice(0, 300));
    default:
      throw sessionNotFound();
  }
}

/**
 * The file as a response: its bytes (text with PII tokenized when the team tokenizes, as MCP
 * resources/read does), a type from the extension, a strong ETag of what is sent, 304 when
 * `If-None-Match` names it. Types a browser would run as a document go out as attachments, and
 * nothing served may be sniffed or run script (docs/security.md, "Workspace downloads").
 */
export async function fileResponse(
  ctx: RequestContext,
  id: string,
  path: string,
  stored: Uint8Array,
  ifNoneMatch: string | undefined,
): Promise<Response> {
  const declared = mimeTypeOf(path);
  const text = declared === undefined || isTextType(declared) ? utf8Text(stored) : undefined;
  let bytes = stored;
  if (text !== undefined) {
    const shown = await textForClient(ctx, id, text);
    if (shown === null) throw sessionNotFound();
    if (shown !== text) bytes = new TextEncoder().encode(shown);
  }
  const etag = `"${await sha256Hex(bytes)}"`;
  const common = {
    ETag: etag,
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
  };
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag))
    return new Response(null, { status: 304, headers: common });
  const type = declared === undefined ? "application/octet-stream" : declared;
  const headers: Record<string, string> = {
    ...common,
    "Content-Type": isTextType(type) ? `${type}; charset=utf-8` : type,
    "Content-Length": String(bytes.byteLength),
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (isActiveType(type)) headers["Content-Disposition"] = attachment(path);
  return new Response(bytes, { status: 200, headers });
}

function invalidPath(path: string, problem: string): GatewayError {
  const shown = JSON.stringify(path.slice(0, SESSION_LIMITS.maxPathChars));
  return new GatewayError("invalid_path", `${shown} is not a workspace path: ${problem}`.slice(0, 300));
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** If-None-Match's weak comparison (RFC 9110 13.1.2): `*`, or any listed tag equal but for `W/`. */
function matches(header: string, etag: string): boolean {
  return header.split(",").some((item) => {
    const tag = item.trim();
    return tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === etag;
  });
}

/** `attachment` with the file's name: an ASCII fallback and the exact name (RFC 6266, RFC 8187). */
function attachment(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, "_");
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
