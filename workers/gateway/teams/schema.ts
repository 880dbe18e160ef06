import { z } from "zod";
import { ENGINES } from "../../../shared/contract/engine";
import { SERVER_NAME } from "../../../shared/contract/tools";
import { parseEgressPattern } from "../egress/policy";

/** Team names follow the server-name rule: `^[a-z][a-z0-9_-]{0,31}$`. */
export const TEAM_NAME = SERVER_NAME;
export const DEFAULT_TEAM = "default";

/**
 * A glob over qualified tool names: printable characters, `*` the only wildcard (matched without
 * regexes, teams/policy.ts). Errors are reported under the field's path (`deny.0: …`).
 */
const glob = z
  .string()
  .min(1, { error: "a glob is 1 to 200 characters" })
  .max(200, { error: "a glob is 1 to 200 characters" })
  .regex(/^[\x21-\x7e]+$/, { error: "a glob is printable ASCII without spaces; * is the only wildcard" });

/**
 * A team's curation of one upstream tool (contract "OpenAPI upstreams", MCP servers alike): its
 * name as the team's agents see and call it (same server), and/or a description replacing the
 * upstream's.
 */
const ToolCuration = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, {
        error: "a tool name: a letter or _, then letters, digits, _ or -, at most 64",
      })
      .optional(),
    description: z.string().min(1).max(2_000).optional(),
  })
  .strict();

/** `PUT /admin/teams/{team}` body (contract "Teams, keys, audit"). */
export const TeamInput = z
  .object({
    servers: z.record(z.string(), z.unknown()).optional(),
    /** by the upstream's qualified name (`<server>.<tool>`) */
    tools: z
      .record(
        z.string().regex(/^[a-z][a-z0-9_-]{0,31}\.[^\s]{1,200}$/, {
          error: "a qualified tool name: <server>.<tool>",
        }),
        ToolCuration,
      )
      .refine((t) => Object.keys(t).length <= 2_000, { error: "at most 2,000 tools" })
      .optional(),
    allow: z.array(glob).max(200).optional(),
    deny: z.array(glob).max(200).optional(),
    /** hosts code may fetch (off by default): `api.example.com`, `*.example.com`, each optionally `:port` */
    egress: z
      .array(
        z.string().transform((raw, ctx) => {
          const parsed = parseEgressPattern(raw);
          if (parsed.ok) return parsed.pattern.text;
          ctx.issues.push({ code: "custom", message: parsed.reason, input: raw });
          return z.NEVER;
        }),
      )
      .max(100)
      .optional(),
    /** PII tokenization for this team's executions (overrides PII_MODE) */
    pii: z
      .object({ mode: z.enum(["off", "tokenize"]) })
      .strict()
      .optional(),
    /** calls from code that wait for a person's approval (overrides APPROVALS) */
    approvals: z
      .object({
        require: z.array(glob).max(200).optional(),
        skip: z.array(glob).max(200).optional(),
        /** tools annotated `destructiveHint: true` (default true) */
        destructive: z.boolean().optional(),
        timeoutSeconds: z.number().int().min(5).max(3_600).optional(),
      })
      .strict()
      .optional(),
    /** which engine runs this team's code (overrides SANDBOX_ENGINE) */
    engine: z.enum(ENGINES, { error: 'expected "quickjs" or "isolate"' }).optional(),
    limits: z
      .object({
        requestsPerMinute: z.number().int().min(1).max(1_000_000).optional(),
        timeoutMs: z
          .number()
          .int()
          .min(100)
          .max(15 * 60_000)
          .optional(),
        maxToolCalls: z.number().int().min(0).max(10_000).optional(),
        maxOutputChars: z.number().int().min(1_000).max(5_000_000).optional(),
        maxConcurrent: z.number().int().min(1).max(10_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TeamInput = z.infer<typeof TeamInput>;

export const TeamRecord = TeamInput.extend({
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TeamRecord = z.infer<typeof TeamRecord>;

/**
 * A key's user (contract "Per-user upstream authorization"): who its requests act as, such as an
 * email. Printable, no spaces at either end; a key without one is a user of its own (its id).
 */
export const UserName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u, "printable text without spaces at either end");

export const KeyInput = z.object({ name: z.string().min(1).max(100), user: UserName.optional() }).strict();

/** What is kept of an API key: never the key itself, only its SHA-256. */
export const KeyRecord = z.object({
  id: z.string(),
  team: z.string(),
  name: z.string(),
  /** the user the key acts as; absent: the key is a user of its own (its id) */
  user: z.string().optional(),
  prefix: z.string(),
  hash: z.string(),
  createdAt: z.number(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

/** Whose the request is: the API key's team, id (`dev` for DEV_API_KEY) and user. */
export interface ApiKey {
  team: string;
  keyId: string;
  /** the key's `user`, else its id; `dev` for DEV_API_KEY */
  user: string;
}

/** DEV_API_KEY's identity: team `default`, key and user `dev`. */
export const DEV_KEY: ApiKey = Object.freeze({ team: DEFAULT_TEAM, keyId: "dev", user: "dev" });

/** Who a stored key acts as. */
export function keyIdentity(record: KeyRecord): ApiKey {
  return { team: record.team, keyId: record.id, user: record.user ?? record.id };
}
