// The Edit view: a dungeon.def or NetHack 3.7 dungeon.lua in CodeMirror,
// checked by dgnkit's language server (`lsp.ts`), or by `dgn check` through
// the API without it, with the file's layout for the seed beside it.
import { Compartment, EditorState, type Extension } from '@codemirror/state';
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
import { looksLikeLua, readKept, writeKept } from '../kept';
import { client, connect, settings, type Connection } from '../lsp';
import { ownKind, sampleFor } from '../samples';
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
  const notice = el('div', { class: 'kept', id: 'edit-kept', role: 'status' });
  const file = fileTools();
  root.append(
    el('p', {
      class: 'intro',
      text: "A dungeon.def or NetHack 3.7 dungeon.lua with dgnkit's language server: diagnostics as you type, hovers with each level's depths and bones, formatting; and its layout for the seed. Your edits are kept in this browser, per game and kind of file.",
    }),
    c.f.form,
    el(
      'div',
      { class: 'split' },
      el('section', {}, notice, file.tools, editorBox),
      el('section', {}, el('h2', { text: 'Layout' }), c.preview),
    ),
  );
  const refreshPreview = previewer(c);
  // The language server's plugin, or the API's linter: never both.
  const slot = new Compartment();
  let diagnostics: Diagnostics | undefined;
  const docs = new Documents(
    c,
    editorBox,
    notice,
    slot,
    () => diagnostics?.current() ?? [],
    (text) => refreshPreview(text),
  );
  const view = docs.view;
  refreshPreview(view.state.doc.toString());
  diagnostics = new Diagnostics(c, view, slot);
  diagnostics.start();
  c.format.addEventListener('click', () => {
    formatDocument(view);
    view.focus();
  });
  const again = () => {
    const p = gameParams(c.f);
    setQuery({ name: c.kind.value, game: p.target, seed: p.seed, role: p.role, wizard: p.wizard });
    file.named(c.kind.value);
    diagnostics?.retarget();
    refreshPreview(view.state.doc.toString());
  };
  // The text shown is the one kept for the game and kind chosen (an edit
  // follows the game when that game has none of its own).
  // A game chosen over its sample untouched brings its own description,
  // of its own kind (xNetHack's dungeon.lua, dNetHack's dungeon.def).
  c.f.target.addEventListener('change', () => {
    const game = c.f.target.value;
    if (docs.unedited() && !readKept('kept', game, c.kind.value)) c.kind.value = ownKind(game);
    docs.show(game, c.kind.value);
  });
  c.kind.addEventListener('change', () => {
    pairGame(c, games);
    docs.show(c.f.target.value, c.kind.value);
  });
  c.f.form.addEventListener('change', again);
  onSubmit(c.f.form, again);
  file.named(c.kind.value);
  file.download.addEventListener('click', () => download(view.state.doc.toString(), c.kind.value));
  file.open.addEventListener('click', () => file.input.click());
  file.input.addEventListener('change', async () => {
    const f = file.input.files?.[0];
    file.input.value = '';
    if (!f) return;
    const text = await f.text();
    if (text.includes('\0')) {
      docs.say(
        `“${f.name}” is a compiled file, not text: the editor takes a dungeon.def or a dungeon.lua.`,
      );
      return;
    }
    const kind = /\.lua$/i.test(f.name)
      ? 'dungeon.lua'
      : /\.def$/i.test(f.name)
        ? 'dungeon.def'
        : looksLikeLua(text)
          ? 'dungeon.lua'
          : 'dungeon.def';
    if (kind !== c.kind.value) {
      c.kind.value = kind;
      pairGame(c, games);
    }
    docs.show(c.f.target.value, c.kind.value);
    docs.open(f.name, text);
    again();
  });
  const flush = () => docs.flush();
  window.addEventListener('pagehide', flush);
  return () => {
    docs.flush();
    window.removeEventListener('pagehide', flush);
    // The editor first: its language server plugin says `didClose` on the
    // way out, which needs the connection still open.
    view.destroy();
    diagnostics?.leave();
  };
}

/** The text `game`'s editor starts from for a kind of file. */
function sampleOf(game: string, kind: string): string {
  return sampleFor(game, kind).text;
}

/** What the built-in sample of `game` for a kind of file is. */
function sampleName(game: string, kind: string): string {
  const s = sampleFor(game, kind);
  return ownKind(game) === kind
    ? `dgnkit's description of ${game}'s own ${kind} (corpus/${s.file})`
    : `NetHack's ${kind} (corpus/${s.file}): ${game}'s own is a ${ownKind(game)}`;
}

/** Download and Open, above the editor. */
function fileTools(): {
  tools: HTMLElement;
  download: HTMLButtonElement;
  open: HTMLButtonElement;
  input: HTMLInputElement;
  named: (kind: string) => void;
} {
  const download = el('button', { type: 'button', id: 'edit-download', class: 'secondary' });
  const open = el('button', {
    type: 'button',
    id: 'edit-open',
    class: 'secondary',
    text: 'Open a file…',
    title: 'Load a dungeon.def or dungeon.lua from this computer into the editor',
  });
  const input = el('input', {
    type: 'file',
    id: 'edit-file',
    accept: '.def,.lua,.txt,text/plain',
    hidden: '',
  });
  const named = (kind: string) => {
    download.textContent = `Download ${kind}`;
    download.title = `Save the text shown as ${kind}`;
  };
  return {
    tools: el('p', { class: 'file-tools' }, download, ' ', open, input),
    download,
    open,
    input,
    named,
  };
}

/** Saves `text` as a file named `name`. */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = el('a', { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The editor and the texts it shows: for each game and kind of file, the
 * edit kept in this browser (`kept.ts`), else the built-in sample; each
 * change is kept as it is made, and the notice above the editor says
 * which of the two is shown.
 */
class Documents {
  readonly view: EditorView;
  /** The game and the kind of file the text shown is kept under. */
  private game: string;
  private kind: string;
  /** Why the browser does not keep the text, when it refused. */
  private refused: string | null = null;
  /** A message about the last file opened, when it could not be. */
  private said = '';

  constructor(
    c: Controls,
    parent: HTMLElement,
    private readonly notice: HTMLElement,
    private readonly slot: Compartment,
    private readonly checker: () => Extension,
    private readonly changed: (text: string) => void,
  ) {
    this.game = c.f.target.value;
    this.kind = c.kind.value;
    const kept = readKept('kept', this.game, this.kind);
    this.view = new EditorView({
      parent,
      state: this.state(kept?.text ?? sampleOf(this.game, this.kind), []),
    });
    (window as unknown as { dgnEditor: EditorView }).dgnEditor = this.view;
    this.describe();
  }

  private state(doc: string, checker: Extension): EditorState {
    return EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        undoHistory(),
        drawSelection(),
        highlightActiveLine(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        lintGutter(),
        this.slot.of(checker),
        EditorView.lineWrapping,
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          const text = u.state.doc.toString();
          this.keep(text);
          this.describe();
          this.changed(text);
        }),
      ],
    });
  }

  private text(): string {
    return this.view.state.doc.toString();
  }

  /** Whether the text shown is the built-in sample, untouched. */
  unedited(): boolean {
    return this.text() === sampleOf(this.game, this.kind);
  }

  /** Keeps `text` as the edit of the game and kind shown (the sample is not an edit). */
  private keep(text: string): void {
    this.refused = writeKept(
      'kept',
      this.game,
      this.kind,
      text === sampleOf(this.game, this.kind) ? null : text,
    );
  }

  /** Keeps the text shown once more (as the view or the page goes). */
  flush(): void {
    this.keep(this.text());
  }

  /**
   * Shows the text of `game` and `kind`. An edit follows a change of game
   * when that game has no edit of its own, and a change of kind when it
   * reads as the other kind (a dungeon.lua pasted as a dungeon.def);
   * otherwise it stays kept where it was.
   */
  show(game: string, kind: string): void {
    if (game === this.game && kind === this.kind) return;
    const text = this.text();
    const edited = text !== sampleOf(this.game, this.kind);
    const there = readKept('kept', game, kind);
    const fits = kind === this.kind || looksLikeLua(text) === (kind === 'dungeon.lua');
    if (edited && !there && fits) {
      writeKept('kept', this.game, this.kind, null);
      [this.game, this.kind] = [game, kind];
      this.keep(text);
      this.describe();
      return;
    }
    this.keep(text);
    [this.game, this.kind] = [game, kind];
    this.replace(there?.text ?? sampleOf(game, kind));
  }

  /** A new document: its own undo history, checked as the kind it is. */
  private replace(doc: string): void {
    this.view.setState(this.state(doc, this.checker()));
    this.keep(doc);
    this.describe();
    this.changed(doc);
  }

  /** Replaces the text, as one step undo takes back. */
  private set(text: string): void {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
  }

  /** A file opened: it replaces the text, an edit shown before is put aside. */
  open(name: string, text: string): void {
    this.said = '';
    const shown = this.text();
    if (shown !== sampleOf(this.game, this.kind) && shown !== text) this.putAside(shown);
    this.set(text);
    this.said = `Opened “${name}”.`;
    this.describe();
  }

  /** The built-in sample again, the edit put aside (and offered back). */
  toSample(): void {
    this.putAside(this.text());
    this.set(sampleOf(this.game, this.kind));
    this.view.focus();
  }

  /** The edit put aside back, the edit shown (if any) put aside in its place. */
  restore(): void {
    const aside = readKept('aside', this.game, this.kind);
    if (!aside) return;
    const shown = this.text();
    writeKept(
      'aside',
      this.game,
      this.kind,
      shown === sampleOf(this.game, this.kind) ? null : shown,
    );
    this.set(aside.text);
    this.view.focus();
  }

  private putAside(text: string): void {
    const why = writeKept('aside', this.game, this.kind, text);
    if (why) this.refused = why;
  }

  /** A message about a file that could not be opened. */
  say(message: string): void {
    this.said = message;
    this.describe();
  }

  /** The notice: which text is shown, and the way to the other. */
  private describe(): void {
    const edited = this.text() !== sampleOf(this.game, this.kind);
    const parts: (Node | string)[] = [];
    if (this.said) parts.push(`${this.said} `);
    if (edited) {
      const kept = readKept('kept', this.game, this.kind);
      parts.push(
        el('strong', { text: 'Your edit' }),
        ` of ${this.kind} for ${this.game} is shown, not the built-in sample`,
        kept ? `; it is kept in this browser (saved at ${clock(kept.saved)}).` : '.',
        ' ',
        button(
          'edit-to-sample',
          'Show the built-in sample',
          'Your edit is put aside, to bring back',
          () => this.toSample(),
        ),
      );
    } else {
      parts.push(`The built-in sample is shown: ${sampleName(this.game, this.kind)}.`);
    }
    if (readKept('aside', this.game, this.kind))
      parts.push(
        ' ',
        button(
          'edit-restore',
          'Bring back the edit put aside',
          edited ? 'The edit shown is put aside in its place' : '',
          () => this.restore(),
        ),
      );
    if (this.refused)
      parts.push(
        el('span', {
          class: 'bad',
          text: ` This browser does not keep the text (${this.refused}): download it to keep it.`,
        }),
      );
    this.notice.classList.toggle('edited', edited);
    this.notice.dataset.shown = edited ? 'edit' : 'sample';
    this.notice.replaceChildren(...parts);
  }
}

function button(id: string, text: string, title: string, go: () => void): HTMLButtonElement {
  const b = el('button', { type: 'button', id, class: 'secondary', text });
  if (title) b.title = title;
  b.addEventListener('click', go);
  return b;
}

/** A time of day, `10:32:05`. */
function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

function controls(games: Games): Controls {
  const f = gameForm(games);
  // The game's own kind of file unless the URL names one.
  const kind = select(
    'kind',
    ['dungeon.def', 'dungeon.lua'],
    query.get('name') ?? ownKind(f.target.value),
  );
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

  /**
   * What a new document of the kind chosen is checked with: the server's
   * plugin for it, the API's linter, or nothing while the server starts.
   */
  current(): Extension {
    if (this.server) {
      this.uri = uriOf(this.c);
      return this.server.plugin(this.uri);
    }
    return this.c.status.dataset.source === 'api' ? this.checkSource : [];
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
 * A dungeon.lua is NetHack 3.7's unless a game that reads one (`/api`'s
 * LuaGame) is chosen; a dungeon.def is NetHack 3.6's rather than 3.7's.
 */
function pairGame(c: Controls, games: Games): void {
  const lua = c.kind.value === 'dungeon.lua';
  if (lua && !games.lua.includes(c.f.target.value)) c.f.target.value = LUA_GAME;
  if (!lua && c.f.target.value === LUA_GAME) c.f.target.value = DEFAULT_GAME;
}
