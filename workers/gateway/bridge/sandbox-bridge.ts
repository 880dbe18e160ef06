import { RpcTarget } from "cloudflare:workers";
import type { BridgeResult, SandboxBridgeApi } from "../../../shared/contract/sandbox";
import type { BridgeWork } from "./work";

/**
 * The one object a sandbox holds: handed to the isolate's entrypoint as an RPC argument, so no binding
 * or props exist that another Worker could forge, and it ends with the execution. Only these seven
 * methods are reachable over RPC; the state behind them lives in a `#private` field.
 */
export class SandboxBridge extends RpcTarget implements SandboxBridgeApi {
  readonly #work: BridgeWork;

  constructor(work: BridgeWork) {
    super();
    this.#work = work;
  }

  callTool(qualifiedName: unknown, argsJson: unknown): Promise<BridgeResult> {
    return this.#work.callTool(qualifiedName, argsJson);
  }

  searchTools(optionsJson: unknown): Promise<BridgeResult> {
    return this.#work.searchTools(optionsJson);
  }

  getToolDefinition(qualifiedName: unknown, schema?: unknown): Promise<BridgeResult> {
    return this.#work.getToolDefinition(qualifiedName, schema);
  }

  fetch(request: unknown): Promise<Response> {
    return this.#work.fetch(request);
  }

  skills(op: unknown, payloadJson: unknown): Promise<BridgeResult> {
    return this.#work.skills(op, payloadJson);
  }

  session(call: unknown): Promise<BridgeResult> {
    return this.#work.session(call);
  }

  log(linesJson: unknown): Promise<void> {
    return this.#work.log(linesJson);
  }
}
