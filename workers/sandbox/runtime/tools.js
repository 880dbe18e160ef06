// The tool globals agent code sees: `tools.<server>.<tool>(args)`, `callTool(name, args)`,
// `searchTools(query, options)` and `getToolDefinition(name, { schema? })`. Each goes over RPC to the bridge
// object the gateway handed to the execution. Arguments cross as JSON text, cut to size here; the gateway
// checks the size again, counts every call against the execution's budgets and keeps the call list
// that `stats` reports.
import { toJsonText, unwrap } from "./bridge-io.js";
import { clip, ErrorCtor } from "./intrinsics.js";

/** @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge */

/**
 * @param {Bridge | undefined} bridge
 * @param {number} maxArgChars
 * @param {(name: string, args: unknown) => Promise<unknown>} callSkill `callTool("skills.<name>", args)`
 * @param {(label: string, call: Promise<unknown>) => Promise<unknown>} track pending.js: no call is dropped
 */
export function installTools(bridge, maxArgChars, callSkill, track) {
  const need = () => {
    if (!bridge) throw new ErrorCtor("No tools are available in this sandbox");
    return bridge;
  };

  /**
   * @param {unknown} name
   * @param {unknown} args
   */
  const send = async (
    /** @type {unknown} */ name,
    /** @type {unknown} */ args,
    /** @type {string} */ label,
  ) => unwrap(await need().callTool(name, toJsonText(args, maxArgChars, label)));
  const callTool = (/** @type {unknown} */ name, /** @type {unknown} */ args) => {
    if (typeof name === "string" && name.startsWith("skills.")) return callSkill(name.slice(7), args);
    const label = typeof name === "string" ? clip(name, 200) : "callTool";
    return track(`tools.${label}()`, send(name, args, label));
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
  const search = async (/** @type {unknown} */ query, /** @type {unknown} */ options) => {
    const opts = options !== null && typeof options === "object" ? options : {};
    const input = query === undefined ? opts : { ...opts, query };
    return unwrap(await need().searchTools(toJsonText(input, 10_000, "searchTools")));
  };
  g.searchTools = (/** @type {unknown} */ query, /** @type {unknown} */ options) =>
    track("searchTools()", search(query, options));
  const definition = async (/** @type {unknown} */ name, /** @type {unknown} */ options) => {
    const schema =
      options !== null &&
      typeof options === "object" &&
      /** @type {{ schema?: unknown }} */ (options).schema === true;
    return unwrap(await need().getToolDefinition(name, schema));
  };
  g.getToolDefinition = (/** @type {unknown} */ name, /** @type {unknown} */ options) =>
    track("getToolDefinition()", definition(name, options));
}
