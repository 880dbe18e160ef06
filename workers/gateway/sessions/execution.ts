import type { PiiItem, SessionAnswer, SessionCall } from "../../../shared/contract/session";
import { sessionHistory } from "../audit";
import type { RequestContext } from "../request/context";
import { EphemeralVault } from "./ephemeral-vault";
import { liveSession } from "./live";
import { callSession, createSession, sessionNotFound, sessionStub } from "./store";

const NO_SESSION: SessionAnswer = {
  ok: false,
  error: {
    name: "NoSessionError",
    message:
      "state, workspace and session need a session: pass sessionId to execute (POST /v1/sessions makes one)",
  },
};

/**
 * The session one execution runs in, if any (contract "Sessions"): the `sessionId` given, else the
 * request's MCP session, else none — and then, for an MCP caller, one made on first use. Every call
 * names the team, so the object itself refuses a session that ended or belongs to someone else.
 */
export class ExecutionSession {
  #id: string | undefined;
  #creating: Promise<string> | undefined;
  #vault: EphemeralVault | undefined;

  private constructor(
    private readonly ctx: RequestContext,
    id: string | undefined,
    private readonly mayCreate: boolean,
  ) {
    this.#id = id;
  }

  /** Resolves the execution's session; an unknown or foreign `requested` id throws a GatewayError (session_not_found). */
  static async open(ctx: RequestContext, requested: string | undefined): Promise<ExecutionSession> {
    if (requested !== undefined) {
      const record = await liveSession(ctx.env, requested, ctx.team);
      if (!record) throw sessionNotFound();
      return new ExecutionSession(ctx, record.id, false);
    }
    if (ctx.mcpSession) return new ExecutionSession(ctx, ctx.mcpSession.id, false);
    return new ExecutionSession(ctx, undefined, ctx.via === "mcp");
  }

  /** Whether files can be kept for this execution: it has a session, or may make one on first use. */
  get canKeepFiles(): boolean {
    return this.#id !== undefined || this.mayCreate;
  }

  /** The session's id once there is one (an implicit session exists only after first use). */
  get id(): string | undefined {
    return this.#id;
  }

  async call(call: SessionCall): Promise<SessionAnswer> {
    const id = await this.ensure();
    if (id === undefined) return NO_SESSION;
    const { env, team, config } = this.ctx;
    if (call.op !== "session.history") return callSession(env, id, team, call, config.sessionQuota);
    // The history is the session's audit entries; the session object says whether it is live and the team's.
    const live = await callSession(env, id, team, { op: "session.info" }, config.sessionQuota);
    return live.ok ? { ok: true, value: await sessionHistory(env, team, id, this.ctx.waitUntil) } : live;
  }

  /** Tools a person approved for the rest of the session (`remember: "session"`); none without a session. */
  async approvedTools(): Promise<Set<string>> {
    if (this.#id === undefined) return new Set();
    return new Set((await sessionStub(this.ctx.env, this.#id).approvedTools(this.ctx.team)) ?? []);
  }

  /** Remembers an approval for the session; without one, it lasts the execution (the gate's own set). */
  async rememberApproval(tool: string): Promise<void> {
    if (this.#id !== undefined)
      await sessionStub(this.ctx.env, this.#id).rememberApproval(this.ctx.team, tool);
  }

  /** Tokens for detected values: the session's vault, or one that lives only for this execution. */
  async tokenize(items: PiiItem[]): Promise<string[]> {
    if (items.length === 0) return [];
    if (this.#id !== undefined) {
      const tokens = await sessionStub(this.ctx.env, this.#id).tokenize(this.ctx.team, items);
      if (tokens) return tokens;
    }
    this.#vault ??= new EphemeralVault();
    return this.#vault.tokenize(items);
  }

  /** The values behind `tokens` that this session handed out (unknown tokens are left out). */
  async restore(tokens: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (tokens.length === 0) return found;
    const values =
      this.#id !== undefined
        ? await sessionStub(this.ctx.env, this.#id).restore(this.ctx.team, tokens)
        : (this.#vault?.restore(tokens) ?? null);
    tokens.forEach((token, i) => {
      const value = values?.[i];
      if (typeof value === "string") found.set(token, value);
    });
    return found;
  }

  private async ensure(): Promise<string | undefined> {
    if (this.#id !== undefined) return this.#id;
    if (!this.mayCreate) return undefined;
    this.#creating ??= createSession(this.ctx.env, {
      kind: "implicit",
      team: this.ctx.team,
      ttlSeconds: this.ctx.config.sessionTtlSeconds,
    }).then((record) => {
      this.#id = record.id;
      return record.id;
    });
    return this.#creating;
  }
}
