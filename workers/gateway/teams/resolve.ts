import { type ApprovalPolicy, type Config, DEFAULT_APPROVAL_TIMEOUT_SECONDS } from "../config";
import type { GatewayEnv } from "../env";
import { DEFAULT_TEAM, type TeamInput, type TeamRecord } from "./schema";
import { TeamStore } from "./store";

const MEMO_MS = 5_000;
/** Per-isolate state: team records read from KV, each trusted for MEMO_MS. */
const memo = new Map<string, { at: number; record: TeamRecord | null }>();

/** A team's record, re-read from KV at most every few seconds per isolate. */
export async function loadTeam(env: GatewayEnv, team: string): Promise<TeamRecord | null> {
  const hit = memo.get(team);
  if (hit && Date.now() - hit.at < MEMO_MS) return hit.record;
  const record = await new TeamStore(env.TEAMS).getTeam(team);
  memo.set(team, { at: Date.now(), record });
  return record;
}

/** The team's upstream servers: its own `servers`, or for team default the deployment's MCP_SERVERS. */
export function teamServers(env: GatewayEnv, team: string, record: TeamRecord | null): unknown {
  if (record?.servers) return record.servers;
  return team === DEFAULT_TEAM ? env.MCP_SERVERS : undefined;
}

/** A team's `approvals`, with the contract's defaults; null when it asks for nothing. */
export function teamApprovals(input: NonNullable<TeamInput["approvals"]>): ApprovalPolicy | null {
  const policy = {
    require: input.require ?? [],
    skip: input.skip ?? [],
    destructive: input.destructive ?? true,
    timeoutSeconds: input.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  };
  return policy.require.length === 0 && !policy.destructive ? null : policy;
}

/** Deployment limits with the team's overrides. */
export function withTeamLimits(base: Config, record: TeamRecord | null): Config {
  const config = {
    ...base,
    ...(record?.pii ? { pii: record.pii.mode } : {}),
    ...(record?.approvals ? { approvals: teamApprovals(record.approvals) } : {}),
    ...(record?.engine ? { sandbox: { ...base.sandbox, engine: record.engine } } : {}),
  };
  const limits = record?.limits;
  if (!limits) return config;
  return {
    ...config,
    rateLimit: {
      perMinute: limits.requestsPerMinute ?? config.rateLimit.perMinute,
      maxConcurrent: limits.maxConcurrent ?? config.rateLimit.maxConcurrent,
    },
    limits: {
      ...config.limits,
      ...(limits.timeoutMs !== undefined
        ? { timeoutMs: Math.min(limits.timeoutMs, config.limits.maxTimeoutMs) }
        : {}),
      ...(limits.maxToolCalls !== undefined ? { maxToolCalls: limits.maxToolCalls } : {}),
      ...(limits.maxOutputChars !== undefined ? { maxOutputChars: limits.maxOutputChars } : {}),
    },
  };
}

export function forgetTeams(): void {
  memo.clear();
}
