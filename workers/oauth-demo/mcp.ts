import { createMcpHandler, type McpRequestContext, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { DEMO_USERS } from "./users";

/** What the resource server verified about the caller, as the tools see it. */
export interface Caller {
  user: string;
  clientId: string;
  scopes: string[];
}

const SERVER_INFO = { name: "oauth-demo-notes", version: "1.0.0" };
const INSTRUCTIONS =
  "A demo notes service behind OAuth: every answer is for the user who signed in (whoami says who). Its data is fixed demo data.";

const Note = z.object({ title: z.string(), text: z.string() });

/** A server whose tools answer as `caller` (one per request: the transport is stateless). */
function notesServer(caller: Caller): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const person = DEMO_USERS[caller.user];
  server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description: "The signed-in user this server answers as, and the app (OAuth client) acting for them.",
      inputSchema: z.object({}),
      outputSchema: z.object({ user: z.string(), name: z.string(), email: z.string(), client: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async () => {
      const me = {
        user: caller.user,
        name: person?.name ?? caller.user,
        email: person?.email ?? "",
        client: caller.clientId,
      };
      return { content: [{ type: "text", text: JSON.stringify(me) }], structuredContent: me };
    },
  );
  server.registerTool(
    "my_notes",
    {
      title: "My notes",
      description: "The signed-in user's own notes (no one else's), optionally only those containing a word.",
      inputSchema: z.object({ contains: z.string().max(100).optional() }),
      outputSchema: z.object({ user: z.string(), notes: z.array(Note) }),
      annotations: { readOnlyHint: true },
    },
    async ({ contains }) => {
      const word = contains?.toLowerCase();
      const notes = (person?.notes ?? []).filter(
        (n) => !word || `${n.title} ${n.text}`.toLowerCase().includes(word),
      );
      const answer = { user: caller.user, notes };
      return { content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer };
    },
  );
  return server;
}

function factory(request: McpRequestContext): McpServer {
  const caller = request.authInfo?.extra?.caller as Caller | undefined;
  if (!caller) throw new Error("an MCP request reached the notes server without a verified caller");
  return notesServer(caller);
}

/** MCP 2026-07-28 and, statelessly, 2025-era requests: one SDK handler per isolate. */
const handler = createMcpHandler(factory, { legacy: "stateless" });

/** Serves one MCP request as `caller`, whose token the resource server has already checked. */
export function serveMcp(request: Request, caller: Caller, token: string): Promise<Response> {
  return handler.fetch(request, {
    authInfo: { token, clientId: caller.clientId, scopes: caller.scopes, extra: { caller } },
  });
}
