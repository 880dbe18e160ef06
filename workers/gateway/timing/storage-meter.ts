import { loadConfig } from "../config";
import type { GatewayEnv } from "../env";

/**
 * What the gateway asked of Workers KV and Durable Objects, for `npm run bench`'s cost line
 * (PHASE_TIMING only; docs/cost.md): KV operations by kind, as Cloudflare bills them (a bulk read
 * counts each key), and Durable Object requests (each call on a stub is one billed request, its
 * `fetch` too) with their wall time, from the call to its answer.
 */
export interface StorageCalls {
  kvRead: number;
  kvWrite: number;
  kvDelete: number;
  kvList: number;
  doRequest: number;
  doMs: number;
}

/** Per-isolate state: the calls this isolate's gateway code made since it started, with PHASE_TIMING on. */
const calls: StorageCalls = { kvRead: 0, kvWrite: 0, kvDelete: 0, kvList: 0, doRequest: 0, doMs: 0 };

/** A copy of the counts so far (the bench reads them before and after a run and subtracts). */
export function storageCalls(): StorageCalls {
  return { ...calls };
}

const KV_BINDINGS = ["TEAMS", "SCHEMA_CACHE", "OAUTH_KV"] as const;
const DO_BINDINGS = [
  "SESSIONS",
  "RATE_LIMITER",
  "AUDIT",
  "SKILL_INDEX",
  "APPROVAL_DESK",
  "RUNS",
  "CONNECTIONS",
] as const;
const KV_KINDS: Record<string, keyof StorageCalls> = {
  get: "kvRead",
  getWithMetadata: "kvRead",
  put: "kvWrite",
  delete: "kvDelete",
  list: "kvList",
};
/** A stub's properties that are not calls into the object. */
const NOT_CALLS = new Set(["id", "name", "then", "dup"]);

/** Per-isolate state: the metered copy of each env object, so per-env caches keep working. */
const metered = new WeakMap<GatewayEnv, GatewayEnv>();

/**
 * `env` with its KV namespaces and Durable Object namespaces counted (`storageCalls`) when
 * PHASE_TIMING is "on"; otherwise `env` itself.
 */
export function meteredEnv(env: GatewayEnv): GatewayEnv {
  const loaded = loadConfig(env);
  if (!loaded.ok || !loaded.config.phaseTiming) return env;
  let out = metered.get(env);
  if (out === undefined) {
    const bindings: Record<string, unknown> = {};
    for (const name of KV_BINDINGS) if (env[name]) bindings[name] = meterKv(env[name]);
    for (const name of DO_BINDINGS) if (env[name]) bindings[name] = meterNamespace(env[name]);
    out = { ...env, ...bindings };
    metered.set(env, out);
  }
  return out;
}

/** `target` whose function properties run `before(name, args)` first, then the original. */
function around<T extends object>(
  target: T,
  wrap: (
    name: string,
    call: (...args: unknown[]) => unknown,
  ) => ((...args: unknown[]) => unknown) | undefined,
): T {
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop);
      if (typeof prop !== "string" || typeof value !== "function") return value;
      const call = (...args: unknown[]): unknown => Reflect.apply(value, t, args);
      return wrap(prop, call) ?? call;
    },
  });
}

function meterKv(kv: KVNamespace): KVNamespace {
  return around(kv, (name, call) => {
    const kind = KV_KINDS[name];
    if (kind === undefined) return undefined;
    return (...args) => {
      calls[kind] += kind === "kvRead" && Array.isArray(args[0]) ? args[0].length : 1;
      return call(...args);
    };
  });
}

function meterNamespace(ns: object): object {
  return around(ns, (name, call) =>
    name === "get" || name === "getByName" ? (...args) => meterStub(call(...args) as object) : undefined,
  );
}

function meterStub(stub: object): object {
  return around(stub, (name, call) => {
    if (NOT_CALLS.has(name)) return undefined;
    return (...args) => {
      calls.doRequest++;
      const started = performance.now();
      const answer = call(...args);
      const done = () => {
        calls.doMs += performance.now() - started;
      };
      void Promise.resolve(answer).then(done, done);
      return answer;
    };
  });
}
