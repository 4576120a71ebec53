// The Dungeon view: a seed's dungeon as NetHack's loader lays it out (the
// map, the overview, which levels can hold bones, and the draw log).
import { api, type Answer, type Games } from '../api';
import { el, errorBox, onSubmit, pct, svgImage, table } from '../dom';
import { setQuery } from '../url';
import { gameForm, gameParams } from './common';
import { drawLog, replayLink } from './drawlog';

type Game = ReturnType<typeof gameParams>;

interface BonesLevel {
  dungeon: string;
  level: number;
  depth: number;
  special: string | null;
  can_load: boolean;
  leave_chance: number;
  rule: string;
  file: string;
}

export function dungeonView(root: HTMLElement, games: Games): void {
  const f = gameForm(games);
  f.form.append(el('button', { type: 'submit', text: 'Show' }));
  const out = el('div', { class: 'results', id: 'dungeon-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: "A seed's dungeon as NetHack's loader lays it out: the map, #wizwhere's overview, and which levels can hold bones.",
    }),
    f.form,
    out,
  );
  const go = async () => {
    const p = gameParams(f);
    setQuery({
      game: p.target,
      seed: p.seed,
      role: p.role,
      race: p.race,
      gender: p.gender,
      align: p.align,
      game_start: p.game_start,
      lgen: p.option.replace(/^lgen=/, ''),
      wizard: p.wizard,
    });
    out.replaceChildren(el('p', { class: 'busy', text: 'Laying out…' }));
    const [svg, overview, bones, json] = await Promise.all([
      api('layout', { ...p, format: 'svg' }),
      api('layout', { ...p, format: 'overview' }),
      api('bones', { ...p, format: 'json' }),
      api('layout', { ...p, format: 'json' }),
    ]);
    out.replaceChildren();
    if (!svg.ok) {
      out.append(errorBox(svg));
      return;
    }
    const img = svgImage(svg.text, `the dungeon of seed ${p.seed}`);
    const map = el(
      'section',
      { class: 'map-box', id: 'dungeon-map' },
      el('h2', { text: 'Map' }),
      mapTools(img, svg.text, `dungeon-${p.target}-${p.seed}`),
      el('div', { class: 'map-frame' }, img),
    );
    // The hero a game start made (NetHack 3.6's, NLE's), as the game's
    // welcome says it.
    const hero = json.ok
      ? (JSON.parse(json.text).character?.text as string | undefined)
      : undefined;
    if (hero)
      out.append(el('p', { class: 'hero', id: 'dungeon-hero', text: `You are a ${hero}.` }));
    out.append(el('div', { class: 'split' }, map, side(p, overview, bones)));
  };
  onSubmit(f.form, () => void go());
  void go();
}

/**
 * A big variant's map is unreadable shrunk to the column: full size (to
 * scroll), a tab of its own, and the SVG or a PNG to keep.
 */
function mapTools(img: HTMLImageElement, svg: string, name: string): HTMLElement {
  if (mapUrl) URL.revokeObjectURL(mapUrl);
  mapUrl = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const full = el('button', { type: 'button', id: 'map-full', text: 'Full size' });
  full.addEventListener('click', () => {
    const on = img.classList.toggle('full');
    full.textContent = on ? 'Fit to the column' : 'Full size';
  });
  const png = el('button', { type: 'button', id: 'map-png', text: 'Download PNG' });
  png.addEventListener('click', () => void downloadPng(img, `${name}.png`));
  return el(
    'p',
    { class: 'map-tools' },
    full,
    ' ',
    el('a', {
      href: mapUrl,
      target: '_blank',
      rel: 'noopener',
      id: 'map-open',
      text: 'Open in a tab',
    }),
    ' · ',
    el('a', { href: mapUrl, download: `${name}.svg`, id: 'map-svg', text: 'Download SVG' }),
    ' ',
    png,
  );
}

/** The Blob URL of the map shown (one at a time). */
let mapUrl: string | undefined;

/** The map drawn at twice its size into a PNG, downloaded. */
async function downloadPng(img: HTMLImageElement, name: string): Promise<void> {
  const scale = 2;
  const canvas = el('canvas', {
    width: String(img.naturalWidth * scale),
    height: String(img.naturalHeight * scale),
  });
  const g = canvas.getContext('2d');
  if (!g) return;
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(img, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
  if (!blob) return;
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** Beside the map: the overview, the bones table and the draw log. */
function side(p: Game, overview: Answer, bones: Answer): HTMLElement {
  const box = el(
    'section',
    { class: 'side' },
    replayLink(p),
    el('h2', { text: 'Overview' }),
    overview.ok ? el('pre', { class: 'overview', text: overview.text }) : errorBox(overview),
  );
  box.append(el('h2', { text: 'Bones' }));
  box.append(bones.ok ? bonesTable(JSON.parse(bones.text).levels) : errorBox(bones));
  box.append(el('h2', { text: 'Draw log' }), ...drawLog(p));
  return box;
}

/**
 * The bones table; each level's chance opens, on a click or a tap, the
 * rule that decides it, in a row under it (a touch screen has no hover).
 */
function bonesTable(levels: BonesLevel[]): HTMLTableElement {
  const t = table(
    ['dungeon', 'level', 'depth', 'special', 'leaves bones', 'file'],
    levels.map((l) => [
      l.dungeon,
      l.level,
      l.depth,
      l.special ?? '',
      el('button', {
        type: 'button',
        class: 'reason-toggle',
        title: l.rule,
        'aria-expanded': 'false',
        text: pct(l.leave_chance),
      }),
      l.file ?? '',
    ]),
    'bones',
  );
  t.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest('button.reason-toggle');
    const row = b?.closest('tr');
    if (!b || !row) return;
    const open = b.getAttribute('aria-expanded') === 'true';
    b.setAttribute('aria-expanded', String(!open));
    if (open) row.nextElementSibling?.remove();
    else
      row.after(
        el(
          'tr',
          { class: 'reason' },
          el('td', { colspan: '6' }, el('span', { text: `Rule ${b.getAttribute('title')}` })),
        ),
      );
  });
  return t;
}
