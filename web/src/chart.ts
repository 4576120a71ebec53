// The depth chart of `dgn stats --format svg`, drawn in the page from the
// statistics' JSON (as crates/views/src/chart.rs draws it), so that the
// Odds view asks for the statistics once: one row per special level that
// can exist, one bar per depth (its height relative to the row's likeliest
// depth), coloured by dungeon.

const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

export type Method =
  | { kind: 'exact'; max_error: number }
  | {
      kind: 'sampled';
      samples: number;
      first_seed: number;
      rng: string;
      ci95: number;
      reason: string;
    };

export interface ChartLevel {
  name: string;
  dungeon: string;
  exists: number;
  depth: Record<string, number>;
}

/** How the numbers were obtained, in one line (`dgn stats`'s). */
export function methodLine(m: Method): string {
  return m.kind === 'exact'
    ? `exact enumeration (every probability within ${m.max_error.toExponential(1)})`
    : `sampled: ${m.samples} seeds from ${m.first_seed} (${m.rng}), 95% confidence half-width at most ${(m.ci95 * 100).toFixed(2)} points (${m.reason})`;
}

/** A probability as the chart writes it. */
function pct(p: number): string {
  const v = p * 100;
  return v > 0 && v < 0.1 ? `${v.toFixed(3)}%` : `${v.toFixed(1)}%`;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(
  tag: string,
  attrs: Record<string, string | number>,
  ...kids: (Node | string)[]
): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const k of kids) e.append(k);
  return e;
}

const f1 = (x: number) => x.toFixed(1);

/** The chart of the levels' depths, titled `title`, its method under it. */
export function depthChart(levels: ChartLevel[], method: Method, title: string): SVGSVGElement {
  const rows = levels.filter((l) => l.exists > 0 && Object.keys(l.depth).length > 0);
  const depths = (l: ChartLevel) => Object.keys(l.depth).map(Number);
  const lo = Math.min(1, ...rows.map((l) => Math.min(...depths(l))));
  const hi = Math.max(lo + 1, ...rows.map((l) => Math.max(...depths(l))));
  const span = hi - lo + 1;
  const cell = Math.min(22, Math.max(6, 880 / span));
  const [labelW, rightW, rowH, top] = [250, 70, 22, 74];
  const width = labelW + cell * span + rightW;
  const bottom = top + rowH * rows.length;
  const dungeons: string[] = [];
  for (const l of rows) if (!dungeons.includes(l.dungeon)) dungeons.push(l.dungeon);
  // The dungeons' colours under the rows, on as many lines as they take.
  const legend: { d: string; x: number; y: number }[] = [];
  let [lx, ly] = [12, bottom + 26];
  for (const d of dungeons) {
    const w = 30 + 7 * [...d].length;
    if (lx > 12 && lx + w > width) [lx, ly] = [12, ly + 20];
    legend.push({ d, x: lx, y: ly });
    lx += w;
  }
  const height = ly + 30;
  const color = (d: string) => PALETTE[Math.max(0, dungeons.indexOf(d)) % PALETTE.length];
  const xOf = (d: number) => labelW + (d - lo) * cell;

  const s = svg('svg', {
    xmlns: SVG,
    width: width.toFixed(0),
    height: height.toFixed(0),
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`,
    'font-family': 'DejaVu Sans, Arial, sans-serif',
    'font-size': 12,
    role: 'img',
    'aria-label': 'the depth of each special level',
    class: 'chart',
  }) as SVGSVGElement;
  s.append(
    svg('rect', { width: '100%', height: '100%', fill: '#ffffff' }),
    svg('text', { x: 12, y: 22, 'font-size': 16, 'font-weight': 'bold' }, title),
    svg(
      'text',
      { x: 12, y: 40, fill: '#555' },
      `Depth of each special level, given that it exists. ${methodLine(method)}`,
    ),
  );
  // The depth axis: a line every 5 levels, labelled at the top.
  const axisY = top - 8;
  for (let d = lo; d <= hi; d++) {
    if (d % 5 !== 0 && d !== lo) continue;
    const x = xOf(d) + cell / 2;
    s.append(
      svg('line', { x1: f1(x), y1: f1(axisY), x2: f1(x), y2: f1(bottom), stroke: '#e4e4e4' }),
      svg('text', { x: f1(x), y: f1(axisY - 4), 'text-anchor': 'middle', fill: '#333' }, `${d}`),
    );
  }
  s.append(
    svg(
      'text',
      { x: f1(labelW - 8), y: f1(axisY - 4), 'text-anchor': 'end', fill: '#333' },
      'depth',
    ),
    svg('text', { x: f1(width - rightW + 8), y: f1(axisY - 4), fill: '#333' }, 'exists'),
  );
  if (lo <= 1 && 1 <= hi)
    // Depths below 1 are the endgame.
    s.append(
      svg('line', {
        x1: f1(xOf(1)),
        y1: f1(axisY),
        x2: f1(xOf(1)),
        y2: f1(bottom),
        stroke: '#999',
        'stroke-dasharray': '3,3',
      }),
    );
  rows.forEach((l, i) => {
    const y = top + rowH * i;
    if (i % 2 === 1)
      s.append(
        svg('rect', { x: 0, y: f1(y), width: width.toFixed(0), height: rowH, fill: '#f6f6f6' }),
      );
    s.append(
      svg(
        'text',
        { x: f1(labelW - 8), y: f1(y + 15), 'text-anchor': 'end' },
        svg('tspan', {}, l.name),
        svg('tspan', { fill: '#888' }, ` · ${l.dungeon}`),
      ),
    );
    const max = Math.max(0, ...Object.values(l.depth));
    for (const [k, p] of Object.entries(l.depth)) {
      const d = Number(k);
      const h = max > 0 ? (p / max) * (rowH - 4) : 0;
      s.append(
        svg(
          'rect',
          {
            x: f1(xOf(d) + 1),
            y: f1(y + rowH - 2 - h),
            width: f1(Math.max(1, cell - 2)),
            height: f1(h),
            fill: color(l.dungeon),
          },
          svg('title', {}, `${l.name}: depth ${d}, ${pct(p)}`),
        ),
      );
    }
    s.append(
      svg('text', { x: f1(width - rightW + 8), y: f1(y + 15), fill: '#333' }, pct(l.exists)),
    );
  });
  for (const { d, x, y } of legend)
    s.append(
      svg('rect', { x: f1(x), y: f1(y - 10), width: 12, height: 12, fill: color(d) }),
      svg('text', { x: f1(x + 16), y: f1(y) }, d),
    );
  return s;
}
