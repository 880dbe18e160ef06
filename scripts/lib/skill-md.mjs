// Reads a SKILL.md as the gateway writes it (workers/gateway/skills/skill-md.ts) or as a person
// might: front matter of `key: value` lines with plain, 'single-' or "double-quoted" YAML scalars,
// and the body's first fenced code block.

/**
 * @param {string} text
 * @returns {{ fields: Record<string, string>, code: string | undefined }}
 */
export function parseSkillMd(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") throw new Error("does not start with a front matter block (---)");
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end === -1) throw new Error("its front matter block is not closed (---)");
  const fields = {};
  lines.slice(1, end).forEach((line, i) => {
    if (line.trim() === "" || line.trimStart().startsWith("#") || /^\s/.test(line)) return;
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (!match) throw new Error(`front matter line ${i + 2} is not "key: value"`);
    fields[match[1]] = scalar(match[2] ?? "", i + 2);
  });
  return { fields, code: firstFence(lines.slice(end + 1)) };
}

function scalar(raw, line) {
  const value = raw.trim();
  if (value.startsWith('"')) return doubleQuoted(value, line);
  if (value.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(value);
    if (!match) throw new Error(`front matter line ${line}: unterminated single-quoted string`);
    return match[1].replaceAll("''", "'");
  }
  if (value === "|" || value === ">" || /^[|>][+-]?\d*$/.test(value))
    throw new Error(
      `front matter line ${line}: block scalars (| or >) are not read here; write the value quoted`,
    );
  return value.replace(/\s+#.*$/, "");
}

const ESCAPES = {
  0: "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const HEX = { x: 2, u: 4, U: 8 };

function doubleQuoted(value, line) {
  let out = "";
  for (let i = 1; i < value.length; i++) {
    const c = value[i];
    if (c === '"') {
      if (!/^\s*(#.*)?$/.test(value.slice(i + 1)))
        throw new Error(`front matter line ${line}: text after the closing quote`);
      return out;
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = value[++i];
    if (e in HEX) {
      const hex = value.slice(i + 1, i + 1 + HEX[e]);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== HEX[e])
        throw new Error(`front matter line ${line}: bad escape \\${e}${hex}`);
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i += HEX[e];
    } else if (e !== undefined && e in ESCAPES) out += ESCAPES[e];
    else throw new Error(`front matter line ${line}: unknown escape \\${e ?? ""}`);
  }
  throw new Error(`front matter line ${line}: unterminated double-quoted string`);
}

/** The text of the first ``` or ~~~ block: the lines between its fences, as they are. */
function firstFence(lines) {
  const start = lines.findIndex((l) => /^ {0,3}(`{3,}|~{3,})/.test(l));
  if (start === -1) return undefined;
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[start])[1];
  const closes = (l) => {
    const t = l.trim();
    return t.length >= fence.length && t === fence[0].repeat(t.length);
  };
  const end = lines.findIndex((l, i) => i > start && closes(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}
