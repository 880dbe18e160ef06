// `teams create`'s options → the team record sent to PUT /admin/teams/{team} (scripts/admin.mjs).
import { readFileSync } from "node:fs";
import { CliError } from "./cli-request.mjs";

/** JSON from the argument itself or, with a leading `@`, from that file. */
function jsonOption(flag, raw) {
  let text = raw;
  if (raw.startsWith("@")) {
    try {
      text = readFileSync(raw.slice(1), "utf8");
    } catch (err) {
      throw new CliError(
        `--${flag}: cannot read ${raw.slice(1)}: ${err instanceof Error ? err.message : err}`,
      );
    }
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--${flag}: not valid JSON (${err instanceof Error ? err.message : err})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new CliError(`--${flag}: expected a JSON object`);
  return value;
}

const globs = (list) =>
  list
    .flatMap((item) => item.split(","))
    .map((s) => s.trim())
    .filter(Boolean);

/** The options given, as the record's fields; the gateway validates the rest and names what is wrong. */
export function teamBody(values) {
  const body = {};
  for (const flag of ["servers", "limits", "approvals", "tools"]) {
    if (values[flag] !== undefined) body[flag] = jsonOption(flag, values[flag]);
  }
  if (values.allow) body.allow = globs(values.allow);
  if (values.deny) body.deny = globs(values.deny);
  if (values.egress) body.egress = globs(values.egress);
  if (values.pii !== undefined) {
    if (values.pii !== "tokenize" && values.pii !== "off")
      throw new CliError(`--pii takes "tokenize" or "off", not "${values.pii}"`);
    body.pii = { mode: values.pii };
  }
  if (values.engine !== undefined) {
    if (values.engine !== "quickjs" && values.engine !== "isolate")
      throw new CliError(`--engine takes "quickjs" or "isolate", not "${values.engine}"`);
    body.engine = values.engine;
  }
  return body;
}
