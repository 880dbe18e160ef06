// Section 10: the memory of one warm worker under the red team's memory attacks, four at once beside
// an ordinary execution that calls a tool, per language (quickjs engine). On a stack of its own (the
// two-process one of `npm run dev`, scripts/lib/stack.mjs) with SANDBOX_POOL_SIZE=1, so every
// execution of the team lands in the same warm worker, one isolate.
// What is measured: the resident memory of the sandbox host's workerd process, whose isolates are the
// host's own and the warm workers. Everything it grew from just before the team's first execution of
// the language (no warm worker of it yet) to its peak (VmHWM, reset before each round, so no spike
// between samples is missed) is counted as the warm worker's: its compiled module, interpreters,
// linear memories and JS heap, and also the host's own work for those executions and pages the
// allocator keeps. That over-counts the isolate, which is what Cloudflare's 128 MB limit applies to,
// except by what the host frees meanwhile (the team's idle growth read 3 and 23 MB in two runs);
// local workerd enforces no limit, so this is where a breach shows.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { startStack } from "../lib/stack.mjs";
import { admin } from "./admin-api.mjs";

/**
 * @typedef {{ language: string, attack: string, idleMb: number, peakMb: number, errors: string[],
 *   inTime: boolean, expected: string, ordinary: unknown }} Row
 */

/** A Dynamic Worker isolate's memory limit on Cloudflare, in MB. */
export const ISOLATE_LIMIT_MB = 128;
const TIMEOUT_MS = 15_000;
const AT_ONCE = 4;

/** [language, attack, code]: the red team's memory attacks (issue 50; test/e2e/engines.e2e.test.ts; test/unit/memory-bombs.test.ts). */
export const ATTACKS = [
  [
    "javascript",
    "heap bomb (1e6-element arrays)",
    "const keep = [];\nfor (;;) keep.push(new Array(1e6).fill(keep.length));",
  ],
  [
    "javascript",
    "heap bomb (1e5-element arrays)",
    "const a = [];\nwhile (true) a.push(new Array(1e5).fill(1));",
  ],
  ["javascript", "string bomb", "let s = 'x';\nwhile (true) s += s;"],
  ["javascript", "a growing Map", "const m = new Map();\nfor (let i = 0; ; i++) m.set(i, 'value ' + i);"],
  [
    "javascript",
    "objects kept in an array",
    "const a = [];\nfor (let i = 0; ; i++) a.push({ i, name: 'n' + i });",
  ],
  ["python", "bytearrays kept in a list", "a = []\nwhile True:\n    a.append(bytearray(10**6))"],
  ["python", "a growing dict", "d = {}\ni = 0\nwhile True:\n    d[i] = 'value %d' % i\n    i += 1"],
];
/** An ordinary execution per language: one tool call. */
const ORDINARY = {
  javascript: "const page = await tools.demo.list_tickets({ limit: 5 });\nreturn page.tickets.length;",
  python: "page = await tools.demo.list_tickets(limit=5)\nlen(page['tickets'])",
};
/** How each language names running out of memory. */
const OUT_OF_MEMORY = { javascript: "ResourceLimitError", python: "MemoryError" };

/** The sandbox host's workerd that runs the workers (wrangler's proxy workerd has no inspector). */
function hostWorkerd(group) {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (Number(fields[2]) === group && stat.includes("(workerd)") && cmd.includes("inspector")) return pid;
    } catch {}
  }
  throw new Error(`no workerd with an inspector in process group ${group}`);
}

/** A field of the process's /proc status in MB; throws, naming the step, when the process is gone. */
function statusMb(pid, field, during = "") {
  try {
    return (
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024
    );
  } catch {
    throw new Error(`the sandbox host's workerd (pid ${pid}) stopped${during ? ` during ${during}` : ""}`);
  }
}

/**
 * Runs every attack of ATTACKS, AT_ONCE copies at a time beside an ordinary execution, on `stack`
 * (pool size 1) and answers a row per attack: the warm worker's peak (MB over the process before the
 * team's first execution of the language), the errors, whether each ended in time, the ordinary result.
 * @param {{ url: string, sandboxHost: { current(): { child: { pid: number } } } }} stack
 * @param {string} adminToken
 * @param {string[]} [languages] the attacks' languages to run (default both)
 * @param {(row: Row) => void} [report] called with each row as it is measured
 */
export async function attackMemory(
  stack,
  adminToken,
  languages = ["javascript", "python"],
  report = () => {},
) {
  const execute = await newTeam(stack, adminToken);
  const pid = hostWorkerd(stack.sandboxHost.current().child.pid);
  const rows = [];
  for (const language of languages) {
    const before = statusMb(pid, "VmRSS");
    for (let i = 0; i < 3; i++) await execute({ code: ORDINARY[language], language });
    const idle = statusMb(pid, "VmRSS") - before;
    for (const [lang, attack, code] of ATTACKS.filter(([l]) => l === language)) {
      await new Promise((r) => setTimeout(r, 500));
      statusMb(pid, "VmRSS", `the round before ${lang} "${attack}"`);
      writeFileSync(`/proc/${pid}/clear_refs`, "5"); // VmHWM := VmRSS
      const attacks = Array.from({ length: AT_ONCE }, () =>
        execute({ code, language: lang, timeoutMs: TIMEOUT_MS }),
      );
      const ordinary = execute({ code: ORDINARY[lang], language: lang, timeoutMs: TIMEOUT_MS });
      const ended = await Promise.all(attacks);
      const beside = await ordinary;
      await new Promise((r) => setTimeout(r, 500)); // the work after the answers (a zeroed memory, the next interpreter)
      const row = {
        language,
        attack,
        idleMb: idle,
        peakMb: statusMb(pid, "VmHWM", `${lang} "${attack}"`) - before,
        errors: ended.map((r) => r.error?.name ?? "none"),
        inTime: ended.every((r) => r.ms < TIMEOUT_MS + 1_000),
        expected: OUT_OF_MEMORY[lang],
        ordinary: beside.error ? `${beside.error.name}: ${beside.error.message}` : beside.result,
      };
      rows.push(row);
      report(row);
    }
  }
  return rows;
}

/**
 * A new team on `stack` (quickjs, the demo server, no rate limit) and how to execute as it: answers
 * the REST execute's JSON with `ms`, its wall time. With pool size 1, every execution of the team
 * of a language lands in the same warm worker.
 * @param {{ url: string }} stack @param {string} adminToken
 */
export async function newTeam(stack, adminToken) {
  const team = `memory-${randomUUID().slice(0, 8)}`;
  await admin(stack.url, adminToken, "PUT", `/teams/${team}`, {
    engine: "quickjs",
    servers: { demo: { service: "DEMO" } },
    limits: { requestsPerMinute: 1_000_000 },
  });
  const { key } = await admin(stack.url, adminToken, "POST", `/teams/${team}/keys`, { name: "memory" });
  return async (/** @type {Record<string, unknown>} */ body) => {
    const started = Date.now();
    const res = await fetch(`${stack.url}/v1/execute`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    });
    return { ...(await res.json()), ms: Date.now() - started };
  };
}

/** Section 10 on a stack of its own. @param {{ track: (stop: () => Promise<void>) => void }} options */
export async function runMemory({ track }) {
  console.log(
    `\n== 10. Memory of one warm worker under memory attacks, ${AT_ONCE} at once beside an ordinary execution that calls a tool (quickjs, SANDBOX_POOL_SIZE=1, two-process stack; ${availableParallelism()} cores)`,
  );
  const rows = await withMemoryStack(track, (stack, token) => attackMemory(stack, token, undefined, print));
  const peak = Math.max(...rows.map((r) => r.peakMb));
  console.log(
    `peak of a warm worker: ${peak.toFixed(0)} MB (Cloudflare's isolate limit ${ISOLATE_LIMIT_MB} MB): the sandbox host workerd's resident memory over its size before the team's first execution (${availableParallelism()} cores)`,
  );
  return rows;
}

/** @param {Row} r */
function print(r) {
  const ok = r.errors.every((e) => e === r.expected) && r.inTime;
  const attacks = ok
    ? `all ${r.expected} in time`
    : `${r.errors.join(", ")}${r.inTime ? "" : ", not all in time"}`;
  console.log(
    `${r.language.padEnd(10)} ${r.attack.padEnd(32)} peak ${r.peakMb.toFixed(0).padStart(4)} MB (idle ${r.idleMb.toFixed(0)} MB)  attacks: ${attacks}  ordinary: ${JSON.stringify(r.ordinary)}`,
  );
}

/**
 * Starts the stack section 10 measures (pool size 1, a key and admin token of its own), runs `use`
 * on it, stops it. @template T
 * @param {(stop: () => Promise<void>) => void} track gets the stack's stop at once
 * @param {(stack: any, adminToken: string) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withMemoryStack(track, use) {
  const adminToken = `bench-mem-admin-${randomUUID()}`;
  // As scripts/bench/python.mjs: the key from the process environment, nothing else of it passed on.
  const env = {
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
    DEV_API_KEY: `bench-mem-${randomUUID()}`,
    ADMIN_TOKEN: adminToken,
  };
  for (const key of Object.keys(process.env)) {
    if (!["PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME"].includes(key)) env[key] = undefined;
  }
  const vars = { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "1000000", SANDBOX_POOL_SIZE: "1" };
  const started = startStack({ env, vars, envFile: null, persist: "temp", echo: () => false, log: () => {} });
  let stopping;
  const stop = () => {
    stopping ??= started.then((stack) => stack.stop()).catch(() => {});
    return stopping;
  };
  track(stop);
  try {
    return await use(await started, adminToken);
  } finally {
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runMemory({ track: () => {} });
  process.exit(0);
}
