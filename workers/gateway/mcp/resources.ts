import { type McpServer, ProtocolError, type ServerContext } from "@modelcontextprotocol/server";
import { type FileInfo, pathProblem, type SessionCall } from "../../../shared/contract/session";
import type { RequestContext } from "../request/context";
import { textForClient } from "../sessions/client-text";
import { mimeTypeOf } from "../sessions/file-types";
import { callSession } from "../sessions/store";
import { readSkill, skillResources } from "./skill-resources";
import { pathOfUri, resourceContents, workspaceUri } from "./workspace-content";

/** MCP's code for a resource that does not exist (specification, "Resources": error handling). */
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
const PAGE_SIZE = 200;

/**
 * The team's skills as `skill://<name>` (SKILL.md) and the MCP session's workspace files as
 * `workspace://<path>` (contract "Sessions", "Skills"): listed a page at a time, files read as text
 * or base64 blob. Registered on the low-level server because the SDK's `{path}` template does not
 * match paths with slashes.
 */
export function registerWorkspaceResources(server: McpServer, ctx: RequestContext): void {
  const low = server.server;
  low.registerCapabilities({ resources: {} });

  low.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      {
        uriTemplate: "skill://{name}",
        name: "skill",
        title: "Saved skills",
        description: "A skill of this team as SKILL.md (front matter, then its code)",
        mimeType: "text/markdown",
      },
      {
        uriTemplate: "workspace://{path}",
        name: "workspace",
        title: "Session workspace files",
        description: "Files that code wrote with workspace.write() in this session",
      },
    ],
  }));

  low.setRequestHandler("resources/list", async (request, extra) => {
    const offset = cursorOffset(request.params?.cursor);
    const session = resourceSession(ctx, extra);
    const files = session
      ? ((await workspaceCall(ctx, session, { op: "workspace.list" })) as FileInfo[])
      : [];
    const all = [...(await skillResources(ctx)), ...files.map(fileResource)];
    return {
      resources: all.slice(offset, offset + PAGE_SIZE),
      ...(offset + PAGE_SIZE < all.length ? { nextCursor: String(offset + PAGE_SIZE) } : {}),
    };
  });

  low.setRequestHandler("resources/read", async (request, extra) => {
    const { uri } = request.params;
    if (uri.startsWith("skill://")) return { contents: [await readSkill(ctx, uri)] };
    const path = pathOfUri(uri);
    const problem = path === undefined ? "not a workspace:// URI" : pathProblem(path);
    if (path === undefined || problem !== undefined) {
      // SEP-2164: an unknown resource is Invalid Params, with the URI in the error's data.
      throw new ProtocolError(INVALID_PARAMS, `Cannot read ${uri.slice(0, 300)}: ${problem}`, {
        uri: uri.slice(0, 2048),
      });
    }
    const id = resourceSession(ctx, extra);
    if (!id) {
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 300)}`, {
        uri: uri.slice(0, 2048),
      });
    }
    const bytes = (await workspaceCall(ctx, id, { op: "workspace.read", path })) as Uint8Array;
    const contents = resourceContents(uri, path, bytes);
    if ("text" in contents) {
      const text = await textForClient(ctx, id, contents.text);
      if (text === null) throw new ProtocolError(RESOURCE_NOT_FOUND, "The session has ended");
      return { contents: [{ ...contents, text }] };
    }
    return { contents: [contents] };
  });
}

/**
 * The session whose workspace the resources are: the MCP session (2025-era), or on MCP 2026-07-28,
 * which has none, the one the request names in `_meta.sessionId` (an execute result's sessionId).
 */
function resourceSession(ctx: RequestContext, extra: ServerContext): string | undefined {
  if (ctx.mcpSession) return ctx.mcpSession.id;
  const named = extra.mcpReq._meta?.sessionId;
  return ctx.mcpEra === "modern" && typeof named === "string" && named.length <= 100 ? named : undefined;
}

function fileResource(file: FileInfo) {
  return {
    uri: workspaceUri(file.path),
    name: file.path,
    size: file.size,
    ...(mimeTypeOf(file.path) ? { mimeType: mimeTypeOf(file.path) } : {}),
    annotations: { lastModified: file.modifiedAt },
  };
}

async function workspaceCall(ctx: RequestContext, id: string, call: SessionCall): Promise<unknown> {
  const answer = await callSession(ctx.env, id, ctx.team, call, ctx.config.sessionQuota);
  if (answer.ok) return answer.value;
  if (answer.error.name === "InvalidPathError") throw new ProtocolError(INVALID_PARAMS, answer.error.message);
  throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${answer.error.message}`);
}

function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^\d{1,7}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!Number.isInteger(n))
    throw new ProtocolError(INVALID_PARAMS, "Invalid cursor: pass back a nextCursor unchanged");
  return n;
}
