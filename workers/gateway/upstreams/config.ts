import { z } from "zod";
import { SERVER_NAME } from "../../../shared/contract/tools";
import { sha256 } from "../../../shared/hash";
import { OAuthSettings } from "../connections/client-metadata";

const SECRET_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** `${user:NAME}`: filled per call from the calling user's own secret NAME (connections/). */
export const USER_SECRET_REF = /\$\{user:([A-Za-z_][A-Za-z0-9_]{0,63})\}/g;

const glob = z.string().min(1).max(200);

const ServerSpec = z
  .object({
    url: z.string().refine(isHttpUrl, { error: "must be an http(s) URL" }).optional(),
    /** an OpenAPI description (contract "OpenAPI upstreams"): its URL, or a path on `service` */
    openapi: z.string().min(1).max(2_000).optional(),
    /** the API's base URL (default: the description's first server) */
    baseUrl: z.string().refine(isHttpUrl, { error: "must be an http(s) URL" }).optional(),
    /** globs over the operations' tool names */
    include: z.array(glob).max(200).optional(),
    exclude: z.array(glob).max(200).optional(),
    service: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "must be the name of a service binding" })
      .optional(),
    headers: z.record(z.string(), z.string()).optional(),
    transport: z.enum(["streamable-http", "sse"]).optional(),
    description: z.string().max(500).optional(),
    /** per-user OAuth: the gateway is this server's OAuth client for each user (`${SECRET}` in clientId/clientSecret) */
    auth: z
      .object({ type: z.literal("oauth") })
      .loose()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const fail = (message: string, path?: string) =>
      ctx.addIssue({ code: "custom", message, path: path ? [path] : [] });
    if (s.openapi === undefined) {
      if ((s.url === undefined) === (s.service === undefined)) fail("needs exactly one of url or service");
      for (const field of ["baseUrl", "include", "exclude"] as const)
        if (s[field] !== undefined) fail('is for OpenAPI servers (with "openapi")', field);
      return;
    }
    if (s.url !== undefined) fail('an OpenAPI server names its description in "openapi", not "url"', "url");
    if (s.transport !== undefined) fail("is for MCP servers", "transport");
    if (s.service === undefined && !isHttpUrl(s.openapi))
      fail("must be the http(s) URL of the description (or a path on a service binding)", "openapi");
    if (s.service !== undefined && !s.openapi.startsWith("/"))
      fail("with a service binding, is the description's path on it (/openapi.json)", "openapi");
  });
export type ServerSpec = z.infer<typeof ServerSpec>;

/** Where an OpenAPI server's description is and what of it is offered. */
export interface OpenApiSource {
  /** the description's URL (on the service binding, when there is one) */
  descriptionUrl: string;
  baseUrl?: string;
  include?: string[];
  exclude?: string[];
}

/** A configured upstream, with secrets filled in (gateway side only: never handed to a sandbox). */
export interface UpstreamServer {
  name: string;
  /** the endpoint; for a service binding, a URL on the binding */
  url: string;
  service?: Fetcher;
  headers: Record<string, string>;
  /** headers holding `${user:NAME}`, as written: filled per call from the calling user's secrets */
  userHeaders?: Record<string, string>;
  /** per-user OAuth (contract "Per-user upstream authorization"): each user's own token is sent */
  auth?: OAuthSettings;
  transport: "streamable-http" | "sse" | "auto";
  description?: string;
  /** an OpenAPI server: its operations are its tools (openapi/) */
  openapi?: OpenApiSource;
  /** SHA-256 of the spec as written (secrets unresolved): cache entries follow config changes */
  configHash: string;
}

export interface UpstreamConfig {
  servers: UpstreamServer[];
  /** each names the server and field, e.g. `MCP_SERVERS.github.url: must be an http(s) URL` */
  problems: string[];
}

/**
 * Parses `MCP_SERVERS`. A bad server is left out with a problem naming it and the field; the good
 * ones still work. `${NAME}` in header values (and in `auth.clientId`/`clientSecret`) is filled from
 * the Worker's secrets/vars; `${user:NAME}` is left for each call (the calling user's own secret).
 */
export async function parseMcpServers(raw: unknown, env: Record<string, unknown>): Promise<UpstreamConfig> {
  if (raw === undefined || raw === "") return { servers: [], problems: [] };
  let json: unknown = raw;
  if (typeof raw === "string") {
    try {
      json = JSON.parse(raw);
    } catch (err) {
      return { servers: [], problems: [`MCP_SERVERS: not valid JSON (${(err as Error).message})`] };
    }
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      servers: [],
      problems: ["MCP_SERVERS: must be a JSON object of { <server>: { url | service, … } }"],
    };
  }
  const servers: UpstreamServer[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(json)) {
    const where = `MCP_SERVERS.${name}`;
    if (!SERVER_NAME.test(name)) {
      problems.push(`${where}: server names must match ${SERVER_NAME.source}`);
      continue;
    }
    if (name === "skills") {
      problems.push(
        `${where}: "skills" is reserved for the team's saved skills (skills.<name>); rename the server`,
      );
      continue;
    }
    const parsed = ServerSpec.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push(`${[where, ...issue.path].join(".")}: ${issue.message}`);
      }
      continue;
    }
    const resolved = await resolve(name, parsed.data, env);
    if (typeof resolved === "string") problems.push(resolved);
    else servers.push(resolved);
  }
  return { servers, problems };
}

async function resolve(
  name: string,
  spec: ServerSpec,
  env: Record<string, unknown>,
): Promise<UpstreamServer | string> {
  const headers: Record<string, string> = {};
  const userHeaders: Record<string, string> = {};
  const where = `MCP_SERVERS.${name}`;
  for (const [header, template] of Object.entries(spec.headers ?? {})) {
    const filled = fillSecrets(template, env);
    if (!filled.ok) return `${where}.headers.${header}: references \${${filled.missing}}, which is not set`;
    if (new RegExp(USER_SECRET_REF.source).test(filled.value)) userHeaders[header] = filled.value;
    else headers[header] = filled.value;
  }
  let auth: OAuthSettings | undefined;
  if (spec.auth) {
    const raw: Record<string, unknown> = { ...spec.auth };
    for (const field of ["clientId", "clientSecret"] as const) {
      const value = raw[field];
      if (typeof value !== "string") continue;
      const filled = fillSecrets(value, env);
      if (!filled.ok) return `${where}.auth.${field}: references \${${filled.missing}}, which is not set`;
      raw[field] = filled.value;
    }
    const parsed = OAuthSettings.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `${[`${where}.auth`, ...(issue?.path ?? [])].join(".")}: ${issue?.message ?? "invalid"}`;
    }
    auth = parsed.data;
  }
  let service: Fetcher | undefined;
  if (spec.service) {
    const binding = env[spec.service] as Partial<Fetcher> | undefined;
    if (typeof binding?.fetch !== "function") {
      return `MCP_SERVERS.${name}.service: no service binding named ${spec.service}`;
    }
    service = binding as Fetcher;
  }
  const origin = spec.service ? `https://${spec.service.toLowerCase()}.internal` : undefined;
  const openapi = spec.openapi === undefined ? undefined : openApiSource(spec, origin);
  return {
    name,
    url: spec.url ?? openapi?.baseUrl ?? openapi?.descriptionUrl ?? `${origin}/mcp`,
    ...(service ? { service } : {}),
    headers,
    ...(Object.keys(userHeaders).length ? { userHeaders } : {}),
    ...(auth ? { auth } : {}),
    transport: spec.transport ?? "auto",
    ...(spec.description ? { description: spec.description } : {}),
    ...(openapi ? { openapi } : {}),
    configHash: await sha256(JSON.stringify(spec)),
  };
}

function openApiSource(spec: ServerSpec, origin: string | undefined): OpenApiSource {
  return {
    descriptionUrl: origin ? new URL(spec.openapi!, origin).href : spec.openapi!,
    ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
    ...(spec.include ? { include: spec.include } : {}),
    ...(spec.exclude ? { exclude: spec.exclude } : {}),
  };
}

/** `${NAME}`s in `template` filled from the Worker's secrets/vars; `${user:NAME}` left for the call. */
function fillSecrets(
  template: string,
  env: Record<string, unknown>,
): { ok: true; value: string } | { ok: false; missing: string } {
  let missing: string | undefined;
  const value = template.replace(SECRET_REF, (_, secret: string) => {
    const found = env[secret];
    if (typeof found !== "string" || found === "") missing ??= secret;
    return typeof found === "string" ? found : "";
  });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
