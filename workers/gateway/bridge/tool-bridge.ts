import { WorkerEntrypoint } from "cloudflare:workers";
import { log } from "../../../shared/log";
import { auditToolCall } from "../audit";
import { loadConfig } from "../config";
import { searchTools, toolDefinition } from "../discovery/service";
import type { GatewayEnv } from "../env";
import { upstreamsFor } from "../upstreams";
import { callTool, ToolCallError } from "./call-tool";
import { SearchInput } from "./discovery-io";

/** What the isolate's code acts for. No secrets: they stay in the gateway's env. */
export interface BridgeProps {
  requestId: string;
  /** the team */
  scope: string;
  keyId: string;
  sessionId?: string;
}

/** Results cross RPC as values; the sandbox runtime turns `ok: false` into a thrown Error. */
export type BridgeResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string } };

/**
 * The only capability a sandbox isolate holds (`env.TOOLS`): a loopback stub of this entrypoint,
 * made with the caller's context in `props`. Upstream URLs and headers never leave the gateway.
 */
export class ToolBridge extends WorkerEntrypoint<GatewayEnv, BridgeProps> {
  async callTool(qualifiedName: unknown, args: unknown): Promise<BridgeResult> {
    const startedAt = Date.now();
    const outcome = await this.guard(async () => {
      if (typeof qualifiedName !== "string")
        throw new ToolCallError(
          "TypeError",
          'callTool(name, args): name must be a string like "server.tool"',
        );
      const { config, upstreams } = await this.context();
      return callTool(
        await upstreams.catalog(),
        upstreams.servers,
        qualifiedName,
        args,
        config.upstreams.callTimeoutMs,
      );
    });
    const { props } = this.ctx;
    auditToolCall(
      this.env,
      (p) => this.ctx.waitUntil(p),
      { ...props, team: props.scope },
      {
        name: qualifiedName,
        args,
        startedAt,
        outcome,
      },
    );
    return outcome;
  }

  async searchTools(input: unknown): Promise<BridgeResult> {
    return this.guard(async () => {
      const parsed = SearchInput.safeParse(input ?? {});
      if (!parsed.success) {
        throw new ToolCallError(
          "TypeError",
          `searchTools: ${parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ")}`,
        );
      }
      const { upstreams } = await this.context();
      return searchTools(await upstreams.catalog(), parsed.data);
    });
  }

  async getToolDefinition(name: unknown): Promise<BridgeResult> {
    return this.guard(async () => {
      if (typeof name !== "string")
        throw new ToolCallError(
          "TypeError",
          'getToolDefinition(name): name must be a string like "server.tool"',
        );
      const { upstreams } = await this.context();
      return toolDefinition(await upstreams.catalog(), name);
    });
  }

  private async context() {
    const loaded = loadConfig(this.env);
    if (!loaded.ok)
      throw new ToolCallError("ConfigError", `The gateway is misconfigured: ${loaded.problems.join("; ")}`);
    const upstreams = await upstreamsFor(
      this.env,
      loaded.config,
      (p) => this.ctx.waitUntil(p),
      this.ctx.props.scope,
    );
    return { config: loaded.config, upstreams };
  }

  private async guard(work: () => Promise<unknown>): Promise<BridgeResult> {
    try {
      return { ok: true, value: await work() };
    } catch (err) {
      if (err instanceof ToolCallError) return { ok: false, error: { name: err.name, message: err.message } };
      log("error", "tool bridge failure", {
        requestId: this.ctx.props.requestId,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      return {
        ok: false,
        error: {
          name: "Error",
          message: `Internal error in the tool bridge (request ${this.ctx.props.requestId})`,
        },
      };
    }
  }
}
