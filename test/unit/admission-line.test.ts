import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Admission, AdmitAsk } from "../../durable-objects/limiter/rate-limiter";
import { admissionLine } from "../../workers/gateway/admission/admission-line";
import type { GatewayEnv } from "../../workers/gateway/env";
import { GatewayError } from "../../workers/gateway/errors";

const LEASE = { max: 3, ttlMs: 60_000 };
const ask = (keyId: string, perMinute = 5): AdmitAsk => ({
  keyId,
  perMinute,
  count: 1,
  lease: LEASE,
  released: [],
});

/** The real limiter namespace (the teams' audit logs), with every admit / admitMany call its stubs get counted. */
function countingEnv(): { env: GatewayEnv; calls: { admit: number; admitMany: number[] } } {
  const calls = { admit: 0, admitMany: [] as number[] };
  const real = env.AUDIT;
  const namespace = {
    idFromName: (name: string) => real.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = real.get(id);
      return {
        admit: (...args: Parameters<typeof stub.admit>) => {
          calls.admit++;
          return stub.admit(...args);
        },
        admitMany: (asks: AdmitAsk[]) => {
          calls.admitMany.push(asks.length);
          return stub.admitMany(asks);
        },
      };
    },
  };
  return { env: { ...env, AUDIT: namespace } as unknown as GatewayEnv, calls };
}

/** A namespace whose stubs answer admits with `answer` (a promise that may never settle). */
function fakeEnv(
  answer: () => Promise<Admission>,
  answerMany: (asks: AdmitAsk[]) => Promise<Admission[]> = async (asks) =>
    Promise.all(asks.map(() => answer())),
): GatewayEnv {
  const stub = { admit: answer, admitMany: answerMany, release: async () => {} };
  const namespace = { idFromName: (n: string) => n, get: () => stub };
  return { ...env, AUDIT: namespace, RATE_LIMITER: namespace } as unknown as GatewayEnv;
}

const background: Promise<unknown>[] = [];
const waitUntil = (p: Promise<unknown>) => {
  background.push(p);
};

describe("the admission line: a team's admits that meet in one isolate share limiter calls", () => {
  it("decides each queued ask on its own, exactly, in fewer calls than asks", async () => {
    const { env: counted, calls } = countingEnv();
    const admit = admissionLine({ maxInFlight: 1, maxGroup: 64, waitMs: 5_000 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => admit(counted, "line-exact", ask("k1"), waitUntil)),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
    const leases = answers.flatMap((a) => (typeof a.lease === "string" ? [a.lease] : []));
    expect(new Set(leases).size).toBe(3);
    expect(answers.filter((a) => a.allowed && a.lease === null)).toHaveLength(2);
    expect(answers.filter((a) => !a.allowed).every((a) => a.lease === undefined)).toBe(true);
    // One call alone, then the eleven that queued behind it, together.
    expect(calls.admit).toBe(1);
    expect(calls.admitMany).toEqual([11]);
  });

  it("sends nothing in a batch while fewer than maxInFlight calls are under way", async () => {
    const { env: counted, calls } = countingEnv();
    const admit = admissionLine({ maxInFlight: 4, maxGroup: 64, waitMs: 5_000 });
    await Promise.all(Array.from({ length: 3 }, () => admit(counted, "line-few", ask("k1", 100), waitUntil)));
    expect(calls).toEqual({ admit: 3, admitMany: [] });
  });

  it("fails every ask of a failed call, and the next ask goes through", async () => {
    let failing = true;
    const ok: Admission = { allowed: true, limit: 5, remaining: 4, resetSeconds: 12, retryAfterSeconds: 0 };
    const flaky = fakeEnv(async () => {
      if (failing) throw new Error("limiter down");
      return ok;
    });
    const admit = admissionLine({ maxInFlight: 1, maxGroup: 64, waitMs: 5_000 });
    const tries = await Promise.allSettled(
      Array.from({ length: 4 }, () => admit(flaky, "line-fail", ask("k"), waitUntil)),
    );
    expect(tries.map((t) => t.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    failing = false;
    await expect(admit(flaky, "line-fail", ask("k"), waitUntil)).resolves.toEqual(ok);
  });

  it("fails a queued ask that gets no answer in time (limiter_unavailable, a 503), and keeps the line moving", async () => {
    const never = fakeEnv(() => new Promise<Admission>(() => {}));
    const admit = admissionLine({ maxInFlight: 1, maxGroup: 64, waitMs: 50 });
    void admit(never, "line-stuck", ask("k"), waitUntil);
    const queued = admit(never, "line-stuck", ask("k"), waitUntil);
    const err = await queued.catch((e: unknown) => e);
    // The HTTP layer answers limiter_unavailable with 503 (http/errors.ts).
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({
      code: "limiter_unavailable",
      message: expect.stringMatching(/did not answer within 0.05 s/),
    });
  });

  it("gives a call's slot back after waitMs even if the call never settles", async () => {
    let calls = 0;
    const ok: Admission = { allowed: true, limit: 5, remaining: 4, resetSeconds: 12, retryAfterSeconds: 0 };
    const firstHangs = fakeEnv(() =>
      calls++ === 0 ? new Promise<Admission>(() => {}) : Promise.resolve(ok),
    );
    const admit = admissionLine({ maxInFlight: 1, maxGroup: 64, waitMs: 50 });
    void admit(firstHangs, "line-lost", ask("k"), waitUntil);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(admit(firstHangs, "line-lost", ask("k"), waitUntil)).resolves.toEqual(ok);
  });
});
