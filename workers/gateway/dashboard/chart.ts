import { html } from "hono/html";

export interface Bar {
  /** the x label (an hour or a day) */
  label: string;
  value: number;
  /** the part of `value` drawn as errors */
  errors?: number;
}

const W = 720;
const H = 180;
const PAD = 28;

/**
 * A bar chart drawn on the server as SVG (no script, no library): each bar has a <title> with its
 * figures, and the same figures follow in a table for those who cannot see the chart or its colours.
 */
export function barChart(title: string, bars: Bar[], unit: string) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = bars.length ? (W - PAD) / bars.length : 0;
  const width = Math.max(1, step * 0.8);
  const y = (v: number) => H - PAD - ((H - 2 * PAD) * v) / max;
  const label = (b: Bar) => `${b.label}: ${b.value} ${unit}${b.errors ? `, ${b.errors} errors` : ""}`;
  return html`<figure>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}">
<title>${title}</title>
<text x="0" y="12">max ${max} ${unit}</text>
<line x1="${PAD}" y1="${H - PAD}" x2="${W}" y2="${H - PAD}" stroke="currentColor" stroke-opacity="0.3"></line>
${bars.map((b, i) => {
  const x = PAD + i * step;
  const errH = b.errors ? H - PAD - y(b.errors) : 0;
  return html`<g><title>${label(b)}</title>
<rect class="bar" x="${x.toFixed(1)}" y="${y(b.value).toFixed(1)}" width="${width.toFixed(1)}" height="${(H - PAD - y(b.value)).toFixed(1)}"></rect>
${errH > 0 ? html`<rect class="bar err" x="${x.toFixed(1)}" y="${(H - PAD - errH).toFixed(1)}" width="${width.toFixed(1)}" height="${errH.toFixed(1)}"></rect>` : ""}
</g>`;
})}
${bars.length ? html`<text x="${PAD}" y="${H - 8}">${bars[0]?.label ?? ""}</text><text x="${W}" y="${H - 8}" text-anchor="end">${bars[bars.length - 1]?.label ?? ""}</text>` : ""}
</svg>
<figcaption>${title}${bars.some((b) => b.errors) ? " (errors drawn darker at the foot of each bar)" : ""}</figcaption>
</figure>`;
}
