import { DurableObject } from "cloudflare:workers";
import type { ConnectionView, UserSecretView } from "../../shared/contract/connections";
import type {
  Connection,
  ConnectionInput,
  ConnectionStoreApi,
  FlowAnswer,
  FlowStart,
  OpenedFlow,
  Registration,
} from "./answers";
import { Flows } from "./flows";
import { Records } from "./records";
import { type ConnectionsEnv, StoreBase } from "./tables";

/** The store's private parts: nothing of them is reachable over RPC. */
class Parts {
  readonly base: StoreBase;
  readonly records: Records;
  readonly flows: Flows;

  constructor(storage: DurableObjectStorage, env: ConnectionsEnv) {
    this.base = new StoreBase(storage, env);
    this.records = new Records(this.base);
    this.flows = new Flows(this.base);
  }
}

/**
 * One team's per-user upstream authorization (named by the team): connections (sealed tokens) per
 * (user, server), client registrations per server, pending connect flows, per-user secrets.
 * Everything secret is sealed with AES-GCM under `CONNECTIONS_KEY` (shared/seal.ts), bound to its
 * row. This class is only the RPC surface: each method checks its arguments and hands over to
 * private parts (`#parts`), so no storage, SQL or key is reachable from a stub.
 * Schema: docs/storage-schema.md.
 */
export class ConnectionStore extends DurableObject<ConnectionsEnv> implements ConnectionStoreApi {
  readonly #parts: Parts;

  constructor(ctx: DurableObjectState, env: ConnectionsEnv) {
    super(ctx, env);
    this.#parts = new Parts(ctx.storage, env);
  }

  async connection(team: string, user: string, server: string): Promise<Connection | null> {
    this.#parts.base.check(team, user, server);
    return this.#parts.records.connection(user, server);
  }

  async saveConnection(team: string, user: string, server: string, input: ConnectionInput): Promise<void> {
    this.#parts.base.check(team, user, server);
    await this.#parts.records.save(user, server, input);
  }

  async expireConnection(team: string, user: string, server: string): Promise<boolean> {
    this.#parts.base.check(team, user, server);
    return this.#parts.records.expire(user, server);
  }

  async removeConnection(
    team: string,
    user: string,
    server: string,
  ): Promise<{ removed: boolean; tokens: string | null }> {
    this.#parts.base.check(team, user, server);
    return this.#parts.records.remove(user, server);
  }

  async listConnections(team: string, user?: string): Promise<ConnectionView[]> {
    this.#parts.base.check(team, user);
    return this.#parts.records.list(user);
  }

  async claimRefresh(team: string, user: string, server: string, ms: number): Promise<boolean> {
    this.#parts.base.check(team, user, server);
    return this.#parts.records.claimRefresh(user, server, Number(ms));
  }

  async registration(team: string, server: string): Promise<Registration> {
    this.#parts.base.check(team, undefined, server);
    return this.#parts.records.registration(server);
  }

  async saveDiscovery(team: string, server: string, discovery: string | null): Promise<void> {
    this.#parts.base.check(team, undefined, server);
    this.#parts.records.saveDiscovery(server, discovery);
  }

  async saveClient(team: string, server: string, client: string | null): Promise<void> {
    this.#parts.base.check(team, undefined, server);
    await this.#parts.records.saveClient(server, client);
  }

  async openFlow(team: string, user: string, server: string): Promise<OpenedFlow> {
    this.#parts.base.check(team, user, server);
    return this.#parts.flows.open(user, server);
  }

  async flow(
    team: string,
    id: string,
    user: string,
  ): Promise<FlowAnswer<{ server: string; expiresAt: number }>> {
    this.#parts.base.check(team, user);
    return this.#parts.flows.peek(id, user);
  }

  async pendingFlow(
    team: string,
    id: string,
  ): Promise<FlowAnswer<{ user: string; server: string; expiresAt: number }>> {
    this.#parts.base.check(team);
    return this.#parts.flows.owner(id);
  }

  async startFlow(
    team: string,
    id: string,
    user: string,
    server: string,
    start: FlowStart,
  ): Promise<FlowAnswer<object>> {
    this.#parts.base.check(team, user, server);
    return this.#parts.flows.start(id, user, server, start);
  }

  async takeFlow(
    team: string,
    id: string,
    user: string,
    stateHash: string,
  ): Promise<FlowAnswer<{ server: string; verifier: string; discovery: string }>> {
    this.#parts.base.check(team, user);
    return this.#parts.flows.take(id, user, stateHash);
  }

  async userSecret(team: string, user: string, name: string): Promise<string | null> {
    this.#parts.base.check(team, user);
    return this.#parts.records.userSecret(user, name);
  }

  async setUserSecret(team: string, user: string, name: string, value: string | null): Promise<boolean> {
    this.#parts.base.check(team, user);
    return this.#parts.records.setUserSecret(user, name, value);
  }

  async listUserSecrets(team: string, user: string): Promise<UserSecretView[]> {
    this.#parts.base.check(team, user);
    return this.#parts.records.listUserSecrets(user);
  }

  async dropFlow(team: string, id: string, user: string): Promise<boolean> {
    this.#parts.base.check(team, user);
    return this.#parts.flows.drop(id, user);
  }

  async forgetUser(team: string, user: string): Promise<{ secrets: number; flows: number }> {
    this.#parts.base.check(team, user);
    return { secrets: this.#parts.records.forgetUserSecrets(user), flows: this.#parts.flows.forget(user) };
  }

  override async alarm(): Promise<void> {
    const next = this.#parts.flows.sweep();
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1_000));
  }
}
