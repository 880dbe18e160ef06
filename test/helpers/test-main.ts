import { WorkerEntrypoint } from "cloudflare:workers";
import type { BridgeResult } from "../../workers/gateway/bridge/tool-bridge";

// The unit tests' main module: the gateway's exports plus EchoBridge, a stand-in for ToolBridge
// that the tests can hand to a sandbox (a loaded isolate's env takes service stubs, not RpcTargets).
export {
  AuditLog,
  default,
  EgressGate,
  RateLimiter,
  SessionObject,
  ToolBridge,
} from "../../workers/gateway/index";

export const echoBridgeCalls: string[] = [];

export class EchoBridge extends WorkerEntrypoint {
  async callTool(name: string, args: unknown): Promise<BridgeResult> {
    echoBridgeCalls.push(name);
    return { ok: true, value: { name, args } };
  }
  async searchTools(input: unknown): Promise<BridgeResult> {
    return { ok: true, value: { input } };
  }
  async getToolDefinition(name: string): Promise<BridgeResult> {
    return { ok: false, error: { name: "UnknownToolError", message: `Unknown tool "${name}"` } };
  }
}
