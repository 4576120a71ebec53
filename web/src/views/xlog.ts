// The xlogfile view: where each game of an xlogfile ended and whether it
// could have left bones there (`dgn xlog`).
import { api, type Answer } from '../api';
import { el, errorBox, field, input, onSubmit, pct, table } from '../dom';
import { query, setQuery } from '../url';

interface XlogGame {
  line: number;
  error?: string;
  release?: string;
  how?: string;
  dungeon?: string;
  depth?: number;
  level?: number | { level: number; p: number }[];
  special?: { name: string; p: number }[];
  bones_p?: number;
  bones_why?: string;
  fields?: Record<string, string>;
}

interface Summary {
  games: number;
  deaths: number;
  bad_lines: number;
  filtered_out?: number;
  unknown_fields?: { field: string; did_you_mean?: string }[];
  expected_bones?: number;
  dungeons?: { name: string; deaths: number; bones: number }[];
}

export function xlogView(root: HTMLElement): void {
  const f = xlogForm();
  const out = el('div', { class: 'results', id: 'xlog-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: 'Where each game of an xlogfile ended (dungeon, level, special level) and whether it could have left bones there (dgn xlog).',
    }),
    f.form,
    out,
  );
  f.file.addEventListener('change', async () => {
    const chosen = f.file.files?.[0];
    if (chosen) {
      f.text.value = await chosen.text();
      void go();
    }
  });
  const go = async () => {
    setQuery({ where: f.where.value, game: f.game.value });
    out.replaceChildren(el('p', { class: 'busy', text: 'Reading…' }));
    const a = await api('xlog', {
      text: f.text.value,
      where: f.where.value.trim(),
      game: f.game.value.trim(),
      format: 'json',
    });
    out.replaceChildren(...results(a));
  };
  onSubmit(f.form, () => void go());
}

interface XlogForm {
  form: HTMLFormElement;
  text: HTMLTextAreaElement;
  file: HTMLInputElement;
  where: HTMLInputElement;
  game: HTMLInputElement;
}

/** The form: the xlogfile's lines (pasted, or a file), a filter, and the game. */
function xlogForm(): XlogForm {
  const text = el('textarea', {
    name: 'xlog',
    rows: '8',
    cols: '100',
    id: 'xlog-text',
    placeholder:
      'Paste xlogfile lines (version=3.6.6:points=…:deathdnum=…:deathlev=…), or choose a file',
  });
  const file = el('input', { type: 'file', name: 'file', id: 'xlog-file' });
  const where = input('where', query.get('where') ?? '', {
    size: '40',
    placeholder: 'role = Val and deathlev > 10',
  });
  const game = input('game', query.get('game') ?? '', {
    size: '14',
    placeholder: 'tnnt, evilhack…',
  });
  const form = el(
    'form',
    { class: 'controls' },
    field('xlogfile', text),
    field('or a file', file),
    field('Only games where', where),
    field('Game (if not told)', game),
    el('button', { type: 'submit', text: 'Answer' }),
  );
  return { form, text, file, where, game };
}

/** `dgn xlog`'s JSON lines as the summary and the table of games. */
function results(a: Answer): HTMLElement[] {
  if (!a.ok) return [errorBox(a)];
  const lines = a.text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const summary = lines.find((l) => l.summary)?.summary as Summary | undefined;
  const games = lines.filter((l) => !l.summary) as XlogGame[];
  return [
    ...(summary ? summaryTables(summary) : []),
    el('h2', { text: 'Games' }),
    gamesTable(games),
  ];
}

/** The summary, and the deaths by dungeon when there are some. */
function summaryTables(summary: Summary): HTMLElement[] {
  // A misspelt field in the filter leaves out every game: said first.
  const warnings = (summary.unknown_fields ?? []).map((u) =>
    el('p', {
      class: 'warning',
      role: 'alert',
      text:
        `The filter compares “${u.field}”, a field no line has, so that comparison is false on every line` +
        (u.did_you_mean ? ` (did you mean “${u.did_you_mean}”?)` : '') +
        '.',
    }),
  );
  const shown: HTMLElement[] = [
    ...warnings,
    el('h2', { text: 'Summary' }),
    table(
      ['games', 'deaths', 'bad lines', 'left out by the filter', 'expected bones files'],
      [
        [
          summary.games,
          summary.deaths,
          summary.bad_lines,
          summary.filtered_out ?? 0,
          (summary.expected_bones ?? 0).toFixed(2),
        ],
      ],
      'summary',
    ),
  ];
  const dungeons = summary.dungeons ?? [];
  if (!dungeons.length) return shown;
  const max = Math.max(...dungeons.map((d) => d.deaths), 1e-9);
  shown.push(
    el('h3', { text: 'Deaths by dungeon' }),
    table(
      ['dungeon', 'deaths', '', 'expected bones'],
      dungeons.map((d) => {
        const b = el('span', { class: 'hbar' });
        b.style.width = `${Math.round((d.deaths / max) * 200)}px`;
        return [d.name, d.deaths.toFixed(1), b, d.bones.toFixed(2)];
      }),
      'summary',
    ),
  );
  return shown;
}

function gamesTable(games: XlogGame[]): HTMLTableElement {
  return table(
    ['line', 'player', 'release', 'end', 'dungeon', 'depth', 'level', 'special', 'bones'],
    games.map(gameRow),
    'games',
  );
}

function gameRow(g: XlogGame): (string | number | Node)[] {
  if (g.error)
    return [g.line, '', '', '', el('span', { class: 'bad', text: g.error }), '', '', '', ''];
  const level = Array.isArray(g.level)
    ? g.level.map((l) => `${l.level} (${pct(l.p)})`).join(', ')
    : String(g.level ?? '');
  const special = (g.special ?? []).map((s) => `${s.name} ${pct(s.p)}`).join(', ');
  return [
    g.line,
    g.fields?.name ?? '',
    g.release ?? '',
    g.how ?? '',
    g.dungeon ?? '',
    g.depth ?? '',
    level,
    special,
    el('span', { title: g.bones_why ?? '', text: pct(g.bones_p ?? 0) }),
  ];
}
