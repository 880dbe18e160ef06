// The in-code tool globals: `tools.<server>.<tool>(args)`, `callTool(name, args)`,
// `searchTools(query, options)` and `getToolDefinition(name)`. Each goes over Workers RPC to the
// gateway's ToolBridge (env.TOOLS), which validates, calls the upstream and unwraps the result.

const now = Date.now;
const ErrorCtor = Error;

/**
 * @typedef {{ ok: true, value: unknown } | { ok: false, error: { name: string, message: string } }} BridgeResult
 * @typedef {{ callTool(name: string, args: unknown): Promise<BridgeResult>,
 *   searchTools(input: unknown): Promise<BridgeResult>, getToolDefinition(name: string): Promise<BridgeResult> }} Bridge
 * @typedef {{ name: string, ms: number, ok: boolean }} CallRecord
 */

/**
 * @param {Bridge | undefined} bridge
 * @param {number} maxCalls
 * @returns {{ calls: CallRecord[] }}
 */
export function installTools(bridge, maxCalls) {
  /** @type {CallRecord[]} */
  const calls = [];
  let started = 0;

  /** @param {BridgeResult} res */
  const unwrap = (res) => {
    if (res.ok) return res.value;
    const err = new ErrorCtor(res.error.message);
    err.name = res.error.name;
    throw err;
  };
  const need = () => {
    if (!bridge) throw new ErrorCtor("No tools are available in this sandbox");
    return bridge;
  };

  /**
   * @param {unknown} name
   * @param {unknown} args
   */
  const callTool = async (name, args) => {
    const label = typeof name === "string" ? name : String(name);
    if (++started > maxCalls) {
      throw new ErrorCtor(`${label}: tool call limit reached (${maxCalls} calls per execution)`);
    }
    const t0 = now();
    /** @type {BridgeResult} */
    let res;
    try {
      res = await need().callTool(/** @type {string} */ (name), args);
    } catch (err) {
      calls.push({ name: label, ms: now() - t0, ok: false });
      throw new ErrorCtor(`${label} failed: ${err instanceof ErrorCtor ? err.message : String(err)}`);
    }
    calls.push({ name: label, ms: now() - t0, ok: res.ok });
    return unwrap(res);
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
  const servers = new Map();
  const tools = new Proxy(
    {},
    {
      get: (_target, server) => {
        if (typeof server !== "string" || server === "then") return undefined;
        if (!servers.has(server)) servers.set(server, serverProxy(server));
        return servers.get(server);
      },
    },
  );

  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  g.tools = tools;
  g.callTool = callTool;
  g.searchTools = async (
    /** @type {unknown} */ query,
    /** @type {Record<string, unknown> | undefined} */ options,
  ) => unwrap(await need().searchTools({ ...(options ?? {}), ...(query === undefined ? {} : { query }) }));
  g.getToolDefinition = async (/** @type {string} */ name) => unwrap(await need().getToolDefinition(name));
  return { calls };
}
