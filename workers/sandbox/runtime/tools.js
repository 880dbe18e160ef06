// The tool globals agent code sees: `tools.<server>.<tool>(args)`, `callTool(name, args)`,
// `searchTools(query, options)` and `getToolDefinition(name)`. Each goes over RPC to the bridge
// object the gateway handed to `run()`. Arguments cross as JSON text, cut to size here; the gateway
// checks the size again, counts every call against the execution's budgets and keeps the call list
// that `stats` reports.
import { toJsonText, unwrap } from "./bridge-io.js";
import { clip, ErrorCtor } from "./intrinsics.js";

/** @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge */

/**
 * @param {Bridge | undefined} bridge
 * @param {number} maxArgChars
 * @param {(name: string, args: unknown) => Promise<unknown>} callSkill `callTool("skills.<name>", args)`
 */
export function installTools(bridge, maxArgChars, callSkill) {
  const need = () => {
    if (!bridge) throw new ErrorCtor("No tools are available in this sandbox");
    return bridge;
  };

  /**
   * @param {unknown} name
   * @param {unknown} args
   */
  const callTool = async (name, args) => {
    if (typeof name === "string" && name.startsWith("skills.")) return callSkill(name.slice(7), args);
    const label = typeof name === "string" ? clip(name, 200) : "callTool";
    return unwrap(await need().callTool(name, toJsonText(args, maxArgChars, label)));
  };

  /** @param {string} server */
  const serverProxy = (server) =>
    new Proxy(
      {},
      {
        get: (_target, tool) =>
          typeof tool !== "string" || tool === "then"
            ? undefined
            : (/** @type {unknown} */ args) => callTool(`${server}.${tool}`, args),
      },
    );
  /** @type {Record<string, unknown>} */
  const servers = Object.create(null);
  const tools = new Proxy(
    {},
    {
      get: (_target, server) => {
        if (typeof server !== "string" || server === "then") return undefined;
        servers[server] ??= serverProxy(server);
        return servers[server];
      },
    },
  );

  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  g.tools = tools;
  g.callTool = callTool;
  g.searchTools = async (/** @type {unknown} */ query, /** @type {unknown} */ options) => {
    const opts = options !== null && typeof options === "object" ? options : {};
    const input = query === undefined ? opts : { ...opts, query };
    return unwrap(await need().searchTools(toJsonText(input, 10_000, "searchTools")));
  };
  g.getToolDefinition = async (/** @type {unknown} */ name) => unwrap(await need().getToolDefinition(name));
}
