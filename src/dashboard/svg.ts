import { escapeHtml, html, raw, type Html } from './html.ts';

/** Server-rendered SVG charts: no script, no library, readable by screen readers through <title> and <desc>. */

/** Colour-blind-safe palette (Okabe-Ito), dark enough to read against white. */
export const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#7a6a00', '#555555'];

const fmt = (n: number): string => (Math.abs(n) >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(2));

function frame(width: number, height: number, title: string, desc: string, body: string): Html {
  const id = `c${Math.abs(hashCode(title + desc)).toString(36)}`;
  return raw(`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}t ${id}d" xmlns="http://www.w3.org/2000/svg">`
    + `<title id="${id}t">${escapeHtml(title)}</title><desc id="${id}d">${escapeHtml(desc)}</desc>${body}</svg>`);
}

function hashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** Signed horizontal bars (an explanation's contributions): positive to the right in red, negative to the left in green. */
export function signedBars(title: string, items: ReadonlyArray<{ label: string; value: number }>): Html {
  if (items.length === 0) return html`<p class="muted">Nothing to chart.</p>`;
  const width = 640;
  const labelW = 220;
  const row = 22;
  const height = items.length * row + 24;
  const max = Math.max(...items.map((i) => Math.abs(i.value)), 1e-9);
  const hasNeg = items.some((i) => i.value < 0);
  const plotW = width - labelW - 60;
  const zero = labelW + (hasNeg ? plotW / 2 : 0);
  const scale = (hasNeg ? plotW / 2 : plotW) / max;
  let body = `<line x1="${zero}" y1="4" x2="${zero}" y2="${height - 16}" stroke="#555"/>`;
  items.forEach((item, i) => {
    const y = 6 + i * row;
    const w = Math.max(1, Math.abs(item.value) * scale);
    const x = item.value >= 0 ? zero : zero - w;
    body += `<text x="${labelW - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(item.label.slice(0, 34))}</text>`;
    body += `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${row - 6}" fill="${item.value >= 0 ? '#b42318' : '#146c2e'}"/>`;
    const tx = item.value >= 0 ? x + w + 4 : x - 4;
    body += `<text x="${tx.toFixed(1)}" y="${y + 13}" text-anchor="${item.value >= 0 ? 'start' : 'end'}">${item.value > 0 ? '+' : ''}${fmt(item.value)}</text>`;
  });
  const desc = items.map((i) => `${i.label}: ${fmt(i.value)}`).join('; ');
  return frame(width, height, title, desc, body);
}

export interface Series {
  name: string;
  /** One value per category (same order as the categories). */
  values: number[];
}

/** Stacked columns per category (days), with a legend and an optional limit line (a daily quota share). */
export function stackedColumns(title: string, categories: readonly string[], series: readonly Series[], opts: { limit?: { value: number; label: string } } = {}): Html {
  if (categories.length === 0 || series.length === 0) return html`<p class="muted">No data in this period.</p>`;
  const width = 640;
  const height = 220;
  const left = 56;
  const bottom = 28;
  const plotH = height - bottom - 10;
  const totals = categories.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  // A limit far above the data (a big plan's daily quota share) would flatten the bars: it is named, not drawn.
  const dataMax = Math.max(...totals, 1);
  const drawLimit = opts.limit !== undefined && opts.limit.value <= dataMax * 1.5;
  const max = Math.max(dataMax, drawLimit ? opts.limit!.value : 0);
  const colW = (width - left - 8) / categories.length;
  const y = (v: number) => 10 + plotH - (v / max) * plotH;
  let body = `<line x1="${left}" y1="${y(0)}" x2="${width - 4}" y2="${y(0)}" stroke="#555"/>`;
  body += `<text x="${left - 4}" y="${y(max) + 4}" text-anchor="end">${fmt(max)}</text><text x="${left - 4}" y="${y(0)}" text-anchor="end">0</text>`;
  categories.forEach((cat, i) => {
    let base = 0;
    series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      if (v <= 0) return;
      const top = y(base + v);
      body += `<rect x="${(left + i * colW + 1).toFixed(1)}" y="${top.toFixed(1)}" width="${Math.max(1, colW - 2).toFixed(1)}" height="${(y(base) - top).toFixed(1)}" fill="${PALETTE[k % PALETTE.length]}"><title>${escapeHtml(`${cat} ${s.name}: ${fmt(v)}`)}</title></rect>`;
      base += v;
    });
    const every = Math.ceil(categories.length / 8);
    if (i % every === 0) body += `<text x="${(left + i * colW + colW / 2).toFixed(1)}" y="${height - 10}" text-anchor="middle">${escapeHtml(cat.slice(5))}</text>`;
  });
  if (opts.limit && drawLimit) {
    const ly = y(opts.limit.value).toFixed(1);
    body += `<line x1="${left}" y1="${ly}" x2="${width - 4}" y2="${ly}" stroke="#b42318" stroke-dasharray="6 4"/><text x="${width - 6}" y="${Number(ly) - 4}" text-anchor="end" fill="#b42318">${escapeHtml(opts.limit.label)}</text>`;
  }
  const desc = series.map((s) => `${s.name}: ${fmt(s.values.reduce((a, b) => a + b, 0))} in total`).join('; ');
  const note = opts.limit && !drawLimit ? html`<p class="muted">${opts.limit.label}: ${fmt(opts.limit.value)} a day, far above these calls.</p>` : '';
  return html`${frame(width, height, title, desc, body)}${legend(series.map((s) => s.name))}${note}`;
}

/** Horizontal bars of counts (top rules, score bands). */
export function countBars(title: string, items: ReadonlyArray<{ label: string; value: number }>, unit = ''): Html {
  if (items.length === 0 || items.every((i) => i.value === 0)) return html`<p class="muted">No data in this period.</p>`;
  const width = 640;
  const labelW = 210;
  const row = 24;
  const height = items.length * row + 8;
  const max = Math.max(...items.map((i) => i.value), 1);
  let body = '';
  items.forEach((item, i) => {
    const yy = 4 + i * row;
    const w = Math.max(item.value > 0 ? 1 : 0, (item.value / max) * (width - labelW - 70));
    body += `<text x="${labelW - 6}" y="${yy + 14}" text-anchor="end">${escapeHtml(item.label.slice(0, 26))}</text>`;
    body += `<rect x="${labelW}" y="${yy}" width="${w.toFixed(1)}" height="${row - 6}" fill="${PALETTE[i % PALETTE.length]}"/>`;
    body += `<text x="${(labelW + w + 4).toFixed(1)}" y="${yy + 14}">${fmt(item.value)}${unit}</text>`;
  });
  return frame(width, height, title, items.map((i) => `${i.label}: ${fmt(i.value)}`).join('; '), body);
}

/** A line through values over time (model weights' history). */
export function lineChart(title: string, points: ReadonlyArray<{ label: string; value: number }>): Html {
  if (points.length < 2) return html`<p class="muted">Not enough history to draw.</p>`;
  const width = 640;
  const height = 200;
  const left = 50;
  const min = Math.min(...points.map((p) => p.value), 0);
  const max = Math.max(...points.map((p) => p.value), 1e-9);
  const x = (i: number) => left + (i / (points.length - 1)) * (width - left - 10);
  const y = (v: number) => 10 + (1 - (v - min) / (max - min || 1)) * (height - 40);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  let body = `<line x1="${left}" y1="${y(0)}" x2="${width - 4}" y2="${y(0)}" stroke="#999"/>`;
  body += `<text x="${left - 4}" y="${y(max) + 4}" text-anchor="end">${fmt(max)}</text><text x="${left - 4}" y="${y(min)}" text-anchor="end">${fmt(min)}</text>`;
  body += `<path d="${path}" fill="none" stroke="${PALETTE[0]}" stroke-width="2"/>`;
  body += `<text x="${left}" y="${height - 8}">${escapeHtml(points[0]!.label)}</text><text x="${width - 10}" y="${height - 8}" text-anchor="end">${escapeHtml(points.at(-1)!.label)}</text>`;
  return frame(width, height, title, `${points.length} points from ${fmt(points[0]!.value)} to ${fmt(points.at(-1)!.value)}`, body);
}

function legend(names: readonly string[]): Html {
  return html`<ul class="legend">${names.map((n, k) => html`<li>${raw(`<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${PALETTE[k % PALETTE.length]}"/></svg>`)} ${n}</li>`)}</ul>`;
}
