/**
 * Whether code that failed to compile as TypeScript is evidently Python: a line (of the first
 * MAX_LINES, each clipped to MAX_LINE_CHARS) that Python has and TypeScript cannot, and that does
 * not end as a TypeScript statement or block does (`;`, `{`, `}`). Only asked after
 * a syntax error, so valid TypeScript is never refused by it. The patterns are anchored and run on
 * short lines: no unbounded regex over the code.
 */
const MAX_LINES = 400;
const MAX_LINE_CHARS = 200;

const PYTHON_LINES: RegExp[] = [
  /^(async\s+)?def\s+[A-Za-z_]\w*\s*\(/,
  /^from\s+[\w.]+\s+import\s/,
  /^import\s+[\w.]+(\s*,\s*[\w.]+)*(\s+as\s+\w+)?$/,
  /^print\(/,
  /^(elif|else|try|finally|except)\b[^{};]*:$/,
  /^(if|for|while|with|class)\s[^{};]*:$/,
  /^#( |$)/,
];

/** The first line that marks the code as Python, with its number; undefined when none does. */
export function pythonLine(code: string): { line: number; text: string } | undefined {
  let start = 0;
  for (let n = 1; n <= MAX_LINES && start <= code.length; n++) {
    const end = code.indexOf("\n", start);
    const stop = end < 0 ? code.length : end;
    const text = code.slice(start, Math.min(stop, start + MAX_LINE_CHARS)).trim();
    if (!/[;{}]$/.test(text) && PYTHON_LINES.some((re) => re.test(text))) return { line: n, text };
    if (end < 0) break;
    start = end + 1;
  }
  return undefined;
}

/** What to do, for an agent that sent Python as TypeScript (with the label and line: ≤ 300 characters). */
export const SAVE_AS_PYTHON =
  'save it with language "python" (Python\'s skills.save() does by default); Python code calls it';
