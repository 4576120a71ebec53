// The Replay view: a seed's `init_dungeons()` draw by draw, from the
// gamelog `dgn layout --format gamelog` writes (asked of the API, opened
// from a file, or from a `?log=URL` as the SIG-GAME framework's viewer
// takes one). Play, pause, step either way and scrub; the map fills in as
// the loader works; each draw is shown with its C site and what it
// changed, and a placement `place_level` takes back is drawn leaving its
// place. The URL keeps the game, the seed and the step.
import { api, type Games } from '../api';
import { el, errorBox, field, onSubmit } from '../dom';
import {
  drawText,
  GamelogError,
  parseGamelog,
  readGamelog,
  Replay,
  settingsQuery,
  siteOf,
  type Gamelog,
  type Step,
} from '../gamelog';
import { query, setQuery } from '../url';
import { gameForm, gameParams, type GameForm } from './common';
import { plan, ReplayMap } from './replaymap';

/** Draws a second the player can play at; 60 is one a frame. */
const SPEEDS = [2, 5, 10, 30, 60];
const DEFAULT_SPEED = 10;

type Query = Record<string, string | boolean>;

/** The URL's words for what a game form asks (the Dungeon view's). */
export function gameQuery(p: ReturnType<typeof gameParams>): Query {
  return {
    game: p.target,
    seed: p.seed,
    role: p.role,
    race: p.race,
    gender: p.gender,
    align: p.align,
    game_start: p.game_start,
    lgen: p.option.replace(/^lgen=/, ''),
    wizard: p.wizard,
  };
}

/** Where a gamelog came from: what its link says, and what to call it. */
interface Source {
  /** The URL's parameters that open it again (none: a file the link cannot carry). */
  link: Query | null;
  name: string;
  /** Its text, for a download, when it was asked of the API. */
  text?: string;
}

export function replayView(root: HTMLElement, games: Games): () => void {
  const f = gameForm(games);
  f.form.append(el('button', { type: 'submit', text: 'Replay' }));
  const file = el('input', {
    type: 'file',
    id: 'replay-file',
    accept: '.gz,.json,application/gzip,application/json',
  });
  const out = el('div', { class: 'results', id: 'replay-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: "A seed's dungeon made draw by draw, as NetHack's loader makes it: each random draw, the C code that made it and what it changed. Play it, step it or drag the slider.",
    }),
    f.form,
    el(
      'p',
      { class: 'replay-open' },
      field('Or open a gamelog (dgn layout --format gamelog: .json.gz or .json)', file),
      el('span', { class: 'note', text: ' or drop one on the page.' }),
    ),
    out,
  );
  let player: Player | undefined;
  const stop = () => player?.stop();

  const show = (log: Gamelog, source: Source, step: number | null) => {
    // An answer that comes after another view was chosen is dropped.
    if (!root.isConnected) return;
    stop();
    try {
      player = new Player(log, source);
    } catch (e) {
      out.replaceChildren(failed(source.name, e));
      return;
    }
    out.replaceChildren(player.root);
    player.go(step ?? 0, true);
    player.writeUrl();
    if (step !== null && step > player.draws)
      out.prepend(
        el('p', {
          class: 'warning url-notice',
          role: 'status',
          text: `The link's step ${step} is past the log's last draw (0 to ${player.draws}), so its end is shown.`,
        }),
      );
  };

  const fromSeed = async (step: number | null) => {
    stop();
    const p = gameParams(f);
    if (root.isConnected) setQuery(gameQuery(p));
    out.replaceChildren(el('p', { class: 'busy', text: 'Laying out…' }));
    const a = await api('layout', { ...p, format: 'gamelog' });
    if (!a.ok) {
      out.replaceChildren(errorBox(a));
      return;
    }
    let log: Gamelog;
    try {
      log = parseGamelog(a.text);
    } catch (e) {
      out.replaceChildren(failed('the answer', e));
      return;
    }
    show(log, { link: gameQuery(p), name: `${p.target}-${p.seed}`, text: a.text }, step);
  };

  const fromBytes = async (
    bytes: Uint8Array,
    name: string,
    link: Query | null,
    step: number | null = null,
  ) => {
    stop();
    out.replaceChildren(el('p', { class: 'busy', text: `Reading ${name}…` }));
    let log: Gamelog;
    try {
      log = await readGamelog(bytes);
    } catch (e) {
      out.replaceChildren(failed(name, e));
      return;
    }
    // A log of a built-in description opens again from its seed, which
    // the form then shows.
    const settings = settingsQuery(log.settings);
    if (settings) fillForm(f, settings);
    show(log, { link: link ?? settings, name }, step);
  };

  const fromFile = async (file: File) =>
    fromBytes(new Uint8Array(await file.arrayBuffer()), file.name, null);

  onSubmit(f.form, () => void fromSeed(null));
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    if (chosen) void fromFile(chosen);
  });
  root.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files')) {
      e.preventDefault();
      root.classList.add('drop');
    }
  });
  root.addEventListener('dragleave', () => root.classList.remove('drop'));
  root.addEventListener('drop', (e) => {
    const dropped = e.dataTransfer?.files[0];
    root.classList.remove('drop');
    if (!dropped) return;
    e.preventDefault();
    void fromFile(dropped);
  });
  root.addEventListener('keydown', (e) => player?.key(e));

  const step = stepOf(query.get('step'));
  const log = query.get('log');
  if (log) {
    // The framework viewer's `?log=URL`.
    void (async () => {
      out.replaceChildren(el('p', { class: 'busy', text: `Fetching ${log}…` }));
      try {
        const r = await fetch(log);
        if (!r.ok) throw new GamelogError(`GET ${log} answered HTTP ${r.status}`);
        await fromBytes(new Uint8Array(await r.arrayBuffer()), log, { log }, step);
      } catch (e) {
        out.replaceChildren(failed(log, e));
      }
    })();
  } else void fromSeed(step);
  return stop;
}

/** A URL's `step`: a number of draws, or null. */
function stepOf(v: string | null): number | null {
  if (v === null || !/^[0-9]+$/.test(v)) return null;
  return Number(v);
}

function failed(name: string, e: unknown): HTMLElement {
  const message = e instanceof GamelogError ? e.message : String(e);
  return errorBox({ error: `${name}: ${message}`, status: 0 });
}

/** Sets a game form to a gamelog's settings (its role by NetHack's name too). */
function fillForm(f: GameForm, q: Query): void {
  const pick = (s: HTMLSelectElement, v: string | boolean | undefined) => {
    const want = String(v ?? '').toLowerCase();
    const o = [...s.options].find(
      (o) =>
        o.value.toLowerCase() === want ||
        (o.value.length >= 3 && want.startsWith(o.value.toLowerCase())),
    );
    s.value = o ? o.value : '';
  };
  pick(f.target, q.game);
  f.target.dispatchEvent(new Event('change'));
  f.seed.value = String(q.seed ?? '0');
  pick(f.role, q.role);
  pick(f.race, q.race);
  pick(f.gender, q.gender);
  pick(f.align, q.align);
  f.gameStart.checked = q.game_start === true;
  f.gameStart.dispatchEvent(new Event('change'));
  f.lgen.value = String(q.lgen ?? '');
  f.wizard.checked = q.wizard === true;
}

/** One gamelog shown: the controls, the draw, the map and the list of draws. */
class Player {
  readonly root: HTMLElement;
  private readonly r: Replay;
  private readonly map: ReplayMap;
  private readonly steps: Step[];
  private readonly source: Source;
  private k = -1;
  private playing = false;
  private speed = DEFAULT_SPEED;
  private frame = 0;
  /** Each draw's place in the list ([top, height]), measured once (again after a resize). */
  private tops: [number, number][] | undefined;
  private readonly resized = () => (this.tops = undefined);
  private urlTimer = 0;
  private readonly ui: {
    play: HTMLButtonElement;
    scrub: HTMLInputElement;
    pos: HTMLElement;
    draw: HTMLElement;
    site: HTMLElement;
    change: HTMLUListElement;
    list: HTMLOListElement;
    items: HTMLLIElement[];
  };

  constructor(log: Gamelog, source: Source) {
    this.r = new Replay(log);
    this.map = new ReplayMap(this.r, plan(this.r), `${log.gameName}, seed ${log.gameSession}`);
    this.steps = Array.from({ length: this.r.draws + 1 }, (_, k) => this.r.info(k));
    this.source = source;
    const button = (id: string, text: string, label: string, go: () => void) => {
      const b = el('button', { type: 'button', id, text, title: label, 'aria-label': label });
      b.addEventListener('click', go);
      return b;
    };
    const play = button('replay-play', 'Play', 'Play (space)', () => this.toggle());
    const scrub = el('input', {
      type: 'range',
      id: 'replay-scrub',
      min: '0',
      max: String(this.r.draws),
      step: '1',
      value: '0',
      'aria-label': 'draws made',
    });
    scrub.addEventListener('input', () => {
      this.pause();
      this.go(Number(scrub.value));
      this.writeUrlSoon();
    });
    const speed = el('select', { id: 'replay-speed', 'aria-label': 'draws a second' });
    for (const s of SPEEDS) speed.append(el('option', { value: String(s), text: `${s} draws/s` }));
    speed.value = String(DEFAULT_SPEED);
    speed.addEventListener('change', () => (this.speed = Number(speed.value)));
    const user = (to: () => number) => () => {
      this.pause();
      this.go(to());
      this.writeUrl();
    };
    const bar = el(
      'div',
      { class: 'replay-bar' },
      button(
        'replay-first',
        'Start',
        'To the start (Home)',
        user(() => 0),
      ),
      button(
        'replay-back',
        '◀',
        'One draw back (←)',
        user(() => this.k - 1),
      ),
      play,
      button(
        'replay-forward',
        '▶',
        'One draw forward (→)',
        user(() => this.k + 1),
      ),
      button(
        'replay-last',
        'End',
        'To the end (End)',
        user(() => this.r.draws),
      ),
      scrub,
      speed,
    );
    const pos = el('p', { class: 'replay-pos', id: 'replay-pos', 'aria-live': 'polite' });
    const draw = el('p', { class: 'replay-draw', id: 'replay-draw' });
    const site = el('p', { class: 'replay-site', id: 'replay-site' });
    const change = el('ul', { class: 'replay-change', id: 'replay-change' });
    const list = el('ol', { class: 'replay-draws', id: 'replay-draws', start: '0' });
    const items = this.steps.map((s, k) => {
      const li = el('li', { 'data-step': String(k) });
      if (k === 0) li.append(el('span', { class: 'what', text: 'before the first draw' }));
      else {
        li.append(
          el('code', { text: s.draw ? drawText(s.draw) : '' }),
          ' ',
          el('span', { class: 'what', text: s.draw?.what ?? '' }),
        );
        if (s.ghosts.length) {
          li.classList.add('backtrack');
          li.title = 'place_level takes a placement back';
        }
      }
      return li;
    });
    list.append(...items);
    list.addEventListener('click', (e) => {
      const li = (e.target as HTMLElement).closest('li');
      if (!li) return;
      this.pause();
      this.go(Number(li.dataset.step));
      this.writeUrl();
    });
    this.ui = { play, scrub, pos, draw, site, change, list, items };
    window.addEventListener('resize', this.resized);
    const now = el('section', { class: 'replay-now', id: 'replay-now' }, pos, draw, site, change);
    const side = el(
      'section',
      { class: 'side' },
      now,
      el('h2', { text: 'The loader’s draws' }),
      list,
      ...this.gameStart(log),
      ...this.download(),
    );
    const unlinked = source.link
      ? []
      : [
          el('p', {
            class: 'note',
            id: 'replay-unlinked',
            text: `${source.name} is not of a description dgnkit has built in, so a link cannot open it again: its link keeps the step alone.`,
          }),
        ];
    this.root = el(
      'div',
      { class: 'replay' },
      ...unlinked,
      bar,
      el(
        'div',
        { class: 'split' },
        el(
          'section',
          { class: 'map-box', id: 'replay-map-box' },
          el('h2', { text: 'Map' }),
          this.fullSize(),
          el('div', { class: 'map-frame replay-frame' }, this.map.svg),
        ),
        side,
      ),
    );
  }

  /** A big dungeon's map is small in the column: at full size, it scrolls in its frame. */
  private fullSize(): HTMLElement {
    const b = el('button', {
      type: 'button',
      id: 'replay-full',
      class: 'secondary',
      text: 'Full size',
    });
    b.addEventListener('click', () => {
      const on = this.map.svg.classList.toggle('full');
      b.textContent = on ? 'Fit to the column' : 'Full size';
    });
    return el('p', { class: 'map-tools' }, b);
  }

  /** The game start's draws before the loader, which no step shows. */
  private gameStart(log: Gamelog): HTMLElement[] {
    if (!log.gameStart.length) return [];
    const lines = log.gameStart.map((d) => {
      const site = siteOf(d);
      return `${drawText(d).padEnd(13)} ${d.what ?? ''}${site ? `  ${site}` : ''}`;
    });
    return [
      el(
        'details',
        { class: 'replay-game-start', id: 'replay-game-start' },
        el('summary', {
          text: `The game start's ${log.gameStart.length} draws before the loader`,
        }),
        el('pre', { class: 'trace', text: lines.join('\n') }),
      ),
    ];
  }

  /** The gamelog, gzipped, as the framework keeps one (when it came from the API). */
  private download(): HTMLElement[] {
    const text = this.source.text;
    if (!text) return [];
    const a = el('a', {
      id: 'replay-download',
      download: `dgn-${this.source.name}.json.gz`,
      text: 'Download the gamelog',
    });
    void new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip')))
      .blob()
      .then((b) => (a.href = URL.createObjectURL(b)));
    return [el('p', {}, a)];
  }

  /** Shows step `to` (clamped): one step at a time redraws only what it touched. */
  go(to: number, jump = false): void {
    const target = Math.max(0, Math.min(this.r.draws, to));
    if (target === this.k && !jump) return;
    const t0 = performance.now();
    const from = this.k;
    // What is read of the layout is read first, while it is clean: a step
    // forces no layout of its own.
    const list = this.ui.list;
    const view = { top: list.scrollTop, height: list.clientHeight };
    this.tops ??= this.ui.items.map((li) => [li.offsetTop, li.offsetHeight]);
    const frame = this.map.viewport();
    if (jump || from < 0 || Math.abs(target - from) > 8) {
      this.r.go(target);
      this.map.all();
    } else {
      while (this.r.step !== target) {
        const k = this.r.step;
        const next = k < target ? k + 1 : k - 1;
        const touched = this.steps[Math.max(k, next)].touched;
        this.r.go(next);
        this.map.redraw(touched);
      }
    }
    this.k = target;
    const s = this.steps[target];
    this.map.mark(s, frame);
    this.panel(s, from, view);
    performance.measure('replay-step', { start: t0, end: performance.now() });
  }

  private panel(s: Step, from: number, view: { top: number; height: number }): void {
    const { pos, draw, site, change, scrub, items, list } = this.ui;
    const k = this.k;
    pos.textContent =
      k === 0 ? `Before the first of ${this.r.draws} draws` : `Draw ${k} of ${this.r.draws}`;
    scrub.value = String(k);
    if (s.draw) {
      draw.replaceChildren(
        el('code', { text: drawText(s.draw) }),
        ' ',
        el('span', { class: 'what', text: s.draw.what ?? '' }),
      );
      const c = siteOf(s.draw);
      site.replaceChildren(
        c ? el('span', { text: 'C site: ' }) : '',
        el('code', { text: c || 'a site dgnkit does not name for this game' }),
      );
    } else {
      draw.replaceChildren(
        el('span', { class: 'what', text: 'The description, before the loader draws.' }),
      );
      site.replaceChildren();
    }
    change.replaceChildren(
      ...s.change.map((w) =>
        el('li', { class: w.startsWith('placement of') ? 'backtrack' : '', text: w }),
      ),
    );
    if (from >= 0) items[from]?.classList.remove('current');
    const li = items[k];
    li.classList.add('current');
    // The current draw kept in the list's view.
    const [top, height] = this.tops?.[k] ?? [0, 0];
    if (top < view.top || top + height > view.top + view.height)
      list.scrollTop = top - view.height / 2;
  }

  private toggle(): void {
    if (this.playing) {
      this.pause();
      this.writeUrl();
    } else this.play();
  }

  private play(): void {
    if (this.k >= this.r.draws) this.go(0);
    this.playing = true;
    this.ui.play.textContent = 'Pause';
    let last = performance.now();
    let owed = 0;
    const tick = (t: number) => {
      if (!this.playing) return;
      owed += (Math.max(0, t - last) * this.speed) / 1000;
      last = t;
      // Never more than a draw or two a frame: a slow frame is not skipped over.
      const n = Math.min(Math.floor(owed), 2);
      if (n > 0) {
        owed -= n;
        this.go(this.k + n);
      }
      if (this.k >= this.r.draws) {
        this.pause();
        this.writeUrl();
      } else this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  private pause(): void {
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.ui.play.textContent = 'Play';
  }

  stop(): void {
    this.pause();
    window.removeEventListener('resize', this.resized);
    clearTimeout(this.urlTimer);
  }

  /** The log's draws: its last step. */
  get draws(): number {
    return this.r.draws;
  }

  /** The URL opens this log at this step (a file's: the step alone, said). */
  writeUrl(): void {
    clearTimeout(this.urlTimer);
    const link = this.source.link ?? {};
    setQuery({ ...link, step: String(this.k) });
  }

  /** The URL written once the slider rests (a browser limits how often it may change). */
  private writeUrlSoon(): void {
    clearTimeout(this.urlTimer);
    this.urlTimer = window.setTimeout(() => this.writeUrl(), 250);
  }

  /** ← → step, space plays or pauses, Home and End. */
  key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement;
    if (t.closest('input, select, textarea')) return;
    const to: Record<string, () => number> = {
      ArrowLeft: () => this.k - 1,
      ArrowRight: () => this.k + 1,
      Home: () => 0,
      End: () => this.r.draws,
    };
    if (e.key === ' ' && !t.closest('button')) {
      e.preventDefault();
      this.toggle();
    } else if (to[e.key]) {
      e.preventDefault();
      this.pause();
      this.go(to[e.key]());
      this.writeUrl();
    }
  }
}
