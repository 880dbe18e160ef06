import { z } from "zod";

export const SessionRecordSchema = z.object({
  id: z.string().min(1),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  ttlSeconds: z.number().int().positive(),
  protocolVersion: z.string(),
  /** the team of the key that opened it: other teams' keys get 404 for this session */
  team: z.string(),
  client: z.object({ name: z.string(), version: z.string() }).optional(),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;
