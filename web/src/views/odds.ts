// The Odds view: `dgn stats` over every layout, conditioned on what the
// player has seen (a `dgn find` query, or a pasted #overview).
import { api, type Answer, type Games } from '../api';
import { depthChart, methodLine, type Method } from '../chart';
import {
  bars,
  checkbox,
  el,
  errorBox,
  field,
  input,
  onSubmit,
  pageWords,
  pct,
  table,
} from '../dom';
import { flagOf, query, setQuery } from '../url';
import { gameSelect, roleSelect } from './common';

/**
 * The command-line flags and API parameters the Odds view's messages may
 * name, as the view's controls are named.
 */
const WORDS: Record<string, string> = {
  '--sample': 'the “sampled” Method',
  '`sample`': 'the “sampled” Method',
  '--exact': 'the “exact only” Method',
  '`exact`': 'the “exact only” Method',
  '--samples': '“Samples”',
  '`samples`': '“Samples”',
  '--first-seed': '“First seed”',
  '`first_seed`': '“First seed”',
  '--given': '“What I have seen”',
  '`given`': '“What I have seen”',
  '--given-overview': 'the pasted overview',
  '`given_overview`': 'the pasted overview',
  '--wizard': '“Wizard mode”',
  '`wizard`': '“Wizard mode”',
  '--role': '“Role”',
  '`role`': '“Role”',
  '--target': '“Game”',
  '`target`': '“Game”',
};

interface Bones {
  can_load: number;
  can_leave: number;
  leave_chance: number;
}

interface Stats {
  method: Method;
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
  sample: boolean;
  exact: boolean;
  samples: string;
  first_seed: string;
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
      sample: p.sample,
      exact: p.exact,
      samples: p.samples,
      first_seed: p.first_seed,
    });
    out.replaceChildren(el('p', { class: 'busy', text: 'Computing…' }));
    // Once: the chart is drawn from the same JSON as the tables.
    const json = await api('stats', { ...p, format: 'json' });
    out.replaceChildren(...results(json, p));
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
  // How the statistics are computed: exact by enumeration when it fits
  // (else sampled), sampled, or exact only.
  const method = el('select', { name: 'method' });
  for (const [value, text] of [
    ['', 'exact, or sampled when too large'],
    ['sample', 'sampled'],
    ['exact', 'exact only'],
  ])
    method.append(el('option', { value, text }));
  method.value = flagOf('sample') ? 'sample' : flagOf('exact') ? 'exact' : '';
  const samples = input('samples', query.get('samples') ?? '', {
    type: 'number',
    min: '1',
    max: '200000',
    placeholder: '20000',
    title: 'Seeds resolved when sampling (at most 200,000 here)',
  });
  const firstSeed = input('first_seed', query.get('first_seed') ?? '', {
    type: 'number',
    min: '0',
    placeholder: '0',
    title: 'The first seed sampled',
  });
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('Role', role),
    field('Wizard mode', wizard),
    field('Method', method),
    field('Samples', samples),
    field('First seed', firstSeed),
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
    sample: method.value === 'sample',
    exact: method.value === 'exact',
    samples: samples.value.trim(),
    first_seed: firstSeed.value.trim(),
  });
  return { form, params };
}

/** The statistics (their tables and their depth chart), or why there are none. */
function results(json: Answer, p: Asked): HTMLElement[] {
  if (!json.ok) return [errorBox(json, WORDS)];
  const s = JSON.parse(json.text) as Stats;
  const shown: HTMLElement[] = [
    el('p', {
      class: 'method',
      id: 'odds-method',
      text: `${methodLine(s.method).replace(/^./, (c) => c.toUpperCase())}; ${
        s.failure > 0
          ? `the loader fails in ${pct(s.failure)} of games.`
          : 'the loader never fails.'
      }`,
    }),
  ];
  if (json.notes)
    shown.push(el('p', { class: 'note', id: 'odds-notes', text: pageWords(json.notes, WORDS) }));
  if (s.given) shown.push(givenLine(s.given));
  const title = `${p.target} loader${p.wizard ? ', wizard mode' : ''}`;
  const chart = depthChart(s.levels, s.method, title);
  chart.addEventListener('click', () => chart.classList.toggle('full'));
  shown.push(
    el('h2', { text: 'Depths of the special levels' }),
    el('div', { class: 'chart-frame', id: 'odds-chart' }, chart),
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
