// The Dungeon view's draw log: every draw of the game start and of
// `init_dungeons()`, labelled as `dgn layout --trace` labels them
// ("placing "oracle"", "chance of level "bigrm"") with the C function that
// makes it, all from one gamelog (`/api/layout?format=gamelog`); and the
// link that replays the seed draw by draw, at the top of the view's side.
import { api } from '../api';
import { el, errorBox } from '../dom';
import { drawText, parseGamelog, siteOf, type Draw } from '../gamelog';
import type { gameParams } from './common';
import { gameQuery } from './replay';

type Game = ReturnType<typeof gameParams>;

/** `?view=replay&...`: the Replay view of the same game, seed and hero, at `step`. */
export function replayHref(p: Game, step?: number): string {
  const q = new URLSearchParams({ view: 'replay' });
  for (const [k, v] of Object.entries(gameQuery(p))) {
    if (v === true) q.set(k, '1');
    else if (v !== false && v !== '') q.set(k, v);
  }
  if (step !== undefined) q.set('step', String(step));
  return `?${q}`;
}

/** The link to the Replay view of the seed shown. */
export function replayLink(p: Game): HTMLElement {
  return el(
    'p',
    { class: 'replay-link' },
    el('a', {
      href: replayHref(p),
      id: 'dungeon-replay',
      text: 'Replay this seed, draw by draw',
    }),
  );
}

/** A button that fetches the draw log, and where it goes. */
export function drawLog(p: Game): HTMLElement[] {
  const box = el('div', { id: 'dungeon-draws' });
  const button = el('button', { type: 'button', text: 'Show the draw log' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    const a = await api('layout', { ...p, format: 'gamelog' });
    if (!a.ok) {
      box.replaceChildren(errorBox(a));
      return;
    }
    let lines: (string | Node)[];
    try {
      const log = parseGamelog(a.text);
      const draws = log.deltas.flatMap((d) =>
        d.type === 'ran' ? [d.data as unknown as Draw] : [],
      );
      lines = traceLines(log.gameStart, draws, (n) => replayHref(p, n));
    } catch (e) {
      box.replaceChildren(errorBox({ error: String(e), status: 0 }));
      return;
    }
    box.replaceChildren(el('pre', { class: 'trace' }, ...lines));
  });
  return [button, box];
}

/**
 * The lines of the log: the game start's draws, then the loader's, each
 * numbered (a link to the Replay view after it), labelled and with its C site.
 */
function traceLines(start: Draw[], loader: Draw[], href: (n: number) => string): (string | Node)[] {
  const all = [...start, ...loader];
  const w = Math.max(0, ...all.map((d) => drawText(d).length));
  const v = Math.min(44, Math.max(0, ...all.map((d) => (d.what ?? '').length)));
  const line = (d: Draw, number: Node | string) => {
    const site = siteOf(d);
    return [
      number,
      `${drawText(d).padEnd(w)}  ${(d.what ?? '').padEnd(v)}`,
      site ? el('span', { class: 'site', text: `  ${site}` }) : '',
      '\n',
    ];
  };
  const out: (string | Node)[] = [];
  const n = String(loader.length).length;
  if (start.length) {
    out.push(
      el('span', {
        class: 'head',
        text: `The game start: ${start.length} draw${start.length === 1 ? '' : 's'} before the loader\n`,
      }),
    );
    for (const d of start) out.push(...line(d, ' '.repeat(n + 2)));
    out.push('\n');
  }
  out.push(
    el('span', {
      class: 'head',
      text: `init_dungeons(): ${loader.length} draw${loader.length === 1 ? '' : 's'}\n`,
    }),
  );
  loader.forEach((d, i) => {
    const k = i + 1;
    const num = el('a', {
      href: href(k),
      title: `the Replay view after draw ${k}`,
      text: String(k),
    });
    out.push(...line(d, el('span', {}, ' '.repeat(n - String(k).length), num, '  ')));
  });
  return out;
}
