import {
  type Client,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import { UpstreamTool } from "../../../shared/contract/tools";
import { clip } from "../discovery/ts-syntax";

/**
 * Takes the tools out of each `tools/list` answer on `client`'s connection before the SDK sees it,
 * for `admitTool` to check one by one; the SDK gets the answer with no tools (its cursor kept).
 * The SDK checks a list's tools with its own schemas, a recursive parser on both eras (the
 * 2026-07-28 codec before any schema a caller passes): one tool 1,000 levels deep overflowed its
 * stack, one without an `inputSchema` failed the page, and either took out every tool of the server.
 * Returns what the last answer held.
 */
export function takeToolLists(client: Client): () => unknown[] {
  const transport = client.transport;
  if (!transport) throw new Error("tools/list: not connected");
  const asked = new Set<string | number>();
  let taken: unknown[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (isJSONRPCRequest(message) && message.method === "tools/list") asked.add(message.id);
    return send(message, options);
  };
  const deliver = transport.onmessage;
  const take = (message: JSONRPCMessage): JSONRPCMessage => {
    if (!isJSONRPCResultResponse(message) || !asked.delete(message.id)) return message;
    const { tools } = message.result;
    taken = Array.isArray(tools) ? tools : [];
    return { ...message, result: { ...message.result, tools: [] } };
  };
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) =>
    deliver?.(take(message), extra);
  return () => {
    const last = taken;
    taken = [];
    return last;
  };
}

/**
 * How deeply a tool's fields (its schemas, annotations, `_meta`) may nest, in JSON levels (`{}` is
 * one). Real schemas stay far below; a tool nested deeper could not be shown whole in a
 * declaration anyway, and every consumer that walks it by recursion (the agent's own client too)
 * would risk its stack.
 */
export const MAX_TOOL_DEPTH = 128;

/** A listed tool the catalog does not offer, and why: kept with the list, named in `warnings`. */
export const LeftOutTool = z.object({ name: z.string(), reason: z.string() });
export type LeftOutTool = z.infer<typeof LeftOutTool>;

/** MCP tool names are at most 128 characters. */
const NAME_CHARS = 128;
const REASON_CHARS = 120;

/** The tool as the catalog keeps it, or why it is left out. Never throws. */
export function admitTool(raw: unknown, index: number): { tool: UpstreamTool } | { leftOut: LeftOutTool } {
  const named = typeof raw === "object" && raw !== null && "name" in raw ? raw.name : undefined;
  const name = typeof named === "string" && named !== "" ? clip(named, NAME_CHARS) : `tools[${index}]`;
  try {
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
      for (const [field, value] of Object.entries(raw)) {
        if (nestsDeeperThan(value, MAX_TOOL_DEPTH))
          return {
            leftOut: { name, reason: `its ${clip(field, 40)} nests deeper than ${MAX_TOOL_DEPTH} levels` },
          };
      }
    }
    const parsed = UpstreamTool.safeParse(raw);
    if (parsed.success) return { tool: parsed.data };
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return {
      leftOut: { name, reason: clip(`not a valid tool (${at}${issue?.message ?? "invalid"})`, REASON_CHARS) },
    };
  } catch (err) {
    return { leftOut: { name, reason: clip(`not readable (${(err as Error).message})`, REASON_CHARS) } };
  }
}

/** Whether `value` has containers more than `max` levels deep; iterative, stops at the first. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, level] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (level > max) return true;
    for (const child of Object.values(node)) pending.push([child, level + 1]);
  }
  return false;
}
