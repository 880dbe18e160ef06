// The `skills` global (contract "Skills"): `skills.<name>(args)` runs a saved skill loaded into this
// isolate as a module (the gateway found the names in the code before the isolate was made), and
// `skills.save/list/get/delete` manage them through the bridge. Each call of a skill first has the
// gateway check its arguments against the skill's inputSchema (and count and audit the call); the
// skill then gets a JSON copy of them and its own `skills`, which knows who called it, so a cycle
// (a → b → a) ends with a RecursionError instead of running until the guard stops it.
import { clip, ErrorCtor } from "./intrinsics.js";

const parse = JSON.parse;
const hasOwn = Object.hasOwn;
const MAX_DEPTH = 16;
const MANAGEMENT = ["save", "list", "get", "delete"];
/** @type {WeakSet<object>} errors already named after the skill they came from */
const located = new WeakSet();

/**
 * @param {string} name
 * @param {string} message
 */
function fail(name, message) {
  const err = new ErrorCtor(message);
  err.name = name;
  return err;
}

/**
 * The skill and line an error came from, put in front of its message once (the innermost skill).
 * @param {unknown} err
 * @param {string} skill
 */
function locate(err, skill) {
  if (err === null || typeof err !== "object" || located.has(err)) return;
  located.add(err);
  try {
    const e = /** @type {{ message?: unknown, stack?: unknown }} */ (err);
    const stack = typeof e.stack === "string" ? clip(e.stack, 8_000) : "";
    const marker = `skill-${skill}.js:`;
    const at = stack.indexOf(marker);
    let line = "";
    if (at >= 0) {
      let end = at + marker.length;
      while (end < stack.length && stack[end] >= "0" && stack[end] <= "9") end++;
      const n = Number(stack.slice(at + marker.length, end));
      if (n > 1) line = ` line ${n - 1}`;
    }
    e.message = `in skills.${skill}${line}: ${typeof e.message === "string" ? e.message : ""}`;
  } catch {}
}

/**
 * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @param {Record<string, (args: unknown, skills: unknown) => Promise<unknown>>} loaded
 * @param {string[]} missing
 * @param {(value: unknown, what: string) => string} toJson
 * @param {(res: import("../../../shared/contract/sandbox").BridgeResult) => unknown} unwrap
 * @param {(label: string, call: Promise<unknown>) => Promise<unknown>} track pending.js: no call is dropped
 */
export function installSkills(bridge, loaded, missing, toJson, unwrap, track) {
  const skills = skillCaller(bridge, loaded, missing, toJson, unwrap, track);
  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  g.skills = skills.root;
  return skills.call;
}

/**
 * The same without the global: what Python code calls (`call`), and the `skills` object (`root`).
 * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @param {Record<string, (args: unknown, skills: unknown) => Promise<unknown>>} loaded
 * @param {string[]} missing
 * @param {(value: unknown, what: string) => string} toJson
 * @param {(res: import("../../../shared/contract/sandbox").BridgeResult) => unknown} unwrap
 * @param {(label: string, call: Promise<unknown>) => Promise<unknown>} track
 */
export function skillCaller(bridge, loaded, missing, toJson, unwrap, track) {
  /**
   * @param {string} op
   * @param {unknown} payload
   */
  const send = async (op, payload) => {
    if (!bridge) throw fail("Error", "Skills are not available in this sandbox");
    return unwrap(await bridge.skills(op, toJson(payload, `skills.${op}`)));
  };
  const management = {
    save: (/** @type {unknown} */ skill) => track("skills.save()", send("save", skill)),
    list: () => track("skills.list()", send("list", {})),
    get: (/** @type {unknown} */ name, /** @type {unknown} */ version) =>
      track("skills.get()", send("get", version === undefined ? { name } : { name, version })),
    delete: (/** @type {unknown} */ name) => track("skills.delete()", send("delete", { name })),
  };

  /**
   * @param {string} name
   * @param {unknown} args
   * @param {string[]} chain
   */
  const invoke = async (name, args, chain) => {
    if (!hasOwn(loaded, name)) {
      if (missing.includes(name)) {
        // Not the team's when the isolate was made: the gateway says which error it is (a skill this
        // execution saved since is SkillNotLoadedError, to be called from the next execution).
        await send("call", { name, args: {} });
        throw fail(
          "UnknownSkillError",
          `skills.${name}: this team has no skill named "${name}" (skills.list() shows them)`,
        );
      }
      throw fail(
        "SkillNotLoadedError",
        `skills.${clip(name, 64)}: only skills named in the code as skills.<name> or skills["<name>"] are loaded`,
      );
    }
    if (chain.includes(name)) {
      throw fail(
        "RecursionError",
        `skills.${name} was called again by itself: ${[...chain, name].join(" → ")}`,
      );
    }
    if (chain.length >= MAX_DEPTH) {
      throw fail(
        "RecursionError",
        `skills nested more than ${MAX_DEPTH} deep: ${[...chain, name].join(" → ")}`,
      );
    }
    const json = toJson({ name, args: args === undefined ? {} : args }, `skills.${name}`);
    unwrap(await /** @type {NonNullable<typeof bridge>} */ (bridge).skills("call", json));
    try {
      return await loaded[name](parse(json).args, scoped([...chain, name]));
    } catch (err) {
      locate(err, name);
      throw err;
    }
  };

  /** @param {string[]} chain */
  const scoped = (chain) =>
    new Proxy(management, {
      get: (target, prop) => {
        if (typeof prop !== "string" || prop === "then") return undefined;
        if (MANAGEMENT.includes(prop)) return target[/** @type {keyof typeof management} */ (prop)];
        return (/** @type {unknown} */ args) =>
          track(`skills.${clip(prop, 64)}()`, invoke(prop, args, chain));
      },
    });

  return {
    root: scoped([]),
    call: (/** @type {string} */ name, /** @type {unknown} */ args) =>
      track(`skills.${clip(name, 64)}()`, invoke(name, args, [])),
  };
}
