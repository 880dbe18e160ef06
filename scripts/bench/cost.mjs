// Section 9's cost line: what one execution costs at Cloudflare's list prices (docs/cost.md gives the
// prices, their date and the formula), from what the run created, used and asked: Dynamic Workers
// (the gateway's own count, GET /v1/audit/usage), workerd CPU (/proc), and the KV operations and
// Durable Object requests the gateway made, counted by the gateway itself under PHASE_TIMING
// (workers/gateway/timing/storage-meter.ts) and read from its `X-Storage-Calls` header before and
// after each path's window.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../lib/root.mjs";

/** List prices (USD) read 2026-11-29 from Cloudflare's pricing pages; docs/cost.md cites them. */
export const PRICES = {
  dynamicWorker: 0.002, // per unique Dynamic Worker (id + code) per day, beyond 1,000 a month included
  request: 0.3 / 1e6, // Workers Standard, per request beyond 10 M a month
  cpuMs: 0.02 / 1e6, // per CPU millisecond beyond 30 M a month
  kvRead: 0.5 / 1e6, // Workers KV, per key read beyond 10 M a month
  kvWrite: 5 / 1e6, // per key written beyond 1 M a month
  kvDelete: 5 / 1e6, // per key deleted beyond 1 M a month
  kvList: 5 / 1e6, // per list request beyond 1 M a month
  doRequest: 0.15 / 1e6, // Durable Objects, per request (each RPC call, fetch, alarm) beyond 1 M a month
  doGbSecond: 12.5 / 1e6, // per GB-s of an active object (billed at 128 MB) beyond 400,000 a month
};
const DO_GB = 0.128;
/** The day the cost lines describe: one team's executions. */
export const DAY = 100_000;
/** Workers requests per execution: the client's request and the call into the Dynamic Worker. */
const REQUESTS_PER_EXEC = 2;
/** What the gateway's meter counts; a path that sends nothing to the gateway counts none. */
export const NO_STORAGE = { kvRead: 0, kvWrite: 0, kvDelete: 0, kvList: 0, doRequest: 0, doMs: 0 };

/** Reads the gateway's cumulative KV and Durable Object counts (`GET /live`, as an operator). */
export function storageProbe(base, adminToken) {
  return async () => {
    const res = await fetch(`${base}/live`, { headers: { "x-phase-timing": adminToken } });
    await res.arrayBuffer();
    const header = res.headers.get("x-storage-calls");
    if (!header) throw new Error("the gateway sent no X-Storage-Calls (is PHASE_TIMING on?)");
    return JSON.parse(header);
  };
}

/**
 * The KV namespaces and Durable Object bindings a bench worker's wrangler.toml declares: the
 * baseline bench-codemode declares none, so it can make no KV operation or Durable Object request.
 */
export function storageBindings(config) {
  const text = readFileSync(join(root, config), "utf8");
  return (text.match(/^\[\[(kv_namespaces|durable_objects\.bindings)\]\]/gm) ?? []).length;
}

/** `counters` (summed over a path's windows) per execution. */
export function perExecution(counters, executions) {
  return Object.fromEntries(Object.keys(NO_STORAGE).map((k) => [k, (counters[k] ?? 0) / executions]));
}

/** "KV 1.00 reads, 0.01 writes; DO 1.05 requests, 2.1 ms" for per-execution counts. */
export function storageText(s) {
  const kv = [
    `${s.kvRead.toFixed(2)} reads`,
    s.kvWrite > 0 && `${s.kvWrite.toFixed(3)} writes`,
    s.kvDelete > 0 && `${s.kvDelete.toFixed(3)} deletes`,
    s.kvList > 0 && `${s.kvList.toFixed(3)} lists`,
  ].filter(Boolean);
  return `KV ${kv.join(", ")}; Durable Objects ${s.doRequest.toFixed(2)} requests, ${s.doMs.toFixed(1)} ms active`;
}

/**
 * $ per 1,000 executions at list prices and Dynamic Workers per 1,000, for a day of DAY executions:
 * `pooledPerDay` warm ids, `loadsPerExec` fresh loads, `cpuMs` and `storage` per execution. DO
 * duration is each request's wall time at 128 MB (an upper bound: requests to one object at once
 * are billed once).
 */
export function costLine({ pooledPerDay, loadsPerExec, cpuMs, storage }) {
  const workersPerDay = pooledPerDay + loadsPerExec * DAY;
  const perThousand = (workersPerDay / DAY) * 1000;
  const parts = {
    dynamicWorkers: (workersPerDay * PRICES.dynamicWorker) / DAY,
    requests: REQUESTS_PER_EXEC * PRICES.request,
    cpu: cpuMs * PRICES.cpuMs,
    kv:
      storage.kvRead * PRICES.kvRead +
      storage.kvWrite * PRICES.kvWrite +
      storage.kvDelete * PRICES.kvDelete +
      storage.kvList * PRICES.kvList,
    durableObjects: storage.doRequest * PRICES.doRequest + (storage.doMs / 1000) * DO_GB * PRICES.doGbSecond,
  };
  const dollarsPerExec = Object.values(parts).reduce((a, b) => a + b, 0);
  const thousand = (x) => `$${(x * 1000).toFixed(4)}`;
  return {
    perThousand,
    dollarsPerThousand: dollarsPerExec * 1000,
    text: `cost: ${perThousand.toFixed(perThousand < 1 ? 2 : 0)} Dynamic Workers per 1,000 executions, ${thousand(dollarsPerExec)} per 1,000 executions at list prices`,
    breakdown: Object.entries(parts)
      .map(([k, v]) => `${k} ${thousand(v)}`)
      .join(", "),
  };
}
