// The Edit view: a dungeon.def or NetHack 3.7 dungeon.lua in CodeMirror,
// checked by dgnkit's language server (`lsp.ts`), or by `dgn check` through
// the API without it, with the file's layout for the seed beside it.
import { Compartment, EditorState, Transaction, type Extension } from '@codemirror/state';
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
import { api, type Games } from '../api';
import { el, errorBox, field, onSubmit, select, svgImage } from '../dom';
import { client, connect, settings, type Connection } from '../lsp';
import { SAMPLE_DEF, SAMPLE_LUA } from '../samples';
import { query, setQuery } from '../url';
import { DEFAULT_GAME, gameForm, gameParams, type GameForm } from './common';

/** The game a dungeon.lua is checked as unless one that reads it is chosen. */
const LUA_GAME = 'nethack-3.7';

/** The Edit view's controls. */
interface Controls {
  f: GameForm;
  /** The kind of file: `dungeon.def` or `dungeon.lua`. */
  kind: HTMLSelectElement;
  format: HTMLButtonElement;
  status: HTMLSpanElement;
  preview: HTMLElement;
}

export function editView(root: HTMLElement, games: Games): () => void {
  const c = controls(games);
  const editorBox = el('div', { class: 'editor', id: 'editor' });
  root.append(
    el('p', {
      class: 'intro',
      text: "A dungeon.def or NetHack 3.7 dungeon.lua with dgnkit's language server: diagnostics as you type, hovers with each level's depths and bones, formatting; and its layout for the seed.",
    }),
    c.f.form,
    el(
      'div',
      { class: 'split' },
      el('section', {}, editorBox),
      el('section', {}, el('h2', { text: 'Layout' }), c.preview),
    ),
  );
  const refreshPreview = previewer(c);
  // The language server's plugin, or the API's linter: never both.
  const slot = new Compartment();
  const view = editor(editorBox, c.kind.value, slot, refreshPreview);
  refreshPreview(view.state.doc.toString());
  const diagnostics = new Diagnostics(c, view, slot);
  diagnostics.start();
  c.format.addEventListener('click', () => {
    formatDocument(view);
    view.focus();
  });
  const again = () => {
    const p = gameParams(c.f);
    setQuery({ name: c.kind.value, game: p.target, seed: p.seed, role: p.role, wizard: p.wizard });
    diagnostics.retarget();
    refreshPreview(view.state.doc.toString());
  };
  c.kind.addEventListener('change', () => switchKind(c, view, games));
  c.f.form.addEventListener('change', again);
  onSubmit(c.f.form, again);
  return () => {
    // The editor first: its language server plugin says `didClose` on the
    // way out, which needs the connection still open.
    view.destroy();
    diagnostics.leave();
  };
}

function controls(games: Games): Controls {
  const f = gameForm(games);
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
  const preview = el('div', { class: 'preview', id: 'preview' });
  return { f, kind, format, status, preview };
}

/** Redraws the layout of a text 400 ms after it last changed. */
function previewer(c: Controls): (text: string) => void {
  let timer = 0;
  return (text: string) => {
    clearTimeout(timer);
    timer = window.setTimeout(async () => {
      const a = await api('layout', {
        text,
        name: c.kind.value,
        ...gameParams(c.f),
        format: 'svg',
      });
      c.preview.replaceChildren(a.ok ? svgImage(a.text, 'the layout') : errorBox(a));
    }, 400);
  };
}

/**
 * The editor, starting from the sample of `kind`, its diagnostics in `slot`;
 * `changed` sees each new text.
 */
function editor(
  parent: HTMLElement,
  kind: string,
  slot: Compartment,
  changed: (text: string) => void,
): EditorView {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: kind === 'dungeon.lua' ? SAMPLE_LUA : SAMPLE_DEF,
      extensions: [
        lineNumbers(),
        undoHistory(),
        drawSelection(),
        highlightActiveLine(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        lintGutter(),
        slot.of([]),
        EditorView.lineWrapping,
        EditorView.updateListener.of((u) => {
          if (u.docChanged) changed(u.state.doc.toString());
        }),
      ],
    }),
  });
  (window as unknown as { dgnEditor: EditorView }).dgnEditor = view;
  return view;
}

/**
 * Where the diagnostics come from: the language server while it serves;
 * without it (it is busy, or the connection failed or closed), `dgn check`
 * through the API.
 */
class Diagnostics {
  private server: LSPClient | null = null;
  private leaveServer: (() => void) | null = null;
  /** The document the server checks: one per kind of file. */
  private uri = '';
  private readonly checkSource: Extension;

  constructor(
    private readonly c: Controls,
    private readonly view: EditorView,
    private readonly slot: Compartment,
  ) {
    this.checkSource = apiLinter(c);
  }

  start(): void {
    void connect(5000).then((conn) => {
      if (!this.view.dom.isConnected) {
        if (!('failed' in conn)) conn.leave();
        return;
      }
      if ('failed' in conn) this.useApi(conn.failed);
      else this.serve(conn);
    });
  }

  /** After the form changed: the game chosen, and the kind of file as the document. */
  retarget(): void {
    if (this.server) {
      this.server.notification('workspace/didChangeConfiguration', {
        settings: settings(this.c.f.target.value),
      });
      if (uriOf(this.c) !== this.uri) this.useServer(this.server);
    } else if (this.c.status.dataset.source === 'api') forceLinting(this.view);
  }

  leave(): void {
    this.server = null;
    this.leaveServer?.();
  }

  private serve(conn: Exclude<Connection, { failed: string }>): void {
    this.leaveServer = conn.leave;
    const s = client(conn.transport, this.c.f.target.value, (u, diags) => {
      if (u === this.uri)
        showCounts(
          this.c.status,
          diags.map((d) => ((d.severity ?? 1) === 1 ? 'error' : 'other')),
        );
    });
    this.server = s;
    const fail = (why: string) => {
      if (this.server !== s) return;
      s.disconnect();
      conn.socket.close();
      this.useApi(why);
    };
    conn.socket.addEventListener('close', () => fail('the connection closed'));
    s.initializing.catch(() => fail('the language server did not start'));
    this.c.status.dataset.source = 'lsp';
    this.c.status.textContent = 'Checking…';
    this.c.format.disabled = false;
    this.useServer(s);
  }

  private useServer(s: LSPClient): void {
    this.uri = uriOf(this.c);
    this.view.dispatch({ effects: this.slot.reconfigure(s.plugin(this.uri)) });
  }

  private useApi(why: string): void {
    this.server = null;
    this.c.status.dataset.source = 'api';
    this.c.format.disabled = true;
    this.c.format.title = `Formatting needs the language server (${why})`;
    this.view.dispatch({ effects: this.slot.reconfigure(this.checkSource) });
  }
}

function uriOf(c: Controls): string {
  return `untitled:${c.kind.value}`;
}

/** The status line's counts, and the error count for the page's tests. */
function showCounts(status: HTMLElement, severities: ('error' | 'other')[]): void {
  const errors = severities.filter((s) => s === 'error').length;
  status.textContent = `${errors} error${errors === 1 ? '' : 's'}, ${severities.length - errors} other`;
  status.dataset.errors = String(errors);
}

interface CheckedFile {
  diagnostics: { start: number; end: number; severity: string; message: string; code: string }[];
}

/** `dgn check` through the API as the editor's linter. */
function apiLinter(c: Controls): Extension {
  return linter(
    async (view) => {
      const text = view.state.doc.toString();
      const a = await api('check', {
        text,
        name: c.kind.value,
        target: c.f.target.value,
        format: 'json',
      });
      if (!a.ok) {
        c.status.textContent = a.error ?? 'check failed';
        return [];
      }
      const files = JSON.parse(a.text).files as CheckedFile[];
      const diags = toDiagnostics(text, files[0]?.diagnostics ?? []);
      showCounts(
        c.status,
        diags.map((d) => (d.severity === 'error' ? 'error' : 'other')),
      );
      return diags;
    },
    { delay: 300 },
  );
}

/** `dgn check`'s diagnostics (byte spans) as the editor's (string offsets). */
function toDiagnostics(text: string, found: CheckedFile['diagnostics']): Diagnostic[] {
  const toChar = byteToChar(text);
  return found.map((d) => {
    const from = toChar(d.start);
    return {
      from,
      to: Math.max(from, toChar(d.end)),
      severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
      message: `${d.code}: ${d.message}`,
    };
  });
}

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

/**
 * Choosing the other kind of file starts from its sample while the text is
 * still the other sample; a dungeon.lua is NetHack 3.7's unless a game that
 * reads one (`/api`'s LuaGame) is chosen.
 */
function switchKind(c: Controls, view: EditorView, games: Games): void {
  const text = view.state.doc.toString();
  const lua = c.kind.value === 'dungeon.lua';
  if (text === SAMPLE_DEF || text === SAMPLE_LUA) {
    // Not an edit of the file: undo must not bring one kind's sample back
    // under the other's name.
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: lua ? SAMPLE_LUA : SAMPLE_DEF },
      annotations: Transaction.addToHistory.of(false),
    });
  }
  if (lua && !games.lua.includes(c.f.target.value)) c.f.target.value = LUA_GAME;
  if (!lua && c.f.target.value === LUA_GAME) c.f.target.value = DEFAULT_GAME;
}
