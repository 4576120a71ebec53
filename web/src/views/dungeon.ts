// The Dungeon view: a seed's dungeon as NetHack's loader lays it out (the
// map, the overview, which levels can hold bones, and the draw log).
import { api, type Answer, type Games } from '../api';
import { el, errorBox, onSubmit, pct, svgImage, table } from '../dom';
import { setQuery } from '../url';
import { gameForm, gameParams } from './common';

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
    const map = el(
      'section',
      { class: 'map-box' },
      el('h2', { text: 'Map' }),
      svgImage(svg.text, `the dungeon of seed ${p.seed}`),
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

/** Beside the map: the overview, the bones table and the draw log. */
function side(p: Game, overview: Answer, bones: Answer): HTMLElement {
  const box = el(
    'section',
    { class: 'side' },
    el('h2', { text: 'Overview' }),
    overview.ok ? el('pre', { class: 'overview', text: overview.text }) : errorBox(overview),
  );
  box.append(el('h2', { text: 'Bones' }));
  box.append(bones.ok ? bonesTable(JSON.parse(bones.text).levels) : errorBox(bones));
  box.append(el('h2', { text: 'Draw log' }), ...drawLog(p));
  return box;
}

function bonesTable(levels: BonesLevel[]): HTMLTableElement {
  return table(
    ['dungeon', 'level', 'depth', 'special', 'leaves bones', 'file'],
    levels.map((l) => [
      l.dungeon,
      l.level,
      l.depth,
      l.special ?? '',
      el('span', { title: l.rule, text: pct(l.leave_chance) }),
      l.file ?? '',
    ]),
    'bones',
  );
}

/** A button that fetches the seed's random number calls, and where they go. */
function drawLog(p: Game): [HTMLButtonElement, HTMLElement] {
  const traceBox = el('div');
  const traceBtn = el('button', { type: 'button', text: 'Show the draw log' });
  traceBtn.addEventListener('click', async () => {
    traceBtn.disabled = true;
    const t = await api('layout', { ...p, format: 'json', trace: true });
    if (!t.ok) {
      traceBox.replaceChildren(errorBox(t));
      return;
    }
    const calls = (JSON.parse(t.text).rng_calls ?? []) as unknown[];
    traceBox.replaceChildren(
      el('pre', {
        class: 'trace',
        text: calls.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('\n'),
      }),
    );
  });
  return [traceBtn, traceBox];
}
