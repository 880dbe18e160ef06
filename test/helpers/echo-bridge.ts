import { RpcTarget } from "cloudflare:workers";
import type { BridgeResult, SandboxBridgeApi } from "../../shared/contract/sandbox";

/** A stand-in for the gateway's bridge: answers with what it was sent, and remembers the names. */
export class EchoBridge extends RpcTarget implements SandboxBridgeApi {
  readonly names: string[] = [];

  async callTool(name: unknown, argsJson: unknown): Promise<BridgeResult> {
    this.names.push(String(name));
    return { ok: true, value: { name, args: JSON.parse(String(argsJson)) } };
  }
  async searchTools(optionsJson: unknown): Promise<BridgeResult> {
    return { ok: true, value: { input: JSON.parse(String(optionsJson)) } };
  }
  async getToolDefinition(name: unknown): Promise<BridgeResult> {
    return { ok: false, error: { name: "UnknownToolError", message: `Unknown tool "${String(name)}"` } };
  }
  async fetch(): Promise<Response> {
    return new Response("echo");
  }
  async skills(op: unknown, payloadJson: unknown): Promise<BridgeResult> {
    return { ok: true, value: { skills: op, payload: JSON.parse(String(payloadJson)) } };
  }
  async session(call: unknown): Promise<BridgeResult> {
    return { ok: true, value: { session: call } };
  }

  /** live console lines, as the isolate sent them */
  readonly liveLines: unknown[] = [];

  async log(linesJson: unknown): Promise<void> {
    this.liveLines.push(linesJson);
  }
}
