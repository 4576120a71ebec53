// The Replay view's map: a gamelog's state drawn as the Dungeon view's map
// draws a layout (`dgn layout --format svg`, crates/views/src/svg.rs): each
// dungeon a column of levels by depth, special levels named, branches as
// arrows (solid for stairs, dashed for portals, a bar at an end without
// stairs). The columns are planned once, from every state of the log, so
// that nothing moves but what the loader moves; a step redraws only the
// game objects it touched, and a level that leaves its place is drawn where
// it was, struck out, with an arrow to where it goes.
import { isObj, type GameObject, type Ghost, type Json, type Replay, type Step } from '../gamelog';

const NS = 'http://www.w3.org/2000/svg';
/** The height of a row (one depth), and of a level's box in it. */
const ROW = 20;
const BOX = 16;
/** The gap between columns, where arrows bend. */
const GAP = 72;
/** The x of the first column (the depth axis is left of it). */
const LEFT = 44;
/** The y of the first row, under the title. */
const TOP = 52;
/** A dungeon's heading takes two rows above its first level. */
const HEAD = 2;
const FONT = 'DejaVu Sans, Verdana, sans-serif';

/** A column's fill and stroke by its dungeon's flags (the server's colours). */
function palette(hellish: boolean, mazelike: boolean): [string, string] {
  if (hellish) return ['#fbe3df', '#b5473a'];
  if (mazelike) return ['#e6eef7', '#4a6d96'];
  return ['#eef4e6', '#5b7f3a'];
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function idOf(ref: Json | undefined): string | undefined {
  return isObj(ref) && typeof ref.id === 'string' ? ref.id : undefined;
}

/** The map's scrolling frame, as measured before a step. */
export interface Viewport {
  frame: HTMLElement;
  top: number;
  height: number;
  /** Pixels shown per unit of the map. */
  scale: number;
}

interface Column {
  x: number;
  w: number;
}

/** What the map is planned from: each dungeon's rows over every state it is drawn in. */
interface Plan {
  columns: Map<string, Column>;
  /** The first row of each dungeon's heading, where it is drawn before its depth is known. */
  top: Map<string, number>;
  /** Dungeons no branch leads to (NetHack 3.7's tutorial), drawn where they are. */
  standalone: Set<string>;
  minDepth: number;
  maxDepth: number;
  width: number;
  height: number;
}

/** The text widths the columns need, measured in the map's font. */
function measure(): (text: string, px: number, bold: boolean) => number {
  const g = document.createElement('canvas').getContext('2d');
  return (text, px, bold) => {
    if (!g) return text.length * px * 0.68;
    g.font = `${bold ? 'bold ' : ''}${px}px ${FONT}`;
    return g.measureText(text).width * 1.08;
  };
}

/** Whether dungeon `d` has its depth in the state: the first, entered by a branch, or standalone. */
function positioned(r: Replay, d: GameObject, standalone: Set<string>): boolean {
  if (d.index === 0 || standalone.has(d.id)) return true;
  for (const o of Object.values(r.objects))
    if (o.gameObjectName === 'Branch' && idOf(o.to) === d.id) return true;
  return false;
}

function sized(d: GameObject | undefined): d is GameObject & { num_levels: number } {
  return !!d && typeof d.num_levels === 'number' && d.dropped !== true;
}

/**
 * Plans the map of `r`'s log: steps through it once (the Replay is left at
 * step 0) and packs each dungeon into the first column its rows fit.
 */
export function plan(r: Replay): Plan {
  // Each dungeon's (depth_start, num_levels, entered) over the log.
  const seen = new Map<string, { start: number; n: number; entered: boolean }[]>();
  const dungeons: string[] = [];
  for (let k = 0; k <= r.draws; k++) {
    r.go(k);
    for (const d of Object.values(r.objects)) {
      if (d.gameObjectName !== 'Dungeon') continue;
      if (!seen.has(d.id)) {
        seen.set(d.id, []);
        dungeons.push(d.id);
      }
      if (!sized(d) || typeof d.depth_start !== 'number') continue;
      const entered = positioned(r, d, new Set());
      seen.get(d.id)!.push({ start: d.depth_start, n: d.num_levels, entered });
    }
  }
  const standalone = new Set<string>();
  for (const d of Object.values(r.objects))
    if (d.gameObjectName === 'Dungeon' && sized(d) && !positioned(r, d, new Set()))
      standalone.add(d.id);
  r.go(0);
  const ranges = new Map<string, [number, number]>();
  for (const [id, states] of seen) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of states) {
      if (!s.entered && !standalone.has(id)) continue;
      lo = Math.min(lo, s.start - HEAD);
      hi = Math.max(hi, s.start + s.n - 1);
    }
    // Sized but never placed (a description the loader failed on): its heading.
    if (lo === Infinity && states.length) [lo, hi] = [1 - HEAD, 0];
    if (lo !== Infinity) ranges.set(id, [lo, hi]);
  }
  const width = measure();
  const names = new Map<string, string[]>();
  for (const o of Object.values(r.objects))
    if (o.gameObjectName === 'Level') {
      const d = idOf(o.dungeon);
      if (d) names.set(d, [...(names.get(d) ?? []), String(o.name)]);
    }
  const byRecord = dungeons
    .filter((id) => ranges.has(id))
    .sort((a, b) => Number(r.objects[a]?.record) - Number(r.objects[b]?.record));
  const packed: { members: string[]; w: number }[] = [];
  const where = new Map<string, number>();
  for (const id of byRecord) {
    const [lo, hi] = ranges.get(id)!;
    let c = packed.findIndex((col) =>
      col.members.every((m) => {
        const [a, b] = ranges.get(m)!;
        return hi < a || lo > b;
      }),
    );
    if (c < 0) {
      packed.push({ members: [], w: 120 });
      c = packed.length - 1;
    }
    const d = r.objects[id];
    const need = Math.max(
      width(String(d?.name ?? id), 12, true) + 8,
      width('99 levels, depth to come', 10, false) + 8,
      ...(names.get(id) ?? []).map((n) => width(n, 11, true) + 50),
    );
    packed[c].members.push(id);
    packed[c].w = Math.max(packed[c].w, Math.ceil(need));
    where.set(id, c);
  }
  const columns = new Map<string, Column>();
  let x = LEFT;
  const xs = packed.map((col) => {
    const at = x;
    x += col.w + GAP;
    return at;
  });
  for (const [id, c] of where) columns.set(id, { x: xs[c], w: packed[c].w });
  let minDepth = Infinity;
  let maxDepth = -Infinity;
  for (const [lo, hi] of ranges.values()) {
    minDepth = Math.min(minDepth, lo);
    maxDepth = Math.max(maxDepth, hi);
  }
  if (minDepth === Infinity) [minDepth, maxDepth] = [1 - HEAD, 1];
  const top = new Map([...ranges].map(([id, [lo]]) => [id, lo]));
  return {
    columns,
    top,
    standalone,
    minDepth,
    maxDepth,
    width: Math.max(x - GAP + 24, 360),
    height: TOP + (maxDepth - minDepth + 1) * ROW + 12,
  };
}

/** The map of a Replay's state, redrawn a step at a time. */
export class ReplayMap {
  readonly svg: SVGSVGElement;
  private readonly r: Replay;
  private readonly p: Plan;
  private readonly layer: Record<'rows' | 'branches' | 'levels' | 'marks' | 'ghosts', SVGGElement>;
  private readonly dungeons = new Map<string, SVGGElement>();
  private readonly entries = new Map<string, SVGTextElement>();
  private readonly levels = new Map<string, SVGGElement>();
  private readonly branches = new Map<string, SVGGElement>();
  /** Each dungeon's levels (a level never changes dungeon). */
  private readonly levelsOf = new Map<string, string[]>();
  private readonly subtitle: SVGTextElement;
  private marked: Element[] = [];

  constructor(r: Replay, p: Plan, title: string) {
    this.r = r;
    this.p = p;
    this.svg = svg('svg', {
      class: 'map replay-map',
      id: 'replay-map',
      width: p.width,
      height: p.height,
      viewBox: `0 0 ${p.width} ${p.height}`,
      'font-family': FONT,
      'font-size': 11,
      role: 'img',
    });
    const defs = svg('defs');
    // A marker per colour: chromium draws no `context-stroke`.
    const marker = (id: string, colour: string) =>
      `<marker id="rp-arrow-${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>` +
      `<marker id="rp-dot-${id}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5"><circle cx="5" cy="5" r="4" fill="${colour}"/></marker>`;
    defs.innerHTML =
      marker('stair', '#333') +
      marker('portal', '#a3369d') +
      marker('ghost', '#d0312d') +
      '<marker id="rp-bar" viewBox="0 0 4 10" refX="2" refY="5" markerWidth="4" markerHeight="10" orient="auto"><rect width="3" height="10" fill="#333"/></marker>';
    this.svg.append(
      defs,
      svg('rect', { width: p.width, height: p.height, fill: '#fcfcfa' }),
      svg('text', { x: LEFT, y: 22, 'font-size': 16, 'font-weight': 'bold', fill: '#222' }, title),
    );
    this.subtitle = svg('text', { x: LEFT, y: 40, 'font-size': 12, fill: '#555' });
    this.svg.append(this.subtitle, this.axis());
    this.layer = {
      rows: svg('g', { class: 'rows' }),
      // Under the levels: a level placed where another was hides its ghost,
      // whose words stay beside the column.
      ghosts: svg('g', { class: 'ghosts' }),
      branches: svg('g', { class: 'branches' }),
      levels: svg('g', { class: 'levels' }),
      marks: svg('g', { class: 'marks' }),
    };
    this.svg.append(...Object.values(this.layer));
    for (const o of Object.values(r.objects))
      if (o.gameObjectName === 'Level') {
        const d = idOf(o.dungeon) ?? '';
        this.levelsOf.set(d, [...(this.levelsOf.get(d) ?? []), o.id]);
      }
    this.all();
  }

  private y(depth: number): number {
    return TOP + (depth - this.p.minDepth) * ROW;
  }

  private axis(): SVGGElement {
    const g = svg('g', { class: 'axis', 'font-size': 10, fill: '#888' });
    g.append(svg('text', { x: 6, y: TOP - 4 }, 'depth'));
    for (let d = this.p.minDepth + HEAD; d <= this.p.maxDepth; d++)
      g.append(svg('text', { x: LEFT - 8, y: this.y(d) + 14, 'text-anchor': 'end' }, String(d)));
    return g;
  }

  /** Draws the whole state (after a jump). */
  all(): void {
    for (const o of Object.values(this.r.objects))
      if (o.gameObjectName === 'Dungeon') this.dungeon(o.id);
    for (const id of this.branches.keys()) if (!this.r.objects[id]) this.branch(id);
    for (const o of Object.values(this.r.objects))
      if (o.gameObjectName === 'Branch') this.branch(o.id);
    for (const id of this.levels.keys()) this.level(id);
    for (const o of Object.values(this.r.objects))
      if (o.gameObjectName === 'Level') this.level(o.id);
    this.title();
  }

  /** Redraws the game objects `touched` (a step's, either way) and what depends on them. */
  redraw(touched: string[]): void {
    const dungeons = new Set<string>();
    const levels = new Set<string>();
    const branches = new Set<string>();
    for (const id of touched) {
      if (id[0] === 'd') dungeons.add(id);
      else if (id[0] === 'l') levels.add(id);
      else if (id[0] === 'b') branches.add(id);
    }
    for (const d of dungeons) {
      this.dungeon(d);
      for (const l of this.levelsOf.get(d) ?? []) levels.add(l);
      for (const o of Object.values(this.r.objects))
        if (o.gameObjectName === 'Branch' && (idOf(o.from) === d || idOf(o.to) === d))
          branches.add(o.id);
    }
    for (const b of branches) this.branch(b);
    for (const l of levels) this.level(l);
    this.title();
  }

  private title(): void {
    const tune = this.r.state.tune;
    const draws = this.r.step;
    this.subtitle.textContent = `after ${draws} of ${this.r.draws} draws${
      typeof tune === 'string' ? ` — castle tune ${tune}` : ''
    }`;
  }

  /** Whether dungeon `d` is drawn, and at which depth its first level is. */
  private placeOf(d: GameObject | undefined): { start: number; at: boolean } | null {
    if (!sized(d) || !this.p.columns.has(d.id)) return null;
    if (typeof d.depth_start === 'number' && positioned(this.r, d, this.p.standalone))
      return { start: d.depth_start, at: true };
    return { start: (this.p.top.get(d.id) ?? 0) + HEAD, at: false };
  }

  private dungeon(id: string): void {
    let g = this.dungeons.get(id);
    if (!g) {
      g = svg('g', { class: 'dungeon', 'data-id': id });
      this.dungeons.set(id, g);
      this.layer.rows.append(g);
    }
    g.replaceChildren();
    const d = this.r.objects[id];
    const at = this.placeOf(d);
    const entry = this.entries.get(id);
    if (!d || !at) {
      g.setAttribute('display', 'none');
      entry?.setAttribute('display', 'none');
      return;
    }
    g.removeAttribute('display');
    const col = this.p.columns.get(id)!;
    const flags = this.r.state.dungeons;
    const row = Array.isArray(flags) && isObj(flags[Number(d.index)]) ? flags[Number(d.index)] : {};
    const [fill, stroke] = palette(
      (row as GameObject).hellish === true,
      (row as GameObject).mazelike === true,
    );
    const n = d.num_levels as number;
    const name = String(d.name);
    g.dataset.name = name;
    g.dataset.levels = String(n);
    const cx = col.x + col.w / 2;
    const head = this.y(at.start - HEAD);
    g.append(
      svg(
        'text',
        {
          x: cx,
          y: head + 16,
          'text-anchor': 'middle',
          'font-size': 12,
          'font-weight': 'bold',
          fill: stroke,
        },
        name,
      ),
    );
    const end = at.start + n - 1;
    const sub = !at.at
      ? `${n} level${n === 1 ? '' : 's'}, depth to come`
      : n === 1
        ? `depth ${at.start}`
        : `depths ${at.start} to ${end}`;
    g.append(
      svg(
        'text',
        { x: cx, y: head + 32, 'text-anchor': 'middle', 'font-size': 10, fill: '#666' },
        sub,
      ),
    );
    if (!at.at) {
      g.dataset.depth = '';
      return;
    }
    g.dataset.depth = String(at.start);
    for (let l = 0; l < n; l++)
      g.append(
        svg('rect', {
          x: col.x,
          y: this.y(at.start + l) + 2,
          width: col.w,
          height: BOX,
          rx: 3,
          fill,
          stroke,
        }),
      );
    const el = typeof d.entry_level === 'number' ? d.entry_level : 0;
    if (el >= 1) {
      let t = entry;
      if (!t) {
        t = svg('text', { 'text-anchor': 'end', 'font-size': 9 }, 'entry');
        this.entries.set(id, t);
        this.layer.marks.append(t);
      }
      t.removeAttribute('display');
      t.setAttribute('x', String(col.x + col.w - 5));
      t.setAttribute('y', String(this.y(at.start + el - 1) + 14));
      t.setAttribute('fill', stroke);
      t.dataset.stroke = stroke;
    } else entry?.setAttribute('display', 'none');
  }

  private level(id: string): void {
    let g = this.levels.get(id);
    const l = this.r.objects[id];
    const d = l && this.r.obj(l.dungeon);
    const at = this.placeOf(d);
    if (!l || !d || !at || !at.at || typeof l.dlevel !== 'number') {
      if (g) g.setAttribute('display', 'none');
      if (g) delete g.dataset.depth;
      this.entryOver(d?.id);
      return;
    }
    if (!g) {
      g = svg('g', { class: 'level', 'data-id': id });
      this.levels.set(id, g);
      this.layer.levels.append(g);
    }
    g.removeAttribute('display');
    const col = this.p.columns.get(d.id)!;
    const depth = at.start + l.dlevel - 1;
    const flags = this.r.state.dungeons;
    const row = Array.isArray(flags) && isObj(flags[Number(d.index)]) ? flags[Number(d.index)] : {};
    const [, stroke] = palette(
      (row as GameObject).hellish === true,
      (row as GameObject).mazelike === true,
    );
    g.dataset.name = String(l.name);
    g.dataset.dungeon = String(d.name);
    g.dataset.level = String(l.dlevel);
    g.dataset.depth = String(depth);
    const y = this.y(depth) + 2;
    g.replaceChildren(
      svg('rect', { x: col.x, y, width: col.w, height: BOX, rx: 3, fill: stroke, stroke }),
      svg('text', { x: col.x + 7, y: y + 12, 'font-weight': 'bold', fill: '#fff' }, String(l.name)),
    );
    this.entryOver(d.id);
  }

  /** The `entry` mark in white over a named level, in the column's colour otherwise. */
  private entryOver(dungeon: string | undefined): void {
    const t = dungeon && this.entries.get(dungeon);
    const d = dungeon ? this.r.objects[dungeon] : undefined;
    if (!t || !d) return;
    const entry = Number(d.entry_level);
    const named = (this.levelsOf.get(d.id) ?? []).some((l) => this.r.objects[l]?.dlevel === entry);
    t.setAttribute('fill', named ? '#fff' : (t.dataset.stroke ?? '#333'));
  }

  private branch(id: string): void {
    let g = this.branches.get(id);
    const b = this.r.objects[id];
    const to = b && this.r.obj(b.to);
    const from = b && this.r.obj(b.from);
    const toAt = this.placeOf(to);
    const fromAt = from ? this.placeOf(from) : null;
    const e1 = b && isObj(b.end1) ? b.end1 : {};
    const e2 = b && isObj(b.end2) ? b.end2 : {};
    if (!b || !to || !toAt?.at || (from && !fromAt?.at) || typeof e2.level !== 'number') {
      g?.setAttribute('display', 'none');
      return;
    }
    if (!g) {
      g = svg('g', { class: 'branch', 'data-id': id });
      this.branches.set(id, g);
      this.layer.branches.append(g);
    }
    g.removeAttribute('display');
    const kind = String(b.type);
    const portal = kind === 'portal';
    const colour = portal ? '#a3369d' : '#333';
    const tc = this.p.columns.get(to.id)!;
    const y2 = this.y(toAt.start + e2.level - 1) + ROW / 2;
    g.dataset.type = kind;
    g.dataset.to = String(to.name);
    if (!from || !fromAt) {
      // Fort Ludios's portal floats: in a vault of the main dungeon.
      g.dataset.from = '';
      g.replaceChildren(
        svg('path', {
          d: `M${tc.x - GAP + 10},${y2} L${tc.x},${y2}`,
          stroke: colour,
          fill: 'none',
          'stroke-width': 1.5,
          'stroke-dasharray': '5 3',
          'marker-end': 'url(#rp-arrow-portal)',
        }),
        svg('text', { x: tc.x - GAP + 10, y: y2 - 5, 'font-size': 9, fill: colour }, 'floats'),
      );
      return;
    }
    const fc = this.p.columns.get(from.id)!;
    const y1 = this.y(fromAt.start + Number(e1.level) - 1) + ROW / 2;
    g.dataset.from = String(from.name);
    let x1: number;
    let x2: number;
    let c1: number;
    let c2: number;
    if (tc.x > fc.x) {
      [x1, x2] = [fc.x + fc.w, tc.x];
      c1 = x1 + Math.min(GAP, (x2 - x1) / 2);
      c2 = x2 - Math.min(GAP, (x2 - x1) / 2);
    } else if (tc.x < fc.x) {
      [x1, x2] = [fc.x, tc.x + tc.w];
      c1 = x1 - Math.min(GAP, (x1 - x2) / 2);
      c2 = x2 + Math.min(GAP, (x1 - x2) / 2);
    } else {
      [x1, x2] = [fc.x + fc.w, tc.x + tc.w];
      c1 = x1 + GAP * 0.6;
      c2 = x2 + GAP * 0.6;
    }
    g.replaceChildren(
      svg('path', {
        d: `M${x1},${y1} C${c1},${y1} ${c2},${y2} ${x2},${y2}`,
        stroke: colour,
        fill: 'none',
        'stroke-width': 1.5,
        ...(portal ? { 'stroke-dasharray': '5 3' } : {}),
        'marker-start':
          kind === 'no_end1' ? 'url(#rp-bar)' : `url(#rp-dot-${portal ? 'portal' : 'stair'})`,
        'marker-end':
          kind === 'no_end2' ? 'url(#rp-bar)' : `url(#rp-arrow-${portal ? 'portal' : 'stair'})`,
      }),
    );
  }

  /** The map's frame as it is shown (read before a step changes anything). */
  viewport(): Viewport | null {
    const frame = this.svg.parentElement;
    if (!frame || frame.scrollHeight <= frame.clientHeight + 1) return null;
    return {
      frame,
      top: frame.scrollTop,
      height: frame.clientHeight,
      scale: this.svg.clientHeight / this.p.height,
    };
  }

  /**
   * Marks what step `s` changed, draws the levels that left their place, and
   * scrolls the frame (`view`, when it scrolls) to what changed.
   */
  mark(s: Step, view: Viewport | null): void {
    for (const e of this.marked) e.classList.remove('changed');
    this.marked = [];
    for (const id of s.touched) {
      const e = this.levels.get(id) ?? this.dungeons.get(id) ?? this.branches.get(id);
      if (e && !e.hasAttribute('display')) {
        e.classList.add('changed');
        this.marked.push(e);
      }
    }
    this.layer.ghosts.replaceChildren(...s.ghosts.flatMap((g) => this.ghost(g)));
    // Where the change is, from the map's own numbers: no layout is read.
    const first =
      this.marked.find((e) => e.classList.contains('level')) ??
      this.marked.find((e) => e.classList.contains('dungeon'));
    const rect = first?.querySelector('rect');
    if (!view || !rect) return;
    const y = Number(rect.getAttribute('y')) * view.scale;
    if (y < view.top || y + BOX * view.scale > view.top + view.height)
      view.frame.scrollTop = y - view.height / 2;
  }

  /** A level where it was before its placement was taken back, and an arrow to where it is now. */
  private ghost(g: Ghost): SVGElement[] {
    const d = this.r.objects[g.dungeon];
    const at = this.placeOf(d);
    if (!d || !at?.at) return [];
    const col = this.p.columns.get(d.id)!;
    const y = this.y(at.start + g.dlevel - 1) + 2;
    const box = svg('g', {
      class: 'ghost',
      'data-name': g.name,
      'data-level': g.dlevel,
      'data-depth': at.start + g.dlevel - 1,
    });
    box.append(
      svg('rect', {
        x: col.x,
        y,
        width: col.w,
        height: BOX,
        rx: 3,
        fill: 'none',
        stroke: '#d0312d',
        'stroke-width': 2,
        'stroke-dasharray': '4 2',
      }),
      svg('line', {
        x1: col.x + 4,
        y1: y + BOX / 2,
        x2: col.x + col.w - 4,
        y2: y + BOX / 2,
        stroke: '#d0312d',
        'stroke-width': 1.5,
      }),
      svg(
        'text',
        { x: col.x + col.w + 30, y: y + 12, 'font-size': 10, fill: '#d0312d' },
        `${g.name} leaves`,
      ),
    );
    const out: SVGElement[] = [box];
    const now = this.r.objects[g.level];
    if (typeof now?.dlevel === 'number' && now.dlevel !== g.dlevel) {
      const y2 = this.y(at.start + now.dlevel - 1) + 2 + BOX / 2;
      const x = col.x + col.w;
      out.push(
        svg('path', {
          class: 'ghost-move',
          d: `M${x},${y + BOX / 2} C${x + 30},${y + BOX / 2} ${x + 30},${y2} ${x + 2},${y2}`,
          fill: 'none',
          stroke: '#d0312d',
          'stroke-width': 1.5,
          'marker-end': 'url(#rp-arrow-ghost)',
        }),
      );
    }
    return out;
  }
}
