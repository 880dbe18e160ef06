// Built-ins the runtime uses after the agent's code has run, captured when the isolate starts,
// before that code could replace them. Tampering can still only spoil the isolate's own report:
// the sandbox host checks its size and shape, and every count that matters is kept by the gateway.

export const stringify = JSON.stringify;
export const ErrorCtor = Error;
export const now = Date.now;
const apply = Reflect.apply;
const slice = String.prototype.slice;

/**
 * `text` cut to `max` characters, with a marker saying how much went.
 * @param {string} text
 * @param {number} max
 */
export function clip(text, max) {
  if (typeof text !== "string") return "";
  if (text.length <= max) return text;
  const keep = max > 60 ? max - 60 : max;
  const head = apply(slice, text, [0, keep]);
  return max > 60 ? `${head}… [${text.length - keep} characters cut]` : head;
}
