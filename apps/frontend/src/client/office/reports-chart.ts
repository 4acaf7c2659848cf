/**
 * The funnel's chart: revenue by group as bars, drawn with uPlot (a kept, small canvas chart library:
 * about 50 kB in the office bundle). The table under it carries the same figures for screen readers,
 * so the chart is one image with a label; uPlot's own legend is off.
 */
import type { ReportFunnel } from '@platform/contracts/reports.js';
import uPlot from 'uplot';

import { formatMoney } from '../shared/money.js';

let chart: uPlot | undefined;
let watcher: ResizeObserver | undefined;
const widthOf = (el: HTMLElement) => Math.max(240, Math.min(el.clientWidth || 640, 960));
const short = (s: string) => (s.length > 12 ? `${s.slice(0, 11)}…` : s);

export function drawFunnelChart(el: HTMLElement, f: ReportFunnel): void {
  chart?.destroy();
  watcher?.disconnect();
  chart = undefined;
  const rows = f.rows.filter((r) => r.revenue > 0 || r.leads > 0).slice(0, 12);
  if (!rows.length) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const brand = getComputedStyle(document.documentElement).getPropertyValue('--brand').trim() || '#0b5cad';
  const labels = rows.map((r) => short(r.key ?? '(none)'));
  chart = new uPlot(
    {
      width: widthOf(el),
      height: 240,
      legend: { show: false },
      cursor: { show: false },
      // Bars start at zero, or a small bar reads as nothing.
      scales: {
        x: { time: false, range: [-0.5, rows.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { splits: () => rows.map((_, i) => i), values: () => labels, rotate: rows.length > 4 ? -30 : 0, size: 60 },
        { values: (_u, ticks) => ticks.map((t) => formatMoney(t, f.currency)), size: 80 },
      ],
      series: [
        {},
        {
          label: 'Revenue',
          stroke: brand,
          fill: brand,
          paths: uPlot.paths.bars!({ size: [0.6, 80] }),
          points: { show: false },
        },
      ],
    },
    [rows.map((_, i) => i), rows.map((r) => r.revenue)],
    el,
  );
  // A phone turned, a window resized: the chart follows its box's width.
  const drawn = chart;
  watcher = new ResizeObserver(() => {
    if (drawn.width !== widthOf(el)) drawn.setSize({ width: widthOf(el), height: 240 });
  });
  watcher.observe(el);
}
