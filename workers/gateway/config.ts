import { z } from "zod";
import { DEFAULT_ENGINE, ENGINES, type Engine } from "../../shared/contract/engine";
import type { SessionQuota } from "../../shared/contract/session";
import type { LogLevel } from "../../shared/log";
import type { GatewayEnv } from "./env";
import { TRACING_VARS, type TracingConfig, tracingConfig } from "./tracing-config";

/** A whole-number variable; unset or "" means the default. */
function intVar(fallback: number, min: number, max: number) {
  return z.preprocess(
    (raw) =>
      raw === undefined || raw === "" ? undefined : typeof raw === "string" ? Number(raw.trim()) : raw,
    z
      .number({ error: `expected a whole number between ${min} and ${max}` })
      .int({ error: `expected a whole number between ${min} and ${max}` })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );
}

const ConfigSchema = z.object({
  EXEC_TIMEOUT_MS: intVar(30_000, 100, 15 * 60_000),
  EXEC_MAX_TIMEOUT_MS: intVar(120_000, 100, 15 * 60_000),
  EXEC_CPU_MS: intVar(30_000, 10, 5 * 60_000),
  EXEC_MAX_CODE_CHARS: intVar(100_000, 100, 5_000_000),
  EXEC_MAX_OUTPUT_CHARS: intVar(24_000, 1_000, 5_000_000),
  EXEC_MAX_STEPS: intVar(1_000_000_000, 1_000, Number.MAX_SAFE_INTEGER),
  SANDBOX_ENGINE: z.preprocess(
    (raw) => (raw === "" ? undefined : raw),
    z.enum(ENGINES, { error: 'expected "quickjs" or "isolate"' }).default(DEFAULT_ENGINE),
  ),
  SANDBOX_POOL_SIZE: intVar(8, 1, 64),
  EXEC_MEMORY_MB: intVar(32, 4, 64),
  MAX_REQUEST_BYTES: intVar(1_048_576, 1_024, 100 * 1_048_576),
  SESSION_TTL_SECONDS: intVar(86_400, 60, 30 * 86_400),
  SESSION_QUOTA_BYTES: intVar(50 * 1_048_576, 1_024, 10 * 1_024 * 1_048_576),
  SESSION_MAX_FILES: intVar(1_000, 1, 100_000),
  EXEC_MAX_SESSION_CALLS: intVar(1_000, 0, 100_000),
  PII_MODE: z.preprocess(
    (raw) => (raw === "" ? undefined : raw),
    z.enum(["off", "tokenize"], { error: 'expected "off" or "tokenize"' }).default("off"),
  ),
  APPROVALS: z.preprocess(
    (raw) => (raw === "" ? undefined : raw),
    z.enum(["destructive", "off"], { error: 'expected "destructive" or "off"' }).default("destructive"),
  ),
  SCHEMA_CACHE_TTL_SECONDS: intVar(86_400, 60, 30 * 86_400),
  UPSTREAM_TIMEOUT_MS: intVar(10_000, 100, 120_000),
  TOOL_CALL_TIMEOUT_MS: intVar(30_000, 100, 15 * 60_000),
  EXEC_MAX_TOOL_CALLS: intVar(200, 0, 10_000),
  EXEC_MAX_DISCOVERY_CALLS: intVar(100, 0, 10_000),
  EXEC_MAX_ARG_CHARS: intVar(2_000_000, 1_000, 30_000_000),
  RATE_LIMIT_PER_MINUTE: intVar(600, 1, 1_000_000),
  EXEC_MAX_CONCURRENT: intVar(20, 1, 10_000),
  SKILL_MAX_CODE_CHARS: intVar(100_000, 100, 1_000_000),
  SKILL_MAX_PER_TEAM: intVar(500, 1, 100_000),
  LOG_LEVEL: z.preprocess(
    (raw) => (raw === "" ? undefined : raw),
    z
      .enum(["debug", "info", "warn", "error"], { error: "expected one of debug, info, warn, error" })
      .default("info"),
  ),
  PHASE_TIMING: z.preprocess(
    (raw) => (raw === "" ? undefined : raw),
    z.enum(["off", "on"], { error: 'expected "off" or "on"' }).default("off"),
  ),
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? "")
        .split(",")
        .map((o) => o.trim().replace(/\/$/, ""))
        .filter(Boolean),
    ),
  ...TRACING_VARS,
  DEV_API_KEY: z
    .string()
    .optional()
    .transform((k) => (k ? k : undefined))
    .refine((k) => k === undefined || k.length >= 16, { error: "must be at least 16 characters when set" }),
});

/** What one execution may use, from configuration (README "Configuration"; a team's `limits` override some). */
export interface ExecutionLimits {
  /** default wall-clock limit of one execution */
  timeoutMs: number;
  /** the most a caller may ask for with `timeoutMs` */
  maxTimeoutMs: number;
  /** CPU limit passed to the Worker Loader; enforced on Cloudflare, ignored by local workerd */
  cpuMs: number;
  maxCodeChars: number;
  /** result JSON + logs together */
  maxOutputChars: number;
  /** loop iterations + function entries, counted by the guard */
  maxSteps: number;
  /** tool calls one execution may make (egress fetches count separately, against the same number) */
  maxToolCalls: number;
  /** searchTools / getToolDefinition calls one execution may make */
  maxDiscoveryCalls: number;
  /** JSON text of one tool call's arguments */
  maxArgChars: number;
  /** state / workspace / session calls one execution may make */
  maxSessionCalls: number;
}

/** How long a call waits for a decision when the team does not say. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 120;

/** Which calls from code wait for a person (contract "Approvals"), as a team or APPROVALS sets it. */
export interface ApprovalPolicy {
  require: string[];
  skip: string[];
  /** tools whose annotations say `destructiveHint: true` */
  destructive: boolean;
  timeoutSeconds: number;
}

/** APPROVALS: `destructive` (the default) or `off`. */
export function deploymentApprovals(mode: "destructive" | "off"): ApprovalPolicy | null {
  return mode === "off"
    ? null
    : { require: [], skip: [], destructive: true, timeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS };
}

export type PiiMode = "off" | "tokenize";

export interface SandboxConfig {
  engine: Engine;
  /** warm Dynamic Workers per team (SANDBOX_POOL_SIZE) */
  poolSize: number;
  /** one QuickJS interpreter's memory limit (EXEC_MEMORY_MB) */
  memoryBytes: number;
}

export interface Config {
  limits: ExecutionLimits;
  /** which engine runs code (SANDBOX_ENGINE, or the team's `engine`) and the quickjs engine's pool */
  sandbox: SandboxConfig;
  maxRequestBytes: number;
  sessionTtlSeconds: number;
  /** what one session may store (SESSION_QUOTA_BYTES, SESSION_MAX_FILES) */
  sessionQuota: SessionQuota;
  /** PII_MODE, or the team's `pii.mode` */
  pii: PiiMode;
  /** which calls from code wait for a person (APPROVALS, or the team's `approvals`); null: none */
  approvals: ApprovalPolicy | null;
  allowedOrigins: string[];
  devApiKey: string | undefined;
  logLevel: LogLevel;
  /** PHASE_TIMING: Server-Timing phases for operator requests (`npm run bench`) */
  phaseTiming: boolean;
  /** OTEL_* and TRACE_*: where spans go, which are kept (docs/operations.md "Traces") */
  tracing: TracingConfig;
  /** requests per minute per API key, and executions at once per team */
  rateLimit: { perMinute: number; maxConcurrent: number };
  /** characters of one skill's code (SKILL_MAX_CODE_CHARS), skills per team (SKILL_MAX_PER_TEAM) */
  skills: { maxCodeChars: number; maxSkills: number };
  upstreams: {
    cacheTtlSeconds: number;
    /** connect + tools/list, per upstream */
    timeoutMs: number;
    /** one tools/call from code */
    callTimeoutMs: number;
  };
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Per-isolate state: the configuration read from each env object, for as long as the env lives. */
const cache = new WeakMap<object, ConfigResult>();

/** Reads and validates configuration; problems name the variable and what was wrong. */
export function loadConfig(env: GatewayEnv): ConfigResult {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = ConfigSchema.safeParse(env);
  let result: ConfigResult;
  if (!parsed.success) {
    result = { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) };
  } else {
    const v = parsed.data;
    const problems =
      v.EXEC_TIMEOUT_MS > v.EXEC_MAX_TIMEOUT_MS
        ? ["EXEC_TIMEOUT_MS: must not be above EXEC_MAX_TIMEOUT_MS"]
        : [];
    result = problems.length
      ? { ok: false, problems }
      : {
          ok: true,
          config: {
            limits: {
              timeoutMs: v.EXEC_TIMEOUT_MS,
              maxTimeoutMs: v.EXEC_MAX_TIMEOUT_MS,
              cpuMs: v.EXEC_CPU_MS,
              maxCodeChars: v.EXEC_MAX_CODE_CHARS,
              maxOutputChars: v.EXEC_MAX_OUTPUT_CHARS,
              maxSteps: v.EXEC_MAX_STEPS,
              maxToolCalls: v.EXEC_MAX_TOOL_CALLS,
              maxDiscoveryCalls: v.EXEC_MAX_DISCOVERY_CALLS,
              maxArgChars: v.EXEC_MAX_ARG_CHARS,
              maxSessionCalls: v.EXEC_MAX_SESSION_CALLS,
            },
            sandbox: {
              engine: v.SANDBOX_ENGINE,
              poolSize: v.SANDBOX_POOL_SIZE,
              memoryBytes: v.EXEC_MEMORY_MB * 1024 * 1024,
            },
            maxRequestBytes: v.MAX_REQUEST_BYTES,
            sessionTtlSeconds: v.SESSION_TTL_SECONDS,
            sessionQuota: { quotaBytes: v.SESSION_QUOTA_BYTES, maxFiles: v.SESSION_MAX_FILES },
            pii: v.PII_MODE,
            approvals: deploymentApprovals(v.APPROVALS),
            allowedOrigins: v.ALLOWED_ORIGINS,
            devApiKey: v.DEV_API_KEY,
            logLevel: v.LOG_LEVEL,
            phaseTiming: v.PHASE_TIMING === "on",
            tracing: tracingConfig(v),
            rateLimit: { perMinute: v.RATE_LIMIT_PER_MINUTE, maxConcurrent: v.EXEC_MAX_CONCURRENT },
            skills: { maxCodeChars: v.SKILL_MAX_CODE_CHARS, maxSkills: v.SKILL_MAX_PER_TEAM },
            upstreams: {
              cacheTtlSeconds: v.SCHEMA_CACHE_TTL_SECONDS,
              timeoutMs: v.UPSTREAM_TIMEOUT_MS,
              callTimeoutMs: v.TOOL_CALL_TIMEOUT_MS,
            },
          },
        };
  }
  cache.set(env, result);
  return result;
}
