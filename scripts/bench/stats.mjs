// Small numeric and formatting helpers shared by the bench sections.

/** Nearest-rank percentile of `values` (unsorted is fine). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** p50/p90/p99 of latencies and the rate over the run's wall time. */
export function summarize({ latencies, seconds }) {
  return {
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    perSecond: latencies.length / seconds,
  };
}

/** Times `count` sequential runs of `fn`; resolves to the latencies in ms. */
export async function timeSequential(count, fn) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await fn(i);
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

export const int = (n) => Math.round(n).toLocaleString("en-US");
export const ms = (n) => `${n.toFixed(1)} ms`;
export const pct = (part, whole) => `${((1 - part / whole) * 100).toFixed(1)} %`;

/** A fixed-width table: first column left-aligned, the rest right-aligned. */
export function table(header, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(all[0]), ...all.slice(1).map(line)].join("\n");
}
