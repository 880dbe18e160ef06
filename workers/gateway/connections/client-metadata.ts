import type { OAuthClientMetadata } from "@modelcontextprotocol/client";
import { z } from "zod";
import { VERSION } from "../version";

/** Where the gateway's own pages of the connect flow live (the routes are the edge's). */
export const CONNECT_PATHS = {
  /** the upstream authorization server sends the browser back here */
  callback: "/connect/callback",
  /** the gateway's Client ID Metadata Document (its URL is the client_id) */
  clientMetadata: "/connect/client-metadata.json",
} as const;

/**
 * A server entry's `auth` (contract: "Per-user upstream authorization"), secrets already filled in.
 * `clientId`/`clientSecret`: a client registered with the upstream's authorization server beforehand.
 */
export const OAuthSettings = z
  .object({
    type: z.literal("oauth"),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { error: "a scope token" }))
      .max(50)
      .optional(),
    clientId: z.string().min(1).max(2000).optional(),
    clientSecret: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .refine((s) => s.clientSecret === undefined || s.clientId !== undefined, {
    error: "clientSecret needs clientId",
  });
export type OAuthSettings = z.infer<typeof OAuthSettings>;

export const callbackUrl = (origin: string): string => `${origin}${CONNECT_PATHS.callback}`;

/**
 * The URL of the gateway's Client ID Metadata Document, or undefined where the origin is not
 * https (`wrangler dev` on 127.0.0.1): a document URL must be https, so there the gateway falls
 * back to dynamic registration.
 */
export function clientMetadataUrl(origin: string): string | undefined {
  return origin.startsWith("https://") ? `${origin}${CONNECT_PATHS.clientMetadata}` : undefined;
}

/** What the gateway registers as (dynamic registration), and the body of its metadata document. */
export function clientMetadata(origin: string): OAuthClientMetadata {
  return {
    client_name: "Code-mode MCP gateway",
    client_uri: origin,
    software_id: "edge-code-mcp",
    software_version: VERSION,
    redirect_uris: [callbackUrl(origin)],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

/**
 * The Client ID Metadata Document the gateway serves at `CONNECT_PATHS.clientMetadata` on its own
 * origin (the route is the edge's): its `client_id` is its own URL, as the draft requires.
 */
export function clientMetadataDocument(origin: string): OAuthClientMetadata & { client_id: string } {
  return { client_id: `${origin}${CONNECT_PATHS.clientMetadata}`, ...clientMetadata(origin) };
}
