import { z } from "zod";
import { IsoTime } from "./time";

/**
 * A user's connection to an OAuth upstream as `GET /v1/connections` and the admin API list it:
 * never a token. `expired`: a refresh failed, the upstream refused the token, or the tokens were
 * sealed under a key this deployment no longer has; the next call asks the user to connect again.
 */
export const ConnectionView = z.object({
  server: z.string(),
  user: z.string(),
  status: z.enum(["connected", "expired"]),
  scopes: z.array(z.string()),
  connectedAt: IsoTime,
  updatedAt: IsoTime,
  /** when the current access token expires, when the upstream said */
  expiresAt: IsoTime.optional(),
});
export type ConnectionView = z.infer<typeof ConnectionView>;
export type ConnectionStatus = ConnectionView["status"];

/** A per-user secret (`${user:NAME}`) as listed: its name and times, never its value. */
export const UserSecretView = z.object({
  name: z.string(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
});
export type UserSecretView = z.infer<typeof UserSecretView>;

/** The name in `${user:NAME}`. */
export const USER_SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Characters of one per-user secret's value. */
export const USER_SECRET_MAX_CHARS = 4096;
