import { z } from "zod";

export const SessionRecordSchema = z.object({
  id: z.string().min(1),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  ttlSeconds: z.number().int().positive(),
  protocolVersion: z.string(),
  client: z.object({ name: z.string(), version: z.string() }).optional(),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;
