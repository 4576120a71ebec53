// dgnkit's language server for the Edit view, over `dgn serve`'s `/lsp`
// WebSocket (one JSON-RPC message per text message): the same server
// editors run (`dgn-lsp`), sandboxed, so the page gets its diagnostics,
// hovers (each level's depths and bones) and formatting.
import { keymap } from '@codemirror/view';
import {
  LSPClient,
  hoverTooltips,
  formatKeymap,
  serverDiagnostics,
  type Transport,
} from '@codemirror/lsp-client';

/**
 * A connection that is open, or the reason there is none. `leave` closes
 * it on purpose: what the client still sends (its `didClose` as the
 * editor goes) is then dropped, not thrown.
 */
export type Connection =
  { transport: Transport; socket: WebSocket; leave: () => void } | { failed: string };

/** Opens `/lsp`; gives up after `timeoutMs` (the page then checks through the API). */
export function connect(timeoutMs: number): Promise<Connection> {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`;
  let socket: WebSocket;
  try {
    socket = new WebSocket(url);
  } catch (e) {
    return Promise.resolve({ failed: String(e) });
  }
  let handlers: ((value: string) => void)[] = [];
  let left = false;
  socket.onmessage = (e) => {
    if (typeof e.data === 'string') for (const h of handlers) h(e.data);
  };
  const transport: Transport = {
    send(message) {
      if (left) return;
      // The client takes a throw for a broken connection.
      if (socket.readyState !== WebSocket.OPEN)
        throw new Error('the language server connection is closed');
      socket.send(message);
    },
    subscribe(h) {
      handlers.push(h);
    },
    unsubscribe(h) {
      handlers = handlers.filter((x) => x !== h);
    },
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.close();
      resolve({ failed: 'the language server did not answer' });
    }, timeoutMs);
    socket.onopen = () => {
      clearTimeout(timer);
      const leave = () => {
        left = true;
        socket.close();
      };
      resolve({ transport, socket, leave });
    };
    socket.onerror = () => {
      clearTimeout(timer);
      resolve({ failed: 'the language server cannot be reached' });
    };
    socket.onclose = () => {
      clearTimeout(timer);
      resolve({ failed: 'the language server closed the connection' });
    };
  });
}

const ALLOWED = new Set([
  'P',
  'STRONG',
  'EM',
  'CODE',
  'PRE',
  'UL',
  'OL',
  'LI',
  'HR',
  'BR',
  'SPAN',
  'H1',
  'H2',
  'H3',
  'H4',
  'BLOCKQUOTE',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'DEL',
]);

/**
 * The hovers' Markdown quotes the document (level and dungeon names), and
 * Markdown passes HTML through: only the markup Markdown itself makes is
 * kept, as text for anything else, with no attributes but `class`.
 */
export function sanitize(html: string): string {
  const t = document.createElement('template');
  t.innerHTML = html;
  const walk = (node: ParentNode) => {
    for (const child of Array.from(node.children)) {
      if (!ALLOWED.has(child.tagName)) {
        child.replaceWith(document.createTextNode(child.textContent ?? ''));
        continue;
      }
      for (const a of Array.from(child.attributes))
        if (a.name !== 'class') child.removeAttribute(a.name);
      walk(child);
    }
  };
  walk(t.content);
  return t.innerHTML;
}

/** The settings the server checks with: the page's game, for either kind of file. */
export function settings(target: string): { dgnkit: { target: string; luaTarget: string } } {
  return { dgnkit: { target, luaTarget: target } };
}

/**
 * A client over `transport`. `onDiagnostics` sees each publication for the
 * document's current version (its diagnostics with their codes in front,
 * as `dgn check` prints them) before the editor shows it.
 */
export function client(
  transport: Transport,
  target: string,
  onDiagnostics: (uri: string, diags: { severity?: number }[]) => void,
): LSPClient {
  const c: LSPClient = new LSPClient({
    initializationOptions: settings(target),
    sanitizeHTML: sanitize,
    timeout: 10000,
    notificationHandlers: {
      'textDocument/publishDiagnostics': (
        _client,
        params: {
          uri: string;
          version?: number;
          diagnostics: { code?: string | number; message: string; severity?: number }[];
        },
      ) => {
        const file = c.workspace.getFile(params.uri);
        if (!file || (params.version != null && params.version !== file.version)) return false;
        for (const d of params.diagnostics)
          if (d.code != null) d.message = `${d.code}: ${d.message}`;
        onDiagnostics(params.uri, params.diagnostics);
        // The editor's own handler (serverDiagnostics) shows them.
        return false;
      },
    },
    extensions: [serverDiagnostics(), hoverTooltips({ hoverTime: 300 }), keymap.of(formatKeymap)],
  });
  return c.connect(transport);
}
