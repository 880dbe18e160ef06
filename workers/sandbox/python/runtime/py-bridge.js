// The JS side of what Python code calls: each function forwards to the bridge the gateway handed to
// the execution and answers with JSON text (or, for a workspace read, the file's bytes), so nothing but
// strings and byte arrays crosses between the two languages.

/**
 * @param {import("../../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @param {(name: string, args: unknown) => Promise<unknown>} callSkill runs a (TypeScript) skill here
 */
export function makeBridgeFunctions(bridge, callSkill) {
  const need = () => {
    if (!bridge) throw new Error("No tools are available in this sandbox");
    return bridge;
  };
  const json = (/** @type {unknown} */ value) => JSON.stringify(value);
  return {
    callTool: async (/** @type {string} */ name, /** @type {string} */ argsJson) =>
      json(await need().callTool(name, argsJson)),
    searchTools: async (/** @type {string} */ optionsJson) => json(await need().searchTools(optionsJson)),
    getToolDefinition: async (/** @type {string} */ name, /** @type {boolean} */ schema) =>
      json(await need().getToolDefinition(name, schema === true)),
    callSkill: async (/** @type {string} */ name, /** @type {string} */ argsJson) => {
      try {
        const value = await callSkill(name, JSON.parse(argsJson));
        return json({ ok: true, value: value === undefined ? null : value });
      } catch (err) {
        const e = /** @type {{ name?: unknown, message?: unknown }} */ (err ?? {});
        return json({
          ok: false,
          error: { name: String(e.name ?? "Error"), message: String(e.message ?? err) },
        });
      }
    },
    skills: async (/** @type {string} */ op, /** @type {string} */ payloadJson) =>
      json(await need().skills(op, payloadJson)),
    session: async (/** @type {string} */ callJson, /** @type {Uint8Array | undefined} */ data) => {
      const call = JSON.parse(callJson);
      if (data !== undefined && data !== null) call.data = data;
      const res = await need().session(call);
      if (res.ok && res.value instanceof Uint8Array) return res.value;
      return json(res);
    },
  };
}
