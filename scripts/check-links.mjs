// `node scripts/check-links.mjs` (part of `npm run lint`): every relative link in README.md and
// docs/**/*.md must resolve. A link is `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, an
// image, or a reference definition `[label]: path`; http(s), mailto and other schemes are not checked.
// The path must exist (relative to the file that links); an anchor into a Markdown file must name one
// of its headings (GitHub's slugs) or an explicit `<a id>` / `<a name>`. Links inside code (fenced
// blocks, inline code spans) are not links. Prints `file:line: …` for each broken one and exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { root } from "./lib/root.mjs";

/** The Markdown files checked: README.md and everything under docs/. */
function markdownFiles() {
  const files = [join(root, "README.md")];
  const docs = join(root, "docs");
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { recursive: true, encoding: "utf8" })) {
      if (entry.endsWith(".md")) files.push(join(docs, entry));
    }
  }
  return files.filter((f) => existsSync(f)).sort();
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The file's lines with code blanked out: fenced blocks become empty lines, inline code spans spaces. */
function proseLines(text) {
  const lines = text.split("\n");
  let fence = null;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    // An inline code span: a run of backticks up to the next run of the same length.
    return line.replace(/(`+)[\s\S]*?\1/g, (span) => " ".repeat(span.length));
  });
}

/** GitHub's anchor for a heading's text: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/[`*]/g, "") // code and emphasis markers
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();

/** The anchors a Markdown file defines: its headings' slugs (repeats numbered -1, -2, …) and <a id>s. */
function anchorsOf(file) {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const anchors = new Set();
  const seen = new Map();
  const lines = readFileSync(file, "utf8").split("\n");
  let fence = null;
  for (const line of lines) {
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+[^>]*(?:id|name)\s*=\s*"([^"]+)"/gi)) anchors.add(m[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Link targets on one line of prose: inline links and images, and reference definitions. */
function targetsOf(line) {
  const targets = [];
  for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
    targets.push(m[1].replace(/^<|>$/g, ""));
  }
  const definition = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
  if (definition) targets.push(definition[1].replace(/^<|>$/g, ""));
  return targets;
}

/** Why `target`, linked from `file`, does not resolve; undefined when it does. */
function problem(file, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:, …
  const hash = target.indexOf("#");
  const rawPath = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : target.slice(hash + 1);
  let path;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return "not a valid URL path";
  }
  const resolved = path === "" ? file : resolve(dirname(file), path.split("?")[0]);
  if (!existsSync(resolved)) return `${relative(root, resolved)} does not exist`;
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(resolved).isDirectory() || extname(resolved).toLowerCase() !== ".md") return undefined;
  let wanted;
  try {
    wanted = decodeURIComponent(anchor);
  } catch {
    return `#${anchor} is not a valid anchor`;
  }
  if (anchorsOf(resolved).has(wanted.toLowerCase()) || anchorsOf(resolved).has(wanted)) return undefined;
  return `${relative(root, resolved)} has no heading #${wanted}`;
}

const broken = [];
let checked = 0;
for (const file of markdownFiles()) {
  const lines = proseLines(readFileSync(file, "utf8"));
  lines.forEach((line, i) => {
    for (const target of targetsOf(line)) {
      checked++;
      const why = problem(file, target);
      if (why) broken.push(`${relative(root, file)}:${i + 1}: broken link (${target}): ${why}`);
    }
  });
}

if (broken.length > 0) {
  for (const line of broken) console.error(line);
  console.error(`[check-links] ${broken.length} of ${checked} relative links are broken`);
  process.exit(1);
}
console.log(`[check-links] ${checked} links checked, all resolve`);
