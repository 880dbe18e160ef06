import { WorkerEntrypoint } from "cloudflare:workers";
import type { GatewayEnv } from "../env";

export interface EgressProps {
  team: string;
  /** hosts code may fetch: `api.example.com`, or `*.example.com` for its subdomains */
  hosts: string[];
}

export function hostAllowed(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p;
  });
}

/**
 * A sandbox's `globalOutbound` when its team allows egress: every fetch from the isolate arrives
 * here, and only http(s) requests to the team's listed hosts go out. Others get a 403 that says why.
 */
export class EgressGate extends WorkerEntrypoint<GatewayEnv, EgressProps> {
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const { hosts, team } = this.ctx.props;
    if (!/^https?:$/.test(url.protocol) || !hostAllowed(url.hostname, hosts)) {
      return Response.json(
        {
          error: `egress to ${url.hostname} is not allowed for team "${team}" (allowed: ${hosts.join(", ") || "none"})`,
        },
        { status: 403, headers: { "X-Egress-Blocked": "1" } },
      );
    }
    return fetch(request);
  }
}
