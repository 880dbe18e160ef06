import {
  checkResourceAllowed,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  resourceUrlFromServerUrl,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { ConnectionStoreApi } from "../../../durable-objects/connections/answers";
import {
  CONNECT_PATHS,
  callbackUrl,
  clientMetadata,
  clientMetadataUrl,
  type OAuthSettings,
} from "./client-metadata";

/** An upstream MCP server that takes per-user OAuth, as the gateway's config gives it. */
export interface OAuthServer {
  name: string;
  /** the MCP endpoint: the resource its tokens are asked for and sent to */
  url: string;
  /** how it and its authorization server are reached (a service binding's fetch); default fetch */
  fetch?: FetchLike;
  auth: OAuthSettings;
}

/** Who a provider acts for: one (team, user, server), on the gateway's own origin. */
export interface ProviderScope {
  store: ConnectionStoreApi;
  team: string;
  user: string;
  server: OAuthServer;
  /** the gateway's origin (`https://gw.example.com`): its callback and metadata document live there */
  origin: string;
}

/**
 * Which leg of the flow a provider serves. connect: the user opened the link, the SDK makes the
 * authorization URL (fresh discovery). callback: the code is exchanged, against the discovery and
 * verifier recorded with the flow. refresh: the stored refresh token is used (cached discovery, or
 * fresh with `rediscover` after a 401).
 */
export type Leg =
  | { kind: "connect"; state: string }
  | { kind: "callback"; verifier: string; discovery: OAuthDiscoveryState }
  | { kind: "refresh"; tokens: StoredOAuthTokens; rediscover?: boolean };

/** An error of the connect flow whose message may be shown to the user as it is. */
export class ConnectError extends Error {
  override name = "ConnectError";
}

/**
 * The SDK's `OAuthClientProvider` for one (team, user, server) over the team's `ConnectionStore`:
 * `auth()` from @modelcontextprotocol/client does discovery, registration, PKCE, the exchange and
 * the refresh; this keeps what it hands over (sealed in the store) and records what a leg produced.
 */
export class UpstreamOAuthProvider implements OAuthClientProvider {
  /** connect leg: where to send the browser, and the verifier and discovery to keep with the flow */
  authorizationUrl: URL | undefined;
  verifier: string | undefined;
  discovery: OAuthDiscoveryState | undefined;
  /** the tokens this provider saved, if any */
  saved: StoredOAuthTokens | undefined;
  /** the SDK found the tokens no longer good (invalid_grant) and dropped them */
  tokensInvalidated = false;
  #resource: string | undefined;

  constructor(
    private readonly scope: ProviderScope,
    private readonly leg: Leg,
  ) {}

  get redirectUrl(): string {
    return callbackUrl(this.scope.origin);
  }

  get clientMetadataUrl(): string | undefined {
    return clientMetadataUrl(this.scope.origin);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.scope.server.auth.scopes;
    return { ...clientMetadata(this.scope.origin), ...(scopes?.length ? { scope: scopes.join(" ") } : {}) };
  }

  state(): string {
    return this.leg.kind === "connect" ? this.leg.state : "unused";
  }

  /** The configured client first (the spec's order), else the registration kept for the server. */
  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const { server, store, team, origin } = this.scope;
    if (this.leg.kind === "connect") this.requirePkce();
    const { clientId, clientSecret } = server.auth;
    if (clientId) {
      return {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(ctx ? { issuer: ctx.issuer } : {}),
      };
    }
    const text = (await store.registration(team, server.name)).client;
    const stored = text === null ? undefined : (JSON.parse(text) as StoredOAuthClientInformation);
    if (!stored && this.leg.kind === "refresh") {
      throw new ConnectError(`${server.name}: no client registration is kept for its authorization server`);
    }
    // A new connection registers again when the kept client is for another origin of the gateway.
    if (stored && this.leg.kind === "connect" && !fitsOrigin(stored, origin)) return undefined;
    return stored;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    const { store, team, server } = this.scope;
    await store.saveClient(team, server.name, JSON.stringify(info));
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.leg.kind === "refresh" && !this.tokensInvalidated ? this.leg.tokens : undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const { store, team, user, server } = this.scope;
    const previous = this.leg.kind === "refresh" ? this.leg.tokens.scope : undefined;
    const scope = tokens.scope ?? previous ?? server.auth.scopes?.join(" ") ?? "";
    await store.saveConnection(team, user, server.name, {
      tokens: JSON.stringify(tokens),
      issuer: tokens.issuer ?? "",
      resource: this.#resource ?? resourceUrlFromServerUrl(server.url).href,
      scopes: scope.split(" ").filter(Boolean),
      expiresAt: typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : null,
      obtainedBy: this.leg.kind === "callback" ? "code" : "refresh",
    });
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.leg.kind !== "callback")
      throw new Error("unreachable: the code verifier is read only on the callback leg");
    return this.leg.verifier;
  }

  async invalidateCredentials(what: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const { store, team, user, server } = this.scope;
    if ((what === "all" || what === "client") && !server.auth.clientId)
      await store.saveClient(team, server.name, null);
    if (what === "all" || what === "tokens") {
      this.tokensInvalidated = true;
      // Only a refresh drops the connection: a failed new sign-in leaves the old one as it was.
      if (this.leg.kind === "refresh") await store.expireConnection(team, user, server.name);
    }
    if (what === "all" || what === "discovery") {
      this.discovery = undefined;
      await store.saveDiscovery(team, server.name, null);
    }
  }

  /**
   * The resource indicator (RFC 8707): the protected-resource metadata's `resource` when it covers
   * the server's URL, else the server's URL itself; a metadata document naming another resource is
   * refused (its tokens would be for something else).
   */
  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL> {
    const canonical = resourceUrlFromServerUrl(serverUrl);
    if (resource === undefined) return canonical;
    if (!checkResourceAllowed({ requestedResource: canonical, configuredResource: resource })) {
      throw new ConnectError(
        `${this.scope.server.name}: its protected resource metadata names ${resource}, which is not ${canonical.href}`,
      );
    }
    return new URL(resource);
  }

  saveResourceUrl(resource: string): void {
    this.#resource = resource;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    const { store, team, server } = this.scope;
    if (this.leg.kind !== "callback") await store.saveDiscovery(team, server.name, JSON.stringify(state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.leg.kind === "callback") return this.leg.discovery;
    if (this.leg.kind === "connect" || this.leg.rediscover) return undefined;
    if (!this.discovery) {
      const { store, team, server } = this.scope;
      const text = (await store.registration(team, server.name)).discovery;
      this.discovery = text === null ? undefined : (JSON.parse(text) as OAuthDiscoveryState);
    }
    return this.discovery;
  }

  /** The spec: without `code_challenge_methods_supported` offering S256, a client must not go on. */
  private requirePkce(): void {
    const methods = this.discovery?.authorizationServerMetadata?.code_challenge_methods_supported;
    if (!methods?.includes("S256")) {
      throw new ConnectError(
        `${this.scope.server.name}: its authorization server does not say it supports PKCE S256, so the gateway does not connect to it`,
      );
    }
  }
}

/** Whether a kept client was registered for this origin's callback (or is its metadata document). */
function fitsOrigin(client: StoredOAuthClientInformation, origin: string): boolean {
  if (client.client_id.endsWith(CONNECT_PATHS.clientMetadata))
    return client.client_id === clientMetadataUrl(origin);
  const uris = "redirect_uris" in client ? client.redirect_uris : undefined;
  return !Array.isArray(uris) || uris.map(String).includes(callbackUrl(origin));
}
