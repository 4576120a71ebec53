// The Odds view: `dgn stats` over every layout, conditioned on what the
// player has seen (a `dgn find` query, or a pasted #overview).
import { api, type Answer, type Games } from '../api';
import { bars, checkbox, el, errorBox, field, input, onSubmit, pct, svgImage, table } from '../dom';
import { flagOf, query, setQuery } from '../url';
import { gameSelect, roleSelect } from './common';

interface Bones {
  can_load: number;
  can_leave: number;
  leave_chance: number;
}

interface Stats {
  method: { kind: string };
  failure: number;
  dungeons: {
    name: string;
    exists: number;
    num_levels: Record<string, number>;
    depth_start: Record<string, number>;
  }[];
  levels: {
    name: string;
    dungeon: string;
    exists: number;
    level: Record<string, number>;
    depth: Record<string, number>;
    bones: Bones | null;
  }[];
  branches: { from: string; to: string; exists: number; depth: Record<string, number> }[];
  /** What the statistics were conditioned on, as dgnkit read it. */
  given?: { describe: string; p_evidence: number };
}

/** What the form asks `dgn stats` for. */
interface Asked {
  target: string;
  role: string;
  wizard: boolean;
  given: string;
  given_overview: string | undefined;
}

export function oddsView(root: HTMLElement, games: Games): void {
  const f = oddsForm(games);
  const out = el('div', { class: 'results', id: 'odds-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: "Exact odds over every layout (dgn stats): where each special level lands, each dungeon's size, which levels can hold bones; conditioned on what you have seen.",
    }),
    f.form,
    out,
  );
  const go = async () => {
    const p = f.params();
    // The pasted overview too: a shared link keeps the condition.
    setQuery({
      game: p.target,
      role: p.role,
      wizard: p.wizard,
      given: p.given,
      given_overview: p.given_overview ?? '',
    });
    out.replaceChildren(el('p', { class: 'busy', text: 'Computing…' }));
    const [json, chart] = await Promise.all([
      api('stats', { ...p, format: 'json' }),
      api('stats', { ...p, format: 'svg' }),
    ]);
    out.replaceChildren(...results(json, chart));
  };
  onSubmit(f.form, () => void go());
  void go();
}

/** The form: the game, role and wizard mode, and what the player has seen. */
function oddsForm(games: Games): { form: HTMLFormElement; params: () => Asked } {
  const target = gameSelect(games);
  const role = roleSelect();
  const wizard = checkbox('wizard', flagOf('wizard'));
  const given = input('given', query.get('given') ?? '', {
    size: '50',
    placeholder: 'oracle.depth == 7 and bigrm',
  });
  const overview = el('textarea', {
    name: 'given_overview',
    rows: '4',
    cols: '60',
    placeholder: "Paste NetHack's #overview (Ctrl-O) or a dumplog's overview",
  });
  overview.value = query.get('given_overview') ?? '';
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('Role', role),
    field('Wizard mode', wizard),
    field('What I have seen (a dgn find query)', given),
    el('button', { type: 'submit', text: 'Compute' }),
    el(
      'details',
      overview.value ? { open: '' } : {},
      el('summary', { text: 'or paste an overview' }),
      overview,
    ),
  );
  const params = () => ({
    target: target.value,
    role: role.value,
    wizard: wizard.checked,
    given: given.value.trim(),
    given_overview: overview.value.trim() || undefined,
  });
  return { form, params };
}

/** The statistics (their JSON and their depth chart), or why there are none. */
function results(json: Answer, chart: Answer): HTMLElement[] {
  if (!json.ok) return [errorBox(json)];
  const s = JSON.parse(json.text) as Stats;
  const shown: HTMLElement[] = [
    el('p', {
      class: 'method',
      text: `${s.method.kind === 'exact' ? 'Exact' : 'Sampled'}; ${
        s.failure > 0
          ? `the loader fails in ${pct(s.failure)} of games.`
          : 'the loader never fails.'
      }`,
    }),
  ];
  if (s.given) shown.push(givenLine(s.given));
  if (chart.ok)
    shown.push(
      el('h2', { text: 'Depths of the special levels' }),
      svgImage(chart.text, 'the depth chart'),
    );
  return shown.concat(tables(s));
}

/** What the odds are conditioned on, as read, and how often it happens. */
function givenLine(g: { describe: string; p_evidence: number }): HTMLElement {
  return el(
    'div',
    { class: 'given', id: 'odds-given' },
    el('p', {
      text:
        g.p_evidence > 0
          ? `Given what you have seen (${pct(g.p_evidence)} of games look like this):`
          : 'No game looks like what you have seen:',
    }),
    el('pre', { text: g.describe }),
  );
}

/** The statistics' three tables, each under its heading. */
function tables(s: Stats): HTMLElement[] {
  return [
    el('h2', { text: 'Special levels' }),
    table(
      ['level', 'dungeon', 'exists', 'depth', 'can leave bones', 'leaves bones'],
      s.levels.map((l) => [
        l.name,
        l.dungeon,
        pct(l.exists),
        bars(l.depth),
        l.bones ? pct(l.bones.can_leave) : '',
        l.bones ? pct(l.bones.leave_chance) : '',
      ]),
      'odds',
    ),
    el('h2', { text: 'Dungeons' }),
    table(
      ['dungeon', 'exists', 'levels', 'first depth'],
      s.dungeons.map((d) => [d.name, pct(d.exists), bars(d.num_levels), bars(d.depth_start)]),
      'odds',
    ),
    el('h2', { text: 'Branches' }),
    table(
      ['from', 'to', 'exists', 'depth'],
      s.branches.map((b) => [b.from, b.to, pct(b.exists), bars(b.depth)]),
      'odds',
    ),
  ];
}
