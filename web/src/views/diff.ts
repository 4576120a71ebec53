// The Diff view: what a change to a description does (`dgn diff`).
import { api, type Games } from '../api';
import { bars, el, errorBox, field, onSubmit, table } from '../dom';
import { SAMPLE_DEF } from '../samples';
import { setQuery } from '../url';
import { gameSelect } from './common';

type Distributions = { depth?: Record<string, number>; num_levels?: Record<string, number> };

interface Change {
  kind: string;
  name?: string;
  dungeon?: string;
  status: string;
  tvd: number;
  old: Distributions | null;
  new: Distributions | null;
}

export function diffView(root: HTMLElement, games: Games): void {
  const target = gameSelect(games);
  const oldText = el('textarea', { name: 'old', rows: '12', cols: '60', id: 'diff-old' });
  const newText = el('textarea', { name: 'new', rows: '12', cols: '60', id: 'diff-new' });
  oldText.value = SAMPLE_DEF;
  // The sample's Oracle moved, to start from a change.
  newText.value = SAMPLE_DEF.replace(
    /LEVEL:(\s*)"oracle"(\s*)"O"(\s*)@ \(5, 5\)/,
    'LEVEL:$1"oracle"$2"O"$3@ (6, 3)',
  );
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    el('button', { type: 'submit', text: 'Compare' }),
    el('div', { class: 'split' }, field('Old', oldText), field('New', newText)),
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
    setQuery({ game: target.value });
    out.replaceChildren(el('p', { class: 'busy', text: 'Comparing…' }));
    const a = await api('diff', {
      old: oldText.value,
      new: newText.value,
      target: target.value,
      format: 'json',
    });
    out.replaceChildren();
    if (!a.ok) {
      out.append(errorBox(a));
      return;
    }
    const changes = (JSON.parse(a.text) as { changes: Change[] }).changes;
    out.append(
      el('h2', { text: `${changes.length} item${changes.length === 1 ? '' : 's'} changed` }),
      changesTable(changes),
    );
  };
  onSubmit(form, () => void go());
  void go();
}

function changesTable(changes: Change[]): HTMLTableElement {
  return table(
    ['kind', 'item', 'change', 'distance', 'old', 'new'],
    changes.map((c) => [
      c.kind,
      [c.name, c.dungeon].filter(Boolean).join(' in '),
      c.status,
      c.tvd.toFixed(3),
      bars(c.old?.depth ?? c.old?.num_levels),
      bars(c.new?.depth ?? c.new?.num_levels),
    ]),
    'diff',
  );
}
