import { DurableObject } from "cloudflare:workers";
import { type ApprovalDecision, type ApprovalView, DecisionInput, PendingApproval } from "./approval";

/** Decided approvals are listed (recent decisions) this long, then deleted. */
const KEEP_DECIDED_MS = 24 * 3_600_000;
/** A pending approval past its deadline by this much lost its execution: it is closed as a timeout. */
const ORPHAN_GRACE_MS = 30_000;
const MAX_LISTED = 500;

type Row = {
  id: string;
  pending: string;
  status: string | null;
  decided_by: string | null;
  remember: string | null;
  decided_at: number | null;
};

/**
 * The deployment's approvals (one object, named "desk"): calls from code waiting for a person, and
 * the decisions of the last day. The first decision wins, whoever makes it (the MCP client, an
 * operator, the timeout); the execution waiting on `wait` hears it at once. Approvals happen at a
 * person's pace, so one object carries every team. Schema: docs/storage-schema.md.
 */
export class ApprovalDesk extends DurableObject {
  readonly #waiters = new Map<string, Set<(decision: ApprovalDecision) => void>>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS approvals (
      id TEXT PRIMARY KEY, team TEXT NOT NULL, created_at INTEGER NOT NULL, deadline INTEGER NOT NULL,
      pending TEXT NOT NULL, status TEXT, decided_by TEXT, remember TEXT, decided_at INTEGER)`);
    ctx.storage.sql.exec("CREATE INDEX IF NOT EXISTS approvals_created ON approvals (created_at)");
  }

  async open(input: PendingApproval): Promise<void> {
    const pending = PendingApproval.parse(input);
    this.ctx.storage.sql.exec(
      "INSERT INTO approvals (id, team, created_at, deadline, pending) VALUES (?, ?, ?, ?, ?)",
      pending.id,
      pending.team,
      pending.createdAt,
      pending.deadline,
      JSON.stringify(pending),
    );
    await this.scheduleAlarm(pending.deadline + ORPHAN_GRACE_MS);
  }

  /** The decision, as soon as there is one; null after `maxMs` without one. */
  async wait(id: string, maxMs: number): Promise<ApprovalDecision | null> {
    const row = this.row(id);
    if (!row) return null;
    const decided = decisionOf(row);
    if (decided) return decided;
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      const done = (decision: ApprovalDecision | null) => {
        clearTimeout(timer);
        waiters.delete(hear);
        if (waiters.size === 0) this.#waiters.delete(id);
        resolve(decision);
      };
      const hear = (decision: ApprovalDecision) => done(decision);
      const timer = setTimeout(() => done(null), Math.max(0, Math.min(maxMs, 300_000)));
      waiters.add(hear);
      this.#waiters.set(id, waiters);
    });
  }

  /**
   * Decides a pending approval: the decision that stands (an earlier one wins), or null for an
   * unknown id. `team` limits it to that team's approvals (an MCP client answers only its own).
   */
  async decide(id: string, input: DecisionInput, team?: string): Promise<ApprovalDecision | null> {
    const { approve, by, remember } = DecisionInput.parse(input);
    return this.close(id, { status: approve ? "approved" : "denied", by, remember }, team);
  }

  /** Closes an approval nobody decided in time (`timeout`) or whose execution ended (`cancelled`). */
  async expire(id: string, status: "timeout" | "cancelled"): Promise<ApprovalDecision | null> {
    return this.close(id, { status, by: "gateway", remember: "call" });
  }

  /** One approval with its decision, if any; null when unknown (or gone after a day). */
  async get(id: string): Promise<ApprovalView | null> {
    const row = this.row(id);
    return row ? view(row) : null;
  }

  /** Pending approvals first (oldest first), then the last day's decisions (newest first). */
  async list(
    filter: { team?: string | undefined; limit?: number | undefined } = {},
  ): Promise<ApprovalView[]> {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), MAX_LISTED);
    const since = Date.now() - KEEP_DECIDED_MS;
    const where = filter.team === undefined ? "" : "AND team = ?";
    const binds = filter.team === undefined ? [] : [filter.team];
    const sql = this.ctx.storage.sql;
    const pending = sql
      .exec<Row>(
        `SELECT * FROM approvals WHERE status IS NULL ${where} ORDER BY created_at LIMIT ?`,
        ...binds,
        limit,
      )
      .toArray();
    const decided = sql
      .exec<Row>(
        `SELECT * FROM approvals WHERE status IS NOT NULL AND decided_at >= ? ${where} ORDER BY decided_at DESC LIMIT ?`,
        since,
        ...binds,
        Math.max(0, limit - pending.length),
      )
      .toArray();
    return [...pending, ...decided].map(view);
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    const orphans = sql
      .exec<{ id: string }>(
        "SELECT id FROM approvals WHERE status IS NULL AND deadline < ?",
        now - ORPHAN_GRACE_MS,
      )
      .toArray();
    for (const { id } of orphans) await this.expire(id, "timeout");
    sql.exec("DELETE FROM approvals WHERE status IS NOT NULL AND decided_at < ?", now - KEEP_DECIDED_MS);
    const next = sql
      .exec<{ at: number | null }>(
        "SELECT MIN(CASE WHEN status IS NULL THEN deadline + ? ELSE decided_at + ? END) AS at FROM approvals",
        ORPHAN_GRACE_MS,
        KEEP_DECIDED_MS,
      )
      .one().at;
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, now + 1_000));
  }

  private async close(
    id: string,
    outcome: Omit<ApprovalDecision, "decidedAt">,
    team?: string,
  ): Promise<ApprovalDecision | null> {
    const row = this.row(id);
    if (!row || (team !== undefined && view(row).team !== team)) return null;
    const earlier = decisionOf(row);
    if (earlier) return earlier;
    const decision: ApprovalDecision = { ...outcome, decidedAt: Date.now() };
    this.ctx.storage.sql.exec(
      "UPDATE approvals SET status = ?, decided_by = ?, remember = ?, decided_at = ? WHERE id = ?",
      decision.status,
      decision.by,
      decision.remember,
      decision.decidedAt,
      id,
    );
    for (const hear of this.#waiters.get(id) ?? []) hear(decision);
    await this.scheduleAlarm(decision.decidedAt + KEEP_DECIDED_MS);
    return decision;
  }

  private row(id: string): Row | undefined {
    return this.ctx.storage.sql.exec<Row>("SELECT * FROM approvals WHERE id = ?", id).toArray()[0];
  }

  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

function decisionOf(row: Row): ApprovalDecision | undefined {
  if (row.status === null) return undefined;
  return {
    status: row.status as ApprovalDecision["status"],
    by: (row.decided_by ?? "gateway") as ApprovalDecision["by"],
    remember: (row.remember ?? "call") as ApprovalDecision["remember"],
    decidedAt: row.decided_at ?? 0,
  };
}

function view(row: Row): ApprovalView {
  const pending = PendingApproval.parse(JSON.parse(row.pending));
  const decision = decisionOf(row);
  return decision ? { ...pending, decision } : pending;
}
