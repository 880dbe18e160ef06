import type { ConnectionStatus, ConnectionView, UserSecretView } from "../../shared/contract/connections";

/** How a connection's current tokens were got: by the user's sign-in, or a refresh. */
export type ObtainedBy = "code" | "refresh";

/** What the gateway stores with a connection's tokens. */
export interface ConnectionInput {
  /** the token set's JSON text (sealed here; never stored or answered elsewhere) */
  tokens: string;
  /** the authorization server that issued them */
  issuer: string;
  /** the resource indicator they were asked for: the upstream MCP server's URL */
  resource: string;
  scopes: string[];
  /** ms since epoch when the access token expires; null when the upstream did not say */
  expiresAt: number | null;
  obtainedBy: ObtainedBy;
}

/**
 * One connection as the gateway reads it. `tokens` is null when the connection is `expired`, and
 * when its tokens were sealed under a key this deployment lacks (then `status` is `expired` too).
 */
export interface Connection extends Omit<ConnectionInput, "tokens"> {
  status: ConnectionStatus;
  tokens: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A server's registration with its authorization server: the discovery and client JSON texts. */
export interface Registration {
  discovery: string | null;
  client: string | null;
}

/** A connect flow as it is opened: its id goes into the user's link. */
export interface OpenedFlow {
  id: string;
  expiresAt: number;
}

/** What a flow holds once the user started it (the upstream's authorization URL was made). */
export interface FlowStart {
  /** SHA-256 (hex) of the `state` sent to the authorization server */
  stateHash: string;
  /** the PKCE code verifier (sealed here) */
  verifier: string;
  /** the discovery state JSON recorded when the authorization URL was made (its issuer is checked on return) */
  discovery: string;
}

/** Why a flow was not started or taken. Nothing changed. */
export type FlowRefusal =
  | "unknown"
  | "expired"
  | "wrong-user"
  | "wrong-server"
  | "wrong-state"
  | "not-started";

export type FlowAnswer<T> = ({ ok: true } & T) | { ok: false; reason: FlowRefusal };

/**
 * The store's methods as callers see them (workers/gateway/connections/ retypes the stub to this).
 * Every method names the team: the object is that team's, and refuses another's.
 */
export interface ConnectionStoreApi {
  connection(team: string, user: string, server: string): Promise<Connection | null>;
  saveConnection(team: string, user: string, server: string, input: ConnectionInput): Promise<void>;
  /** Drops the tokens and marks the connection expired; false when there is none. */
  expireConnection(team: string, user: string, server: string): Promise<boolean>;
  /** Deletes the connection; its tokens (for revocation) when they could be read. */
  removeConnection(
    team: string,
    user: string,
    server: string,
  ): Promise<{ removed: boolean; tokens: string | null }>;
  listConnections(team: string, user?: string): Promise<ConnectionView[]>;
  /** A lease of `ms` on refreshing one connection; false while another holds it. */
  claimRefresh(team: string, user: string, server: string, ms: number): Promise<boolean>;
  registration(team: string, server: string): Promise<Registration>;
  saveDiscovery(team: string, server: string, discovery: string | null): Promise<void>;
  saveClient(team: string, server: string, client: string | null): Promise<void>;
  openFlow(team: string, user: string, server: string): Promise<OpenedFlow>;
  /** A pending flow's server and expiry, for its user (the connect page, and the callback before it takes it). */
  flow(team: string, id: string, user: string): Promise<FlowAnswer<{ server: string; expiresAt: number }>>;
  /**
   * A pending flow's user, server and expiry, whoever asks: the connect page names them before it
   * knows who opened the link (refusals: `unknown`, `expired`).
   */
  pendingFlow(
    team: string,
    id: string,
  ): Promise<FlowAnswer<{ user: string; server: string; expiresAt: number }>>;
  startFlow(
    team: string,
    id: string,
    user: string,
    server: string,
    start: FlowStart,
  ): Promise<FlowAnswer<object>>;
  /** Takes a started flow once (deleted as it is taken): its server, verifier and discovery JSON. */
  takeFlow(
    team: string,
    id: string,
    user: string,
    stateHash: string,
  ): Promise<FlowAnswer<{ server: string; verifier: string; discovery: string }>>;
  /** Ends a pending flow of `user` unused (the user declined the link): the call waiting on it stops waiting. */
  dropFlow(team: string, id: string, user: string): Promise<boolean>;
  userSecret(team: string, user: string, name: string): Promise<string | null>;
  /** Sets (or with null deletes) a user's secret; false when deleting one that did not exist. */
  setUserSecret(team: string, user: string, name: string, value: string | null): Promise<boolean>;
  listUserSecrets(team: string, user: string): Promise<UserSecretView[]>;
  /** Deletes a user's secrets and pending flows (the user is gone); connections are removed one by one. */
  forgetUser(team: string, user: string): Promise<{ secrets: number; flows: number }>;
}
