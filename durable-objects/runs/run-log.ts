import { DurableObject } from "cloudflare:workers";
import { type NumberedEvent, RunEvent, type RunStatus } from "./run-event";

/** An ended run is kept (for tasks/get and a late retry) this long, then deleted. */
const KEEP_ENDED_MS = 3_600_000;
/** A run that reported nothing this long past its deadline lost its gateway: it is closed as `lost`. */
const LOST_GRACE_MS = 30_000;
const MAX_WAIT_MS = 60_000;
/** Events kept per run: questions and the end always; progress beyond this replaces the last one. */
const MAX_EVENTS = 200;

type Meta = { team: string; created_at: number; deadline: number; cancel: number };
type Row = { seq: number; at: number; body: string };

/**
 * One detached execution (named by its run id): the events it reported, in order, for the requests
 * that come after the one that started it — the retry of an `input_required` answer, `tasks/get`,
 * `tasks/cancel` — which may reach any isolate. The execution itself runs in the gateway request
 * that started it; it appends here and listens for a cancellation. Schema: docs/storage-schema.md.
 */
export class RunLog extends DurableObject {
  readonly #waiters = new Set<() => void>();
  readonly #cancelWaiters = new Set<() => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS meta (
      team TEXT NOT NULL, created_at INTEGER NOT NULL, deadline INTEGER NOT NULL, cancel INTEGER NOT NULL DEFAULT 0)`);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL)",
    );
  }

  async open(team: string, deadline: number): Promise<void> {
    const now = Date.now();
    this.ctx.storage.sql.exec(
      "INSERT INTO meta (team, created_at, deadline) VALUES (?, ?, ?)",
      team,
      now,
      deadline,
    );
    await this.ctx.storage.setAlarm(deadline + LOST_GRACE_MS);
  }

  /** Appends an event (nothing after the end); wakes whoever waits for one. */
  async append(input: RunEvent): Promise<number | null> {
    const event = RunEvent.parse(input);
    const last = this.lastEvent();
    if (!this.meta() || (last && ended(last))) return null;
    const sql = this.ctx.storage.sql;
    const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM events").one().n;
    if (event.kind === "progress" && count >= MAX_EVENTS && last?.kind === "progress") {
      sql.exec("DELETE FROM events WHERE seq = ?", last.seq);
    }
    const seq = (last?.seq ?? 0) + 1;
    sql.exec("INSERT INTO events (seq, at, body) VALUES (?, ?, ?)", seq, Date.now(), JSON.stringify(event));
    if (ended(event)) await this.ctx.storage.setAlarm(Date.now() + KEEP_ENDED_MS);
    for (const wake of [...this.#waiters]) wake();
    return seq;
  }

  /**
   * The first question or end after the question of approval `after` (from the start when null), as
   * soon as there is one; null after `maxMs` without one, or for another team's (or an unknown) run.
   */
  async next(team: string, after: string | null, maxMs: number): Promise<NumberedEvent | null> {
    if (this.meta()?.team !== team) return null;
    const deadline = Date.now() + Math.max(0, Math.min(maxMs, MAX_WAIT_MS));
    for (;;) {
      const found = this.decisiveAfter(after);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  async status(team: string): Promise<RunStatus | null> {
    const meta = this.meta();
    if (meta?.team !== team) return null;
    const last = this.lastEvent();
    const question = last?.kind === "question";
    const state: RunStatus["state"] =
      last?.kind === "result"
        ? meta.cancel
          ? "cancelled"
          : "completed"
        : last?.kind === "lost"
          ? "lost"
          : question
            ? "input_required"
            : "working";
    return {
      team,
      createdAt: meta.created_at,
      deadline: meta.deadline,
      state,
      cancelRequested: meta.cancel === 1,
      ...(last ? { last } : {}),
    };
  }

  /** Asks the run to stop (its gateway hears it through `cancelled`); false for another team's run. */
  async cancel(team: string): Promise<boolean> {
    if (this.meta()?.team !== team) return false;
    this.ctx.storage.sql.exec("UPDATE meta SET cancel = 1");
    for (const wake of [...this.#cancelWaiters]) wake();
    return true;
  }

  /** Resolves true when the run is asked to stop, false after `maxMs` (the gateway asks again). */
  async cancelled(maxMs: number): Promise<boolean> {
    if (this.meta()?.cancel === 1) return true;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#cancelWaiters.delete(wake);
        resolve(this.meta()?.cancel === 1);
      };
      const timer = setTimeout(wake, Math.max(0, Math.min(maxMs, MAX_WAIT_MS)));
      this.#cancelWaiters.add(wake);
    });
  }

  override async alarm(): Promise<void> {
    const last = this.lastEvent();
    if (last && ended(last)) {
      await this.ctx.storage.deleteAll();
      return;
    }
    if (this.meta()) {
      await this.append({ kind: "lost", message: "the gateway running this execution stopped reporting" });
    }
  }

  private meta(): Meta | undefined {
    return this.ctx.storage.sql.exec<Meta>("SELECT * FROM meta").toArray()[0];
  }

  private lastEvent(): NumberedEvent | undefined {
    const row = this.ctx.storage.sql.exec<Row>("SELECT * FROM events ORDER BY seq DESC LIMIT 1").toArray()[0];
    return row && numbered(row);
  }

  private decisiveAfter(after: string | null): NumberedEvent | undefined {
    const decisive = this.ctx.storage.sql
      .exec<Row>("SELECT * FROM events ORDER BY seq")
      .toArray()
      .map(numbered)
      .filter((e) => e.kind !== "progress");
    if (after === null) return decisive[0];
    const at = decisive.findIndex((e) => e.kind === "question" && e.question.id === after);
    return at < 0 ? undefined : decisive[at + 1];
  }
}

function numbered(row: Row): NumberedEvent {
  return { ...RunEvent.parse(JSON.parse(row.body)), seq: row.seq, at: row.at };
}

const ended = (event: RunEvent) => event.kind === "result" || event.kind === "lost";
