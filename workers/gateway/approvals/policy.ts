import type { ToolAnnotations } from "@modelcontextprotocol/client";
import { globMatcher } from "../teams/policy";
import type { TeamInput } from "../teams/schema";

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

/**
 * What search_tools and get_tool_definition say of a tool that will wait for a person, so an agent
 * knows before it calls: `waits for a person's approval (destructiveHint), up to 120 s`.
 */
export function approvalNote(
  policy: ApprovalPolicy | null,
): (subject: ApprovalSubject) => string | undefined {
  const rule = approvalRule(policy);
  return (subject) => {
    const why = rule(subject);
    return why === undefined
      ? undefined
      : `waits for a person's approval (${why}), up to ${policy?.timeoutSeconds ?? 0} s`;
  };
}

/** What the policy looks at: a catalog tool, or a skill (`skills.<name>`, no annotations). */
export interface ApprovalSubject {
  qualifiedName: string;
  annotations?: ToolAnnotations | undefined;
}

/**
 * The policy as a function: why a call needs approval (`require "github.*"`, `destructiveHint`),
 * or undefined when it runs without one. `skip` wins over both.
 */
export function approvalRule(
  policy: ApprovalPolicy | null,
): (subject: ApprovalSubject) => string | undefined {
  if (!policy) return () => undefined;
  const required = policy.require.map((glob) => ({ glob, matches: globMatcher(glob) }));
  const skipped = policy.skip.map(globMatcher);
  return ({ qualifiedName, annotations }) => {
    if (skipped.some((m) => m(qualifiedName))) return undefined;
    const rule = required.find((r) => r.matches(qualifiedName));
    if (rule) return `require ${JSON.stringify(rule.glob)}`;
    if (policy.destructive && annotations?.destructiveHint === true) return "destructiveHint";
    return undefined;
  };
}
