// The page `dgn serve` serves: five views over dgnkit's HTTP API, each with
// a URL that can be shared (`/?view=dungeon&game=nethack-3.7&seed=42&role=Wiz`).
// Everything it shows is what the API answers, which is what `dgn` prints,
// or, in the Edit view, what dgnkit's language server answers (`lsp.ts`).
import { Compartment, EditorState } from '@codemirror/state';
import {
  EditorView,
  keymap,
  lineNumbers,
  highlightActiveLine,
  drawSelection,
} from '@codemirror/view';
import { defaultKeymap, history as undoHistory, historyKeymap } from '@codemirror/commands';
import { forceLinting, linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { formatDocument, type LSPClient } from '@codemirror/lsp-client';
import { client, connect, settings } from './lsp';

/** Every `--target` (`dgn layout --help`). */
export const TARGETS = [
  'nethack-3.6',
  'nethack-3.4.3',
  'nethack-3.7',
  'native',
  'evilhack',
  'unnethack',
  'slashem',
  'dnethack',
  'gnollhack',
  'dynahack',
  'xnethack',
  'splicehack',
  'nerfhack',
  'crecellehack',
];
const ROLES = [
  '',
  'Arc',
  'Bar',
  'Cav',
  'Hea',
  'Kni',
  'Mon',
  'Pri',
  'Rog',
  'Ran',
  'Sam',
  'Tou',
  'Val',
  'Wiz',
];

type Params = Record<string, string | number | boolean | undefined>;

/** An answer: the body, its status and the command's exit status. */
interface Answer {
  ok: boolean;
  status: number;
  text: string;
  exit: number | null;
  error?: string;
}

async function api(endpoint: string, params: Params): Promise<Answer> {
  const body: Params = {};
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== '' && v !== false) body[k] = v;
  let r: Response;
  try {
    r = await fetch(`/api/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    return {
      ok: false,
      status: 0,
      text: '',
      exit: null,
      error: `the server cannot be reached: ${e}`,
    };
  }
  const text = await r.text();
  const exit = r.headers.get('x-dgn-exit');
  const a: Answer = { ok: r.ok, status: r.status, text, exit: exit === null ? null : Number(exit) };
  if (!r.ok) {
    try {
      a.error = JSON.parse(text).error;
    } catch {
      a.error = text;
    }
  }
  return a;
}

// ---- small DOM helpers --------------------------------------------------

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...kids: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function field(label: string, input: HTMLElement): HTMLLabelElement {
  return el('label', {}, el('span', { text: label }), input);
}

function select(name: string, options: string[], value: string): HTMLSelectElement {
  const s = el('select', { name });
  for (const o of options) s.append(el('option', { value: o, text: o || '(default)' }));
  s.value = options.includes(value) ? value : options[0];
  return s;
}

function input(name: string, value: string, attrs: Record<string, string> = {}): HTMLInputElement {
  const i = el('input', { name, ...attrs });
  i.value = value;
  return i;
}

function checkbox(name: string, on: boolean): HTMLInputElement {
  const i = el('input', { name, type: 'checkbox' });
  i.checked = on;
  return i;
}

function errorBox(a: Answer): HTMLElement {
  return el('pre', { class: 'error', role: 'alert', text: a.error ?? `HTTP ${a.status}` });
}

/** An SVG answer shown as an image (its text is never run as the page). */
function svgImage(svg: string, alt: string): HTMLImageElement {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const img = el('img', { src: url, alt, class: 'map' });
  img.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
  return img;
}

function pct(p: number): string {
  if (p === 0) return '0';
  if (p === 1) return '100%';
  const v = p * 100;
  return `${v < 0.1 ? v.toPrecision(2) : v.toFixed(1)}%`;
}

function table(head: string[], rows: (string | number | Node)[][], cls = ''): HTMLTableElement {
  const t = el('table', cls ? { class: cls } : {});
  t.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const r of rows)
    body.append(el('tr', {}, ...r.map((c) => el('td', {}, typeof c === 'number' ? String(c) : c))));
  t.append(body);
  return t;
}

/** A distribution `{"5": 0.2, ...}` as a tiny bar chart. */
function bars(dist: Record<string, number> | null | undefined): HTMLElement {
  const box = el('span', { class: 'bars' });
  if (!dist) return box;
  const entries = Object.entries(dist).sort((a, b) => Number(a[0]) - Number(b[0]));
  const max = Math.max(...entries.map(([, p]) => p), 1e-9);
  for (const [k, p] of entries) {
    const b = el('span', { class: 'bar', title: `${k}: ${pct(p)}` });
    b.style.height = `${Math.max(2, Math.round((p / max) * 24))}px`;
    box.append(b);
  }
  const keys = entries.map(([k]) => k);
  box.append(
    el('span', {
      class: 'range',
      text: keys.length ? (keys.length > 1 ? `${keys[0]}–${keys[keys.length - 1]}` : keys[0]) : '',
    }),
  );
  return box;
}

// ---- URL state ----------------------------------------------------------

const query = new URLSearchParams(location.search);

function setQuery(values: Record<string, string | boolean>): void {
  const q = new URLSearchParams();
  q.set('view', current);
  for (const [k, v] of Object.entries(values)) {
    if (v === true) q.set(k, '1');
    else if (v !== false && v !== '') q.set(k, v);
  }
  history.replaceState(null, '', `?${q}`);
}

function flagOf(name: string): boolean {
  const v = query.get(name);
  return v !== null && v !== '0' && v !== 'false';
}

// ---- views ----------------------------------------------------------------

type View = (root: HTMLElement) => void;
/** What the view shown must let go of before another is shown (the Edit view's connection). */
let leaveView: (() => void) | null = null;
const VIEWS: Record<string, View> = {
  dungeon: dungeonView,
  edit: editView,
  odds: oddsView,
  xlog: xlogView,
  diff: diffView,
};
let current = VIEWS[query.get('view') ?? ''] ? query.get('view')! : 'dungeon';

function gameForm(prefix: HTMLElement[] = []): {
  form: HTMLFormElement;
  target: HTMLSelectElement;
  seed: HTMLInputElement;
  role: HTMLSelectElement;
  wizard: HTMLInputElement;
} {
  const target = select('game', TARGETS, query.get('game') ?? query.get('target') ?? 'nethack-3.6');
  const seed = input('seed', query.get('seed') ?? '0', {
    inputmode: 'numeric',
    pattern: '[0-9]+',
    size: '12',
  });
  const role = select('role', ROLES, query.get('role') ?? '');
  const wizard = checkbox('wizard', flagOf('wizard'));
  const form = el(
    'form',
    { class: 'controls' },
    ...prefix,
    field('Game', target),
    field('Seed', seed),
    field('Role', role),
    field('Wizard mode', wizard),
  );
  return { form, target, seed, role, wizard };
}

function dungeonView(root: HTMLElement): void {
  const f = gameForm();
  const show = el('button', { type: 'submit', text: 'Show' });
  f.form.append(show);
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
    const p = {
      target: f.target.value,
      seed: f.seed.value,
      role: f.role.value,
      wizard: f.wizard.checked,
    };
    setQuery({ game: p.target, seed: p.seed, role: p.role, wizard: p.wizard });
    out.replaceChildren(el('p', { class: 'busy', text: 'Laying out…' }));
    const [svg, overview, bones] = await Promise.all([
      api('layout', { ...p, format: 'svg' }),
      api('layout', { ...p, format: 'overview' }),
      api('bones', { ...p, format: 'json' }),
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
    const side = el(
      'section',
      { class: 'side' },
      el('h2', { text: 'Overview' }),
      overview.ok ? el('pre', { class: 'overview', text: overview.text }) : errorBox(overview),
    );
    side.append(el('h2', { text: 'Bones' }));
    if (bones.ok) {
      const levels = JSON.parse(bones.text).levels as {
        dungeon: string;
        level: number;
        depth: number;
        special: string | null;
        can_load: boolean;
        leave_chance: number;
        rule: string;
        file: string;
      }[];
      side.append(
        table(
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
        ),
      );
    } else side.append(errorBox(bones));
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
    side.append(el('h2', { text: 'Draw log' }), traceBtn, traceBox);
    out.append(el('div', { class: 'split' }, map, side));
  };
  f.form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go();
  });
  void go();
}

// NetHack 3.6's dungeon.def, as dgnkit describes it (corpus/), to start from.
import SAMPLE_DEF from '../../corpus/nethack-3.6.def';
// NetHack 3.7's dungeon.lua, as dgnkit describes it.
import SAMPLE_LUA from '../../corpus/nethack-3.7.lua';

/** Byte offsets (what the API's spans are) to string offsets. */
function byteToChar(text: string): (byte: number) => number {
  const enc = new TextEncoder();
  const starts: number[] = [];
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    starts.push(b);
    const c = text.codePointAt(i)!;
    const n = enc.encode(String.fromCodePoint(c)).length;
    if (c > 0xffff) {
      starts.push(b);
      i++;
    }
    b += n;
  }
  starts.push(b);
  return (byte: number) => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= byte) lo = mid;
      else hi = mid - 1;
    }
    return Math.min(lo, text.length);
  };
}

function editView(root: HTMLElement): void {
  const f = gameForm();
  const kind = select('kind', ['dungeon.def', 'dungeon.lua'], query.get('name') ?? 'dungeon.def');
  f.form.prepend(field('File', kind));
  const format = el('button', {
    type: 'button',
    id: 'format',
    text: 'Format',
    title: 'Format the file as dgn fmt does (Shift-Alt-F)',
  });
  format.disabled = true;
  const status = el('span', {
    class: 'status',
    id: 'edit-status',
    text: 'Starting the language server…',
  });
  f.form.append(format, status);
  const editorBox = el('div', { class: 'editor', id: 'editor' });
  const preview = el('div', { class: 'preview', id: 'preview' });
  root.append(
    el('p', {
      class: 'intro',
      text: "A dungeon.def or NetHack 3.7 dungeon.lua with dgnkit's language server: diagnostics as you type, hovers with each level's depths and bones, formatting; and its layout for the seed.",
    }),
    f.form,
    el(
      'div',
      { class: 'split' },
      el('section', {}, editorBox),
      el('section', {}, el('h2', { text: 'Layout' }), preview),
    ),
  );

  let previewTimer = 0;
  const refreshPreview = (text: string) => {
    clearTimeout(previewTimer);
    previewTimer = window.setTimeout(async () => {
      const a = await api('layout', {
        text,
        name: kind.value,
        target: f.target.value,
        seed: f.seed.value,
        role: f.role.value,
        wizard: f.wizard.checked,
        format: 'svg',
      });
      preview.replaceChildren(a.ok ? svgImage(a.text, 'the layout') : errorBox(a));
    }, 400);
  };

  const showCounts = (severities: ('error' | 'other')[]) => {
    const errors = severities.filter((s) => s === 'error').length;
    status.textContent = `${errors} error${errors === 1 ? '' : 's'}, ${severities.length - errors} other`;
    status.dataset.errors = String(errors);
  };

  // Without the language server (it is busy, or the connection failed or
  // closed), `dgn check` through the API gives the diagnostics.
  const checkSource = linter(
    async (view) => {
      const text = view.state.doc.toString();
      const a = await api('check', {
        text,
        name: kind.value,
        target: f.target.value,
        format: 'json',
      });
      if (!a.ok) {
        status.textContent = a.error ?? 'check failed';
        return [];
      }
      const files = JSON.parse(a.text).files as {
        diagnostics: {
          start: number;
          end: number;
          severity: string;
          message: string;
          code: string;
        }[];
      }[];
      const toChar = byteToChar(text);
      const diags: Diagnostic[] = [];
      for (const d of files[0]?.diagnostics ?? []) {
        const from = toChar(d.start);
        const to = Math.max(from, toChar(d.end));
        diags.push({
          from,
          to,
          severity:
            d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
          message: `${d.code}: ${d.message}`,
        });
      }
      showCounts(diags.map((d) => (d.severity === 'error' ? 'error' : 'other')));
      return diags;
    },
    { delay: 300 },
  );

  // The language server's plugin, or the API's linter: never both.
  const diagnosticsSource = new Compartment();
  const view = new EditorView({
    parent: editorBox,
    state: EditorState.create({
      doc: kind.value === 'dungeon.lua' ? SAMPLE_LUA : SAMPLE_DEF,
      extensions: [
        lineNumbers(),
        undoHistory(),
        drawSelection(),
        highlightActiveLine(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        lintGutter(),
        diagnosticsSource.of([]),
        EditorView.lineWrapping,
        EditorView.updateListener.of((u) => {
          if (u.docChanged) refreshPreview(u.state.doc.toString());
        }),
      ],
    }),
  });
  (window as unknown as { dgnEditor: EditorView }).dgnEditor = view;
  refreshPreview(view.state.doc.toString());

  let server: LSPClient | null = null;
  let socket: WebSocket | null = null;
  let uri = '';
  const uriOf = () => `untitled:${kind.value}`;
  const useServer = (c: LSPClient) => {
    uri = uriOf();
    view.dispatch({ effects: diagnosticsSource.reconfigure(c.plugin(uri)) });
  };
  const useApi = (why: string) => {
    server = null;
    status.dataset.source = 'api';
    format.disabled = true;
    format.title = `Formatting needs the language server (${why})`;
    view.dispatch({ effects: diagnosticsSource.reconfigure(checkSource) });
  };
  void connect(5000).then((c) => {
    if (!view.dom.isConnected) {
      if (!('failed' in c)) c.socket.close();
      return;
    }
    if ('failed' in c) {
      useApi(c.failed);
      return;
    }
    socket = c.socket;
    const s = client(c.transport, f.target.value, (u, diags) => {
      if (u === uri) showCounts(diags.map((d) => ((d.severity ?? 1) === 1 ? 'error' : 'other')));
    });
    server = s;
    const fail = (why: string) => {
      if (server !== s) return;
      s.disconnect();
      c.socket.close();
      useApi(why);
    };
    c.socket.addEventListener('close', () => fail('the connection closed'));
    s.initializing.catch(() => fail('the language server did not start'));
    status.dataset.source = 'lsp';
    status.textContent = 'Checking…';
    format.disabled = false;
    useServer(s);
  });
  format.addEventListener('click', () => {
    formatDocument(view);
    view.focus();
  });
  leaveView = () => {
    server = null;
    socket?.close();
    view.destroy();
  };

  const again = () => {
    setQuery({
      name: kind.value,
      game: f.target.value,
      seed: f.seed.value,
      role: f.role.value,
      wizard: f.wizard.checked,
    });
    if (server) {
      server.notification('workspace/didChangeConfiguration', {
        settings: settings(f.target.value),
      });
      if (uriOf() !== uri) useServer(server);
    } else if (status.dataset.source === 'api') forceLinting(view);
    refreshPreview(view.state.doc.toString());
  };
  // Choosing the other kind of file starts from its sample while the text is
  // still the other sample; a dungeon.lua is NetHack 3.7's unless a 3.7 fork
  // is chosen.
  kind.addEventListener('change', () => {
    const text = view.state.doc.toString();
    const lua = kind.value === 'dungeon.lua';
    if (text === SAMPLE_DEF || text === SAMPLE_LUA) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: lua ? SAMPLE_LUA : SAMPLE_DEF },
      });
    }
    const forks = ['nethack-3.7', 'xnethack', 'splicehack', 'nerfhack', 'crecellehack', 'native'];
    if (lua && !forks.includes(f.target.value)) f.target.value = 'nethack-3.7';
    if (!lua && f.target.value === 'nethack-3.7') f.target.value = 'nethack-3.6';
  });
  f.form.addEventListener('change', again);
  f.form.addEventListener('submit', (e) => {
    e.preventDefault();
    again();
  });
}

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
}

function oddsView(root: HTMLElement): void {
  const target = select('game', TARGETS, query.get('game') ?? 'nethack-3.6');
  const role = select('role', ROLES, query.get('role') ?? '');
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
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('Role', role),
    field('Wizard mode', wizard),
    field('What I have seen (a dgn find query)', given),
    el('button', { type: 'submit', text: 'Compute' }),
    el('details', {}, el('summary', { text: 'or paste an overview' }), overview),
  );
  const out = el('div', { class: 'results', id: 'odds-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: "Exact odds over every layout (dgn stats): where each special level lands, each dungeon's size, which levels can hold bones; conditioned on what you have seen.",
    }),
    form,
    out,
  );

  const go = async () => {
    const p = {
      target: target.value,
      role: role.value,
      wizard: wizard.checked,
      given: given.value.trim(),
      given_overview: overview.value.trim() || undefined,
    };
    setQuery({ game: p.target, role: p.role, wizard: p.wizard, given: p.given });
    out.replaceChildren(el('p', { class: 'busy', text: 'Computing…' }));
    const [json, chart] = await Promise.all([
      api('stats', { ...p, format: 'json' }),
      api('stats', { ...p, format: 'svg' }),
    ]);
    out.replaceChildren();
    if (!json.ok) {
      out.append(errorBox(json));
      return;
    }
    const s = JSON.parse(json.text) as Stats;
    out.append(
      el('p', {
        class: 'method',
        text: `${s.method.kind === 'exact' ? 'Exact' : 'Sampled'}; the loader fails in ${pct(s.failure)} of games.`,
      }),
    );
    if (chart.ok)
      out.append(
        el('h2', { text: 'Depths of the special levels' }),
        svgImage(chart.text, 'the depth chart'),
      );
    out.append(
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
    );
    out.append(
      el('h2', { text: 'Dungeons' }),
      table(
        ['dungeon', 'exists', 'levels', 'first depth'],
        s.dungeons.map((d) => [d.name, pct(d.exists), bars(d.num_levels), bars(d.depth_start)]),
        'odds',
      ),
    );
    out.append(
      el('h2', { text: 'Branches' }),
      table(
        ['from', 'to', 'exists', 'depth'],
        s.branches.map((b) => [b.from, b.to, pct(b.exists), bars(b.depth)]),
        'odds',
      ),
    );
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go();
  });
  void go();
}

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

function xlogView(root: HTMLElement): void {
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
  const out = el('div', { class: 'results', id: 'xlog-results' });
  root.append(
    el('p', {
      class: 'intro',
      text: 'Where each game of an xlogfile ended (dungeon, level, special level) and whether it could have left bones there (dgn xlog).',
    }),
    form,
    out,
  );
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (f) {
      text.value = await f.text();
      void go();
    }
  });
  const go = async () => {
    setQuery({ where: where.value, game: game.value });
    out.replaceChildren(el('p', { class: 'busy', text: 'Reading…' }));
    const a = await api('xlog', {
      text: text.value,
      where: where.value.trim(),
      game: game.value.trim(),
      format: 'json',
    });
    out.replaceChildren();
    if (!a.ok) {
      out.append(errorBox(a));
      return;
    }
    const lines = a.text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const summary = lines.find((l) => l.summary)?.summary;
    const games = lines.filter((l) => !l.summary) as XlogGame[];
    if (summary) {
      out.append(
        el('h2', { text: 'Summary' }),
        table(
          ['games', 'deaths', 'bad lines', 'expected bones files'],
          [
            [
              summary.games,
              summary.deaths,
              summary.bad_lines,
              (summary.expected_bones ?? 0).toFixed(2),
            ],
          ],
          'summary',
        ),
      );
      const dungeons = (summary.dungeons ?? []) as {
        name: string;
        deaths: number;
        bones: number;
      }[];
      if (dungeons.length) {
        const max = Math.max(...dungeons.map((d) => d.deaths), 1e-9);
        out.append(
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
      }
    }
    out.append(
      el('h2', { text: 'Games' }),
      table(
        ['line', 'player', 'release', 'end', 'dungeon', 'depth', 'level', 'special', 'bones'],
        games.map((g) => {
          if (g.error)
            return [
              g.line,
              '',
              '',
              '',
              el('span', { class: 'bad', text: g.error }),
              '',
              '',
              '',
              '',
            ];
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
        }),
        'games',
      ),
    );
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go();
  });
}

function diffView(root: HTMLElement): void {
  const target = select('game', TARGETS, query.get('game') ?? 'nethack-3.6');
  const oldText = el('textarea', { name: 'old', rows: '12', cols: '60', id: 'diff-old' });
  const newText = el('textarea', { name: 'new', rows: '12', cols: '60', id: 'diff-new' });
  oldText.value = SAMPLE_DEF;
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
    const d = JSON.parse(a.text) as {
      changes: {
        kind: string;
        name?: string;
        dungeon?: string;
        status: string;
        tvd: number;
        old: { depth?: Record<string, number>; num_levels?: Record<string, number> } | null;
        new: { depth?: Record<string, number>; num_levels?: Record<string, number> } | null;
      }[];
    };
    out.append(
      el('h2', { text: `${d.changes.length} item${d.changes.length === 1 ? '' : 's'} changed` }),
      table(
        ['kind', 'item', 'change', 'distance', 'old', 'new'],
        d.changes.map((c) => [
          c.kind,
          [c.name, c.dungeon].filter(Boolean).join(' in '),
          c.status,
          c.tvd.toFixed(3),
          bars(c.old?.depth ?? c.old?.num_levels),
          bars(c.new?.depth ?? c.new?.num_levels),
        ]),
        'diff',
      ),
    );
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go();
  });
  void go();
}

function start(): void {
  const main = document.getElementById('main')!;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#tabs a')) {
    a.classList.toggle('current', a.dataset.view === current);
    a.addEventListener('click', (e) => {
      e.preventDefault();
      current = a.dataset.view!;
      history.pushState(null, '', `?view=${current}`);
      for (const k of query.keys()) query.delete(k);
      render();
    });
  }
  const render = () => {
    for (const a of document.querySelectorAll<HTMLAnchorElement>('#tabs a'))
      a.classList.toggle('current', a.dataset.view === current);
    leaveView?.();
    leaveView = null;
    main.replaceChildren();
    const root = el('div', { class: `view view-${current}`, id: `view-${current}` });
    main.append(root);
    VIEWS[current](root);
  };
  window.addEventListener('popstate', () => location.reload());
  render();
}

start();
