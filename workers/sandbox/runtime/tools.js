// The tool globals agent code sees: `tools.<server>.<tool>(args)`, `callTool(name, args)`,
// `searchTools(query, options)`, `getToolDefinition(name)`, and `fetch` when the team allows
// egress. Each goes over RPC to the bridge object the gateway handed to `run()`. Arguments cross
// as JSON text, cut to size here; the gateway checks the size again, counts every call against
// the execution's budgets and keeps the call list that `stats` reports.
import { clip, ErrorCtor, stringify } from "./intrinsics.js";

const RequestCtor = Request;
const nativeFetch = globalThis.fetch;

/**
 * @typedef {import("../../../shared/contract/sandbox").BridgeResult} BridgeResult
 * @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge
 */

/**
 * A bridge answer's value, or its error thrown (with `path` for workspace errors).
 * @param {BridgeResult} res
 */
export function unwrap(res) {
  if (res.ok) return res.value;
  const err = /** @type {Error & { path?: string }} */ (new ErrorCtor(res.error.message));
  err.name = res.error.name;
  if (typeof res.error.path === "string") err.path = res.error.path;
  throw err;
}

/**
 * @param {unknown} value
 * @param {number} maxChars
 * @param {string} what
 */
export function toJsonText(value, maxChars, what) {
  let text;
  try {
    text = stringify(value === undefined ? null : value);
  } catch (err) {
    throw new TypeError(
      `${what}: arguments are not JSON-serializable (${err instanceof ErrorCtor ? err.message : "?"})`,
    );
  }
  if (typeof text === "string" && text.length > maxChars) {
    const err = new ErrorCtor(
      `${what}: arguments are ${text.length} characters of JSON; the limit is ${maxChars}`,
    );
    err.name = "LimitError";
    throw err;
  }
  return text ?? "null";
}

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

/**
 * Without egress the isolate is loaded with `globalOutbound: null`, which is what blocks the
 * network; this only makes the refusal say what happened. With egress, fetch() goes to the
 * gateway, which applies the team's host list hop by hop.
 * @param {Bridge | undefined} egress
 */
export function installNetwork(egress) {
  globalThis.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    try {
      if (egress) return await egress.fetch(new RequestCtor(input, init));
      return await nativeFetch(input, init);
    } catch (err) {
      const reason = err instanceof ErrorCtor ? err.message : String(err);
      const blocked = /not permitted to access the internet/i.test(clip(reason, 500));
      throw new TypeError(
        blocked
          ? `fetch(${clip(url, 500)}) failed: this sandbox has no network access (${clip(reason, 500)})`
          : `fetch(${clip(url, 500)}) failed: ${clip(reason, 1_000)}`,
      );
    }
  };
}
