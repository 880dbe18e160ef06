import { exports } from "cloudflare:workers";
import type { BridgeProps } from "./tool-bridge";

type Loopback = (options: { props: BridgeProps }) => unknown;

/** A stub of the gateway's own ToolBridge entrypoint carrying `props`: what a sandbox gets as env.TOOLS. */
export function toolBridgeFor(props: BridgeProps): unknown {
  const loopback = (exports as unknown as { ToolBridge?: Loopback }).ToolBridge;
  if (typeof loopback !== "function")
    throw new Error("ToolBridge is not exported by the gateway's main module");
  return loopback({ props });
}
