import { exports } from "cloudflare:workers";
import type { EgressProps } from "./egress-gate";

type Loopback = (options: { props: EgressProps }) => Fetcher;

/** The isolate's `globalOutbound`: null (no network) unless the team lists egress hosts. */
export function egressFor(team: string, hosts: string[] | undefined): Fetcher | null {
  if (!hosts?.length) return null;
  const loopback = (exports as unknown as { EgressGate?: Loopback }).EgressGate;
  if (typeof loopback !== "function")
    throw new Error("EgressGate is not exported by the gateway's main module");
  return loopback({ props: { team, hosts } });
}
