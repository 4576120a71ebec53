// The page `dgn serve` serves: six views over dgnkit's HTTP API (`api.ts`),
// one module each in views/, each with a URL that can be shared (`url.ts`).
// Everything it shows is what the API answers, which is what `dgn` prints,
// or, in the Edit view, what dgnkit's language server answers (`lsp.ts`);
// the games it offers are those `/api` lists.
import { loadGames, type Games } from './api';
import { el, errorBox, notices } from './dom';
import { query, setView } from './url';
import type { View } from './views/common';
import { diffView } from './views/diff';
import { dungeonView } from './views/dungeon';
import { editView } from './views/edit';
import { oddsView } from './views/odds';
import { replayView } from './views/replay';
import { xlogView } from './views/xlog';

const VIEWS: Record<string, View> = {
  dungeon: dungeonView,
  replay: replayView,
  edit: editView,
  odds: oddsView,
  xlog: xlogView,
  diff: diffView,
};

function tabs(): NodeListOf<HTMLAnchorElement> {
  return document.querySelectorAll<HTMLAnchorElement>('#tabs a');
}

/** Shows the view named in the URL, and the one each tab names when clicked. */
function start(main: HTMLElement, games: Games): void {
  let current = VIEWS[query.get('view') ?? ''] ? query.get('view')! : 'dungeon';
  /** What the view shown must let go of before another is shown. */
  let leaveView: (() => void) | void;
  const render = () => {
    setView(current);
    for (const a of tabs()) a.classList.toggle('current', a.dataset.view === current);
    leaveView?.();
    leaveView = undefined;
    main.replaceChildren();
    const root = el('div', { class: `view view-${current}`, id: `view-${current}` });
    main.append(root);
    notices.length = 0;
    leaveView = VIEWS[current](root, games);
    if (notices.length)
      root.prepend(
        ...notices.map((text) => el('p', { class: 'warning url-notice', role: 'status', text })),
      );
  };
  for (const a of tabs()) {
    a.addEventListener('click', (e) => {
      e.preventDefault();
      current = a.dataset.view!;
      history.pushState(null, '', `?view=${current}`);
      for (const k of query.keys()) query.delete(k);
      render();
    });
  }
  window.addEventListener('popstate', () => location.reload());
  render();
}

async function main(): Promise<void> {
  const main = document.getElementById('main')!;
  const games = await loadGames();
  if ('failed' in games) main.replaceChildren(errorBox({ error: games.failed, status: 0 }));
  else start(main, games);
}

void main();
