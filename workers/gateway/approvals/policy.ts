import type { ToolAnnotations } from "@modelcontextprotocol/client";
import type { ApprovalPolicy } from "../config";
import { globMatcher } from "../teams/policy";

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
