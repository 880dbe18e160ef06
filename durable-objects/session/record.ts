import { z } from "zod";

export const SessionRecordSchema = z.object({
  id: z.string().min(1),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  ttlSeconds: z.number().int().positive(),
  /**
   * `mcp`: opened by an MCP initialize (its id is the Mcp-Session-Id); `api`: by POST /v1/sessions;
   * `implicit`: made for an MCP caller without a session on its first use of state or workspace.
   * Only `mcp` sessions are accepted as an Mcp-Session-Id.
   */
  kind: z.enum(["mcp", "api", "implicit"]).default("mcp"),
  /** the MCP protocol version initialize agreed on (mcp sessions only) */
  protocolVersion: z.string().optional(),
  /** the team of the key that opened it: other teams' keys get 404 for this session */
  team: z.string(),
  client: z.object({ name: z.string(), version: z.string() }).optional(),
  /** the elicitation modes the client declared in initialize (approvals ask through them) */
  elicitation: z.object({ form: z.boolean(), url: z.boolean() }).optional(),
  /** set by logging/setLevel: console lines at or above it are sent as notifications/message */
  logLevel: z
    .enum(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])
    .optional(),
});
export type SessionRecord = z.input<typeof SessionRecordSchema>;
