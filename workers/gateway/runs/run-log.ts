import { type NumberedEvent, RunEvent, type RunStatus } from "./run-event";

/** Events kept per run: questions and the end always; progress beyond this replaces the last one. */
const MAX_EVENTS = 200;

type Meta = { team: string; created_at: number; deadline: number; cancel: number };
type Row = { seq: number; at: number; body: string };

/**
 * One detached execution's record in its object's SQLite storage (the object is
 * workers/gateway/runs/detached-run.ts): who started it, its deadline, a cancellation asked, and the
 * events it reported, in order, with waiters for the next one. Schema: docs/storage-schema.md.
 */
export class RunLog {
  readonly #waiters = new Set<() => void>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (
      team TEXT NOT NULL, created_at INTEGER NOT NULL, deadline INTEGER NOT NULL, cancel INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL)",
    );
  }

  open(team: string, deadline: number): void {
    this.sql.exec(
      "INSERT INTO meta (team, created_at, deadline) VALUES (?, ?, ?)",
      team,
      Date.now(),
      deadline,
    );
  }

  meta(): Meta | undefined {
    return this.sql.exec<Meta>("SELECT * FROM meta").toArray()[0];
  }

  /** Appends an event (nothing after the end); wakes whoever waits for one. */
  append(input: RunEvent): number | null {
    const event = RunEvent.parse(input);
    const last = this.last();
    if (!this.meta() || (last && isEnd(last))) return null;
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM events").one().n;
    if (event.kind === "progress" && count >= MAX_EVENTS && last?.kind === "progress") {
      this.sql.exec("DELETE FROM events WHERE seq = ?", last.seq);
    }
    const seq = (last?.seq ?? 0) + 1;
    this.sql.exec(
      "INSERT INTO events (seq, at, body) VALUES (?, ?, ?)",
      seq,
      Date.now(),
      JSON.stringify(event),
    );
    for (const wake of [...this.#waiters]) wake();
    return seq;
  }

  /**
   * The first question or end after the question (an approval's id, or a connect flow's) `after` (from the start when null), as
   * soon as there is one; null after `maxMs` or past the run's deadline without one, or for another
   * team's (or an unknown) run.
   */
  async next(team: string, after: string | null, maxMs: number): Promise<NumberedEvent | null> {
    const meta = this.meta();
    if (meta?.team !== team) return null;
    const until = Math.min(Date.now() + Math.max(0, maxMs), meta.deadline);
    for (;;) {
      const found = this.decisiveAfter(after);
      if (found) return found;
      const left = until - Date.now();
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

  status(team: string): RunStatus | null {
    const meta = this.meta();
    if (meta?.team !== team) return null;
    const last = this.last();
    // Progress may be reported after a question (its note of the wait comes throttled): the latest
    // event that is not progress says whether the run waits on one.
    const decisive = last?.kind === "progress" ? this.lastDecisive() : last;
    const question = decisive?.kind === "question" ? decisive.question : undefined;
    const connect = decisive?.kind === "connect" ? decisive.connect : undefined;
    // Asked to stop before it ended, the run is cancelled from then on (its end, if it comes, is the
    // cancelled execution's); a stop asked after the end is not recorded (markCancelled).
    const state: RunStatus["state"] =
      last?.kind === "lost"
        ? "lost"
        : meta.cancel
          ? "cancelled"
          : last?.kind === "result"
            ? "completed"
            : question || connect
              ? "input_required"
              : "working";
    return {
      team,
      createdAt: meta.created_at,
      deadline: meta.deadline,
      state,
      ...(last ? { last } : {}),
      ...(question ? { question } : {}),
      ...(connect ? { connect } : {}),
    };
  }

  /**
   * Records that the run was asked to stop, unless it already ended (then nothing changes); false for
   * another team's (or an unknown) run.
   */
  markCancelled(team: string): boolean {
    if (this.meta()?.team !== team) return false;
    const last = this.last();
    if (!(last && isEnd(last))) this.sql.exec("UPDATE meta SET cancel = 1");
    return true;
  }

  last(): NumberedEvent | undefined {
    const row = this.sql.exec<Row>("SELECT * FROM events ORDER BY seq DESC LIMIT 1").toArray()[0];
    return row && numbered(row);
  }

  private lastDecisive(): NumberedEvent | undefined {
    const rows = this.sql.exec<Row>("SELECT * FROM events ORDER BY seq DESC").toArray();
    for (const row of rows) {
      const event = numbered(row);
      if (event.kind !== "progress") return event;
    }
    return undefined;
  }

  private decisiveAfter(after: string | null): NumberedEvent | undefined {
    const decisive = this.sql
      .exec<Row>("SELECT * FROM events ORDER BY seq")
      .toArray()
      .map(numbered)
      .filter((e) => e.kind !== "progress");
    if (after === null) return decisive[0];
    const at = decisive.findIndex(
      (e) =>
        (e.kind === "question" && e.question.id === after) ||
        (e.kind === "connect" && e.connect.id === after),
    );
    return at < 0 ? undefined : decisive[at + 1];
  }
}

function numbered(row: Row): NumberedEvent {
  return { ...RunEvent.parse(JSON.parse(row.body)), seq: row.seq, at: row.at };
}

export const isEnd = (event: RunEvent) => event.kind === "result" || event.kind === "lost";
