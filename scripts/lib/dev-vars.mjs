// The local dev API key lives in .dev.vars (git-ignored), which wrangler dev reads for the gateway.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./root.mjs";

const file = join(root, ".dev.vars");

export function readDevKey() {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  return /^DEV_API_KEY\s*=\s*"?([^"\n]+)"?\s*$/m.exec(text)?.[1];
}

/** The key in .dev.vars, made (and appended) on first use. */
export function ensureDevKey() {
  const found = readDevKey();
  if (found) return found;
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const key = `dev_${randomBytes(24).toString("hex")}`;
  writeFileSync(file, `${text}${text && !text.endsWith("\n") ? "\n" : ""}DEV_API_KEY="${key}"\n`);
  return key;
}

/** Any variable in .dev.vars (`NAME=value` or `NAME="value"`), or undefined. */
export function readDevVar(name) {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  return new RegExp(`^${name}\\s*=\\s*"?([^"\\n]+)"?\\s*$`, "m").exec(text)?.[1];
}

/** The variable in .dev.vars, made (`<prefix><48 hex digits>`, appended) on first use. */
export function ensureDevVar(name, prefix) {
  const found = readDevVar(name);
  if (found) return found;
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const value = `${prefix}${randomBytes(24).toString("hex")}`;
  writeFileSync(file, `${text}${text && !text.endsWith("\n") ? "\n" : ""}${name}="${value}"\n`);
  return value;
}
