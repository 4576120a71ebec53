// The Diff view: what a change to a description does (`dgn diff`), drawn
// from the JSON's `table`, which holds every line and cell of the human
// table `dgn diff` prints, with each distribution's bars beside its
// figures.
import { api, type Games } from '../api';
import { bars, checkbox, el, errorBox, field, onSubmit } from '../dom';
import { looksLikeLua } from '../kept';
import { ownKind, sampleFor } from '../samples';
import { flagOf, setQuery } from '../url';
import { gameSelect } from './common';

type Dist = Record<string, number>;

/** A side's `dgn stats` entry of an item, with the distributions a row may show. */
interface Entry {
  num_levels?: Dist;
  depth_start?: Dist;
  depth?: Dist;
  level?: Dist;
}

interface Change {
  kind: string;
  name?: string;
  dungeon?: string | null;
  old: Entry | null;
  new: Entry | null;
}

/** One row of `dgn diff`'s table: one distribution of one item. */
interface Row {
  index: number;
  item: string;
  what: string;
  label: string;
  old: string;
  new: string;
  change: string;
  tvd: string;
}

interface Answer {
  changes: Change[];
  table: {
    head: string[];
    rows: Row[];
    rules: { rule: number; says: string }[];
    failures: string[];
  };
}

/** One side of the comparison: its text, and the name a file opened gave it. */
interface Side {
  which: 'old' | 'new';
  text: HTMLTextAreaElement;
  file: HTMLInputElement;
  /** The name of the file opened, until the text is typed over. */
  name: string;
  box: HTMLElement;
}

function side(which: 'old' | 'new', label: string): Side {
  const text = el('textarea', { name: which, rows: '12', cols: '60', id: `diff-${which}` });
  const file = el('input', {
    type: 'file',
    id: `diff-${which}-file`,
    accept: '.def,.lua,.txt,text/plain',
  });
  const box = el(
    'div',
    { class: 'diff-side' },
    field(label, text),
    el(
      'label',
      { class: 'file' },
      el('span', { text: `Open ${which.toUpperCase()} from a file: ` }),
      file,
    ),
  );
  const s: Side = { which, text, file, name: '', box };
  text.addEventListener('input', () => (s.name = ''));
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    text.value = await f.text();
    s.name = f.name;
  });
  return s;
}

/**
 * The name a side's text is sent under: the file's own (a plain file name,
 * which also says its kind), else `old.def` or `old.lua` by its text.
 */
function nameOf(s: Side): string {
  const plain = s.name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[.-]+/, '')
    .slice(-64);
  if (plain) return plain;
  return `${s.which}.${looksLikeLua(s.text.value) ? 'lua' : 'def'}`;
}

/**
 * The texts the two sides start from: `game`'s own description, and the
 * same with its Oracle moved, to start from a change.
 */
function samplePair(game: string): [string, string] {
  const text = sampleFor(game, ownKind(game)).text;
  const moved = text
    .replace(/(LEVEL:\s*"oracle"\s*"O"\s*@ \()(\d+)(, \d+\))/, (_, a, n, b) => `${a}${+n + 1}${b}`)
    .replace(/(name = "oracle",[^\n]*?base = )(\d+)/, (_, a, n) => `${a}${+n + 1}`);
  return [text, moved];
}

export function diffView(root: HTMLElement, games: Games): void {
  const target = gameSelect(games);
  const all = checkbox('all', flagOf('all'));
  const old = side('old', 'Old');
  const neu = side('new', 'New');
  let pair = samplePair(target.value);
  [old.text.value, neu.text.value] = pair;
  // Another game over the samples untouched: that game's own.
  target.addEventListener('change', () => {
    if (old.text.value !== pair[0] || neu.text.value !== pair[1]) return;
    pair = samplePair(target.value);
    [old.text.value, neu.text.value] = pair;
  });
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('List the unchanged too', all),
    el('button', { type: 'submit', text: 'Compare' }),
    el('div', { class: 'split' }, old.box, neu.box),
  );
  const out = el('div', { class: 'results', id: 'diff-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: 'What a change to a description does (dgn diff): each distribution that moved, largest change first.',
    }),
    form,
    out,
  );
  const go = async () => {
    setQuery({ game: target.value, all: all.checked });
    out.replaceChildren(el('p', { class: 'busy', text: 'Comparing…' }));
    let [oldName, newName] = [nameOf(old), nameOf(neu)];
    if (oldName === newName) [oldName, newName] = [`old-${oldName}`, `new-${newName}`];
    const a = await api('diff', {
      old: old.text.value,
      new: neu.text.value,
      old_name: oldName,
      new_name: newName,
      target: target.value,
      all: all.checked,
      format: 'json',
    });
    out.replaceChildren();
    if (!a.ok) {
      out.append(errorBox(a));
      return;
    }
    out.append(...shown(JSON.parse(a.text) as Answer));
  };
  onSubmit(form, () => void go());
  void go();
}

/** Everything `dgn diff` prints: the head, the table, the rules it names, the failures. */
function shown(d: Answer): HTMLElement[] {
  const t = d.table;
  const [oldLine, newLine, counts, ...notes] = t.head;
  const parts: HTMLElement[] = [
    el(
      'div',
      { class: 'diff-head', id: 'diff-head' },
      el('p', { class: 'side-old', text: oldLine }),
      el('p', { class: 'side-new', text: newLine }),
      el('p', { class: 'summary', id: 'diff-summary' }, el('strong', { text: counts })),
      ...notes.map((n) => el('p', { class: 'warning', text: n })),
    ),
  ];
  if (!t.rows.length) {
    parts.push(el('p', { id: 'diff-none', text: 'No differences.' }));
    return parts;
  }
  parts.push(
    el('p', {
      class: 'intro',
      text: 'One row per distribution over the layouts that load (“absent” is one of its outcomes). TVD: total variation distance, 0 (the same) to 1 (disjoint); largest first, a loader that fails more often before all.',
    }),
    el('div', { class: 'table-box' }, rowsTable(d)),
  );
  if (t.rules.length)
    parts.push(
      el('h2', { text: 'Bones rules named above' }),
      el(
        'ul',
        { id: 'diff-rules' },
        ...t.rules.map((r) => el('li', { text: `rule ${r.rule}: ${r.says}` })),
      ),
    );
  if (t.failures.length)
    parts.push(
      el('h2', { text: 'Loader failures' }),
      el('pre', { id: 'diff-failures', text: t.failures.join('\n') }),
    );
  return parts;
}

/** Which distribution of an entry a row's aspect is. */
const DISTS: Record<string, keyof Entry> = {
  levels: 'num_levels',
  top_depth: 'depth_start',
  depth: 'depth',
  level: 'level',
};

function rowsTable(d: Answer): HTMLTableElement {
  const t = el('table', { class: 'diff' });
  t.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['item', 'what', 'old', 'new', 'change', 'TVD'].map((h) => el('th', { text: h })),
      ),
    ),
  );
  const body = el('tbody');
  let last = -1;
  for (const r of d.table.rows) {
    const c = d.changes[r.index];
    const first = r.index !== last;
    last = r.index;
    const figures = (label: string, text: string, entry: Entry | null) => {
      const dist = DISTS[r.what] ? entry?.[DISTS[r.what]] : undefined;
      return el(
        'td',
        { 'data-label': label },
        el('span', { class: 'figure', text }),
        ' ',
        ...(dist ? [bars(dist)] : []),
      );
    };
    body.append(
      el(
        'tr',
        first ? { class: 'first' } : {},
        el('td', { class: 'item', 'data-label': 'item', text: first ? r.item : '' }),
        el('td', { 'data-label': 'what', text: r.label }),
        figures('old', r.old, c?.old ?? null),
        figures('new', r.new, c?.new ?? null),
        el('td', { 'data-label': 'change', text: r.change }),
        el('td', { class: 'n', 'data-label': 'TVD', text: r.tvd }),
      ),
    );
  }
  t.append(body);
  return t;
}
