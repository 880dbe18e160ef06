import type { Admission, AdmitAsk } from "../../../durable-objects/limiter/rate-limiter";
import type { GatewayEnv } from "../env";
import { GatewayError } from "../errors";
import { releaseLease } from "./leases";
import { limiter } from "./limiter";

type WaitUntil = (promise: Promise<unknown>) => void;

export interface AdmissionLineOptions {
  /** admit calls one team may have under way from this isolate before later asks queue */
  maxInFlight: number;
  /** asks sent together in one queued call (a group) */
  maxGroup: number;
  /** how long a queued ask waits for its answer before its request fails (503) */
  waitMs: number;
}

/** Chosen by measurement under load (docs/bench-log.md; docs/operations.md, "Admission line"). */
export const ADMISSION_LINE: AdmissionLineOptions = { maxInFlight: 2, maxGroup: 64, waitMs: 5_000 };

interface Waiting {
  ask: AdmitAsk;
  /** `waitUntil`: the sending request's, for a lease answered too late (the asker has gone) */
  answer: (admission: Admission, waitUntil: WaitUntil) => void;
  fail: (err: unknown) => void;
}

/** A call under way: when it went, and how to give its slot back (`via`: whose `waitUntil` sends next). */
interface Call {
  at: number;
  free: (via?: WaitUntil) => void;
}

interface Line {
  calls: Set<Call>;
  queue: Waiting[];
}

/**
 * A team's admit calls from this isolate: while `maxInFlight` are under way, later asks queue, and
 * when one returns, the queue goes in one `admitMany` call, each ask decided on its own and in
 * order by the team's limiter object, as separate calls would be. A burst of requests then costs a
 * few Durable Object calls instead of one each; a request that queues waits for at most one call
 * more. A queued request keeps its own timer (workerd ends a request that waits only on another
 * request's I/O) and fails after `waitMs` without an answer; a lease answered after that goes back;
 * a call still under way after `waitMs` no longer holds its slot (checked as asks come, no timer).
 */
export function admissionLine(options: AdmissionLineOptions = ADMISSION_LINE) {
  const lines = new Map<string, Line>();

  function lineOf(team: string): Line {
    let line = lines.get(team);
    if (line === undefined) {
      line = { calls: new Set(), queue: [] };
      lines.set(team, line);
    }
    return line;
  }

  /** Takes a call slot; the returned function gives it back (once) and sends what queued meanwhile. */
  function occupy(env: GatewayEnv, team: string, line: Line, waitUntil: WaitUntil): () => void {
    const call: Call = {
      at: Date.now(),
      free: (via = waitUntil) => {
        if (!line.calls.delete(call)) return;
        if (line.calls.size === 0 && line.queue.length === 0) lines.delete(team);
        else send(env, team, line, via);
      },
    };
    line.calls.add(call);
    return () => call.free();
  }

  /**
   * Slots of calls older than `waitMs` go back (a call lost with its request cannot hold the line);
   * what queued goes with the asking request's `waitUntil`, not the lost one's.
   */
  function reap(line: Line, waitUntil: WaitUntil): void {
    const now = Date.now();
    for (const call of line.calls) if (now - call.at >= options.waitMs) call.free(waitUntil);
  }

  /** Sends the queue (its first `maxGroup` asks) when a call may go. */
  function send(env: GatewayEnv, team: string, line: Line, waitUntil: WaitUntil): void {
    if (line.queue.length === 0 || line.calls.size >= options.maxInFlight) return;
    const group = line.queue.splice(0, options.maxGroup);
    const free = occupy(env, team, line, waitUntil);
    const call = limiter(env, team)
      .admitMany(group.map((w) => w.ask))
      .then(
        (answers) => {
          group.forEach((w, i) => {
            const answer = answers[i];
            if (answer) w.answer(answer, waitUntil);
            else w.fail(new Error(`the rate limiter answered ${answers.length} of ${group.length} admits`));
          });
        },
        (err: unknown) => {
          for (const w of group) w.fail(err);
        },
      )
      .finally(free);
    waitUntil(call);
  }

  function queued(env: GatewayEnv, team: string, line: Line, ask: AdmitAsk) {
    return new Promise<Admission>((resolve, reject) => {
      let done = false;
      const waiting: Waiting = {
        ask,
        answer: (admission, senderWaitUntil) => {
          if (!done) {
            done = true;
            clearTimeout(timer);
            resolve(admission);
          } else if (typeof admission.lease === "string") {
            releaseLease(env, team, admission.lease, senderWaitUntil);
          }
        },
        fail: (err) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        const at = line.queue.indexOf(waiting);
        if (at >= 0) line.queue.splice(at, 1);
        waiting.fail(
          new GatewayError(
            "limiter_unavailable",
            `The rate limiter did not answer within ${options.waitMs / 1000} s; retry`,
          ),
        );
      }, options.waitMs);
      line.queue.push(waiting);
    });
  }

  /** The limiter's answer to `ask` for a request of `team` (`waitUntil`: that request's). */
  return function admit(
    env: GatewayEnv,
    team: string,
    ask: AdmitAsk,
    waitUntil: WaitUntil,
  ): Promise<Admission> {
    const line = lineOf(team);
    reap(line, waitUntil);
    if (line.calls.size >= options.maxInFlight) return queued(env, team, line, ask);
    const free = occupy(env, team, line, waitUntil);
    return limiter(env, team)
      .admit(ask.keyId, ask.perMinute, ask.count, ask.lease, ask.released, ask.audit)
      .finally(free);
  };
}

/** Per-isolate state: the admission line (admit.ts), the admit calls under way and waiting, per team. */
export const admitInLine = admissionLine();
