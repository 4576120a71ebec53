// End to end: the real dgn-lsp binary, driven over stdio by the LSP client
// library VS Code's own client is built on. It opens NetHack 3.6's
// dungeon.def, edits it incrementally, asks for hover and definition, sends
// malformed and unknown messages, and shuts the server down.
//
// The binary: $DGN_LSP, else debug/dgn-lsp in the checkout's Cargo target
// directory (as `cargo metadata` reports it; build it with
// `cargo build -p dgnkit-lsp`). Without it the test is skipped, unless
// DGN_LSP is set or DGNKIT_REQUIRE_LSP=1, where its absence is a failure.

import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  type Hover,
  InitializeRequest,
  type InitializeResult,
  InitializedNotification,
  type Location,
  type LocationLink,
  type Position,
  type Range,
  ResponseError,
  ShutdownRequest,
  TextDocumentSyncKind,
} from 'vscode-languageserver-protocol/node';
import { cargoTargetDir, sharedCorpus } from '../../tools/paths';
import { LspSession, errors, within } from './session';

const SETTINGS = {
  target: 'nethack-3.6',
  dialect: 'vanilla',
  defines: [] as string[],
  undefines: [] as string[],
};
const STEP_MS = 30_000;

type ServerLookup = { ok: true; path: string } | { ok: false; skip: string };

function serverBinary(): ServerLookup {
  const fromEnv = process.env.DGN_LSP;
  const file =
    fromEnv !== undefined && fromEnv !== ''
      ? path.resolve(fromEnv)
      : path.join(cargoTargetDir(), 'debug', 'dgn-lsp');
  try {
    accessSync(file, constants.X_OK);
    return { ok: true, path: file };
  } catch {
    if ((fromEnv !== undefined && fromEnv !== '') || process.env.DGNKIT_REQUIRE_LSP === '1') {
      throw new Error(
        `dgn-lsp not found at ${file} (DGN_LSP=${fromEnv ?? ''}); build it with: cargo build -p dgnkit-lsp`,
      );
    }
    return {
      ok: false,
      skip: `skipping: ${file} is absent; build it with: cargo build -p dgnkit-lsp (or set DGN_LSP)`,
    };
  }
}

/** Position (UTF-16 columns, as LSP counts them) of `needle` on the first line matching `line`. */
function find(text: string, line: RegExp, needle: string, occurrence = 1): Position {
  const lines = text.split(/\r?\n/);
  const n = lines.findIndex((l) => line.test(l));
  assert.ok(n >= 0, `no line matches ${line}`);
  let character = -1;
  for (let i = 0; i < occurrence; i++) {
    character = lines[n]!.indexOf(needle, character + 1);
    assert.ok(character >= 0, `${JSON.stringify(needle)} not found on line ${n + 1}: ${lines[n]}`);
  }
  return { line: n, character };
}

function offsetAt(text: string, pos: Position): number {
  let offset = 0;
  for (let line = 0; line < pos.line; line++) {
    const nl = text.indexOf('\n', offset);
    assert.ok(nl >= 0, `line ${pos.line} is past the end`);
    offset = nl + 1;
  }
  return offset + pos.character;
}

/** Applies one incremental change the way the server must. */
function applyChange(text: string, range: Range, newText: string): string {
  return (
    text.slice(0, offsetAt(text, range.start)) + newText + text.slice(offsetAt(text, range.end))
  );
}

function hoverText(hover: Hover): string {
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts.map((p) => (typeof p === 'string' ? p : p.value)).join('\n');
}

function locations(
  result: Location | Location[] | LocationLink[] | null,
): Array<{ uri: string; range: Range }> {
  if (result === null) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) =>
    'targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l,
  );
}

function contains(range: Range, pos: Position): boolean {
  const afterStart =
    pos.line > range.start.line ||
    (pos.line === range.start.line && pos.character >= range.start.character);
  const beforeEnd =
    pos.line < range.end.line ||
    (pos.line === range.end.line && pos.character <= range.end.character);
  return afterStart && beforeEnd;
}

function syncKind(result: InitializeResult): number | undefined {
  const sync = result.capabilities.textDocumentSync;
  return typeof sync === 'number' ? sync : sync?.change;
}

const corpus = sharedCorpus();
const server = serverBinary();
const skip = !corpus.ok ? corpus.skip : !server.ok ? server.skip : false;

describe('dgn-lsp over stdio', { skip }, () => {
  if (!corpus.ok || !server.ok) return;
  const file = path.join(corpus.corpus, 'NetHack__NetHack', 'dungeon.def');
  const uri = pathToFileURL(file).href;
  let text = readFileSync(file, 'utf8');
  let version = 1;
  let session: LspSession;
  let init: InitializeResult;

  before(async () => {
    session = new LspSession(server.path);
    session.connection.onRequest(
      'workspace/configuration',
      (params: { items: Array<{ section?: string }> }) =>
        params.items.map((item) => (item.section === 'dgnkit' ? SETTINGS : null)),
    );
    session.connection.onRequest('client/registerCapability', () => null);
    session.connection.onRequest('client/unregisterCapability', () => null);
    session.connection.onRequest('window/workDoneProgress/create', () => null);
    session.connection.onRequest('workspace/semanticTokens/refresh', () => null);
    session.connection.onRequest('workspace/inlayHint/refresh', () => null);
    session.connection.onRequest('workspace/diagnostic/refresh', () => null);
    init = await within(
      session.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'dgnkit-e2e', version: '0.1.0' },
        rootUri: pathToFileURL(path.dirname(file)).href,
        workspaceFolders: [
          { uri: pathToFileURL(path.dirname(file)).href, name: 'NetHack__NetHack' },
        ],
        initializationOptions: SETTINGS,
        capabilities: {
          general: { positionEncodings: ['utf-16'] },
          workspace: {
            configuration: true,
            didChangeConfiguration: { dynamicRegistration: false },
          },
          textDocument: {
            synchronization: { didSave: true, dynamicRegistration: false },
            publishDiagnostics: {
              relatedInformation: true,
              versionSupport: true,
              codeDescriptionSupport: true,
            },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            definition: { linkSupport: true },
          },
        },
      }),
      STEP_MS,
      'the initialize response',
      session,
    );
    await session.connection.sendNotification(InitializedNotification.type, {});
    await session.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { dgnkit: SETTINGS },
    });
  });

  after(() => session?.dispose());

  it('initializes with incremental sync, hover and definition', () => {
    assert.equal(
      syncKind(init),
      TextDocumentSyncKind.Incremental,
      `textDocumentSync: ${JSON.stringify(init.capabilities.textDocumentSync)}`,
    );
    assert.ok(init.capabilities.hoverProvider, 'no hoverProvider');
    assert.ok(init.capabilities.definitionProvider, 'no definitionProvider');
    const encoding = init.capabilities.positionEncoding;
    assert.ok(encoding === undefined || encoding === 'utf-16', `positionEncoding ${encoding}`);
  });

  it(
    'publishes diagnostics for the opened file, with no errors',
    { timeout: STEP_MS * 2 },
    async () => {
      await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'dungeon-def', version, text },
      });
      const published = await session.waitForDiagnostics(
        uri,
        (p) => p.version === undefined || p.version === version,
        STEP_MS,
      );
      assert.deepEqual(
        errors(published.diagnostics).map(
          (d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}: ${d.message}`,
        ),
        [],
        'NetHack 3.6 compiles this file: it must have no errors',
      );
    },
  );

  it(
    'reports a bad bones marker after an incremental edit, at the marker',
    { timeout: STEP_MS * 2 },
    async () => {
      // "D" (the Dungeons of Doom's bones letter) becomes "XX".
      const quote = find(text, /^DUNGEON:\s*"The Dungeons of Doom"/, '"D"');
      const inner: Range = {
        start: { line: quote.line, character: quote.character + 1 },
        end: { line: quote.line, character: quote.character + 2 },
      };
      const seen = session.diagnosticCount(uri);
      text = applyChange(text, inner, 'XX');
      version++;
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ range: inner, text: 'XX' }],
      });
      const published = await session.waitForDiagnostics(
        uri,
        (p) =>
          (p.version === undefined || p.version === version) && errors(p.diagnostics).length > 0,
        STEP_MS,
        seen,
      );
      const onLine = errors(published.diagnostics).filter((d) => d.range.start.line === quote.line);
      assert.equal(
        onLine.length,
        1,
        `expected one error on line ${quote.line + 1}, got ${JSON.stringify(published.diagnostics)}`,
      );
      const d = onLine[0]!;
      // The marker with its quotes ("XX": 4 columns) or without them (XX: 2 columns).
      const exact = [quote.character, quote.character + 4];
      const inside = [quote.character + 1, quote.character + 3];
      const got = [d.range.start.character, d.range.end.character];
      assert.equal(d.range.end.line, quote.line);
      assert.ok(
        (got[0] === exact[0] && got[1] === exact[1]) ||
          (got[0] === inside[0] && got[1] === inside[1]),
        `error range ${JSON.stringify(d.range)} is not the bones marker "XX" at columns ${exact[0]}..${exact[1]}: ${d.message}`,
      );
      assert.match(d.message, /bones/i);
      assert.ok(d.code !== undefined && d.code !== '', 'a diagnostic has a stable code');
      assert.equal(
        errors(published.diagnostics).length,
        1,
        `only the marker is wrong: ${JSON.stringify(errors(published.diagnostics))}`,
      );
    },
  );

  it('clears the error when the edit is undone', { timeout: STEP_MS * 2 }, async () => {
    const quote = find(text, /^DUNGEON:\s*"The Dungeons of Doom"/, '"XX"');
    const inner: Range = {
      start: { line: quote.line, character: quote.character + 1 },
      end: { line: quote.line, character: quote.character + 3 },
    };
    const seen = session.diagnosticCount(uri);
    text = applyChange(text, inner, 'D');
    version++;
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range: inner, text: 'D' }],
    });
    const published = await session.waitForDiagnostics(
      uri,
      (p) => p.version === undefined || p.version === version,
      STEP_MS,
      seen,
    );
    assert.deepEqual(errors(published.diagnostics), []);
    assert.equal(text, readFileSync(file, 'utf8'), 'the two edits cancel out');
  });

  it('hovers on a special level name', { timeout: STEP_MS }, async () => {
    const pos = find(text, /^LEVEL:\s*"oracle"/, 'oracle');
    const position = { line: pos.line, character: pos.character + 2 };
    const hover = await within(
      session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }),
      STEP_MS,
      'hover on "oracle"',
      session,
    );
    assert.ok(hover !== null, 'hover on a level name returned nothing');
    const content = hoverText(hover);
    assert.ok(content.trim().length > 0, 'hover content is empty');
    // The Oracle is placed at 5..9 of the Dungeons of Doom: a hover that tells
    // where the level can be shows at least one of those depths.
    assert.match(content, /[5-9]/, `hover does not mention a depth: ${content}`);
    if (hover.range !== undefined)
      assert.ok(
        contains(hover.range, position),
        `hover range ${JSON.stringify(hover.range)} misses the cursor`,
      );
  });

  it('goes from a chain reference to the LEVEL that defines it', { timeout: STEP_MS }, async () => {
    const ref = find(text, /^CHAINLEVEL:\s*"wizard2"/, '"wizard1"');
    const target = find(text, /^LEVEL:\s*"wizard1"/, 'wizard1');
    const result = await within(
      session.connection.sendRequest(DefinitionRequest.type, {
        textDocument: { uri },
        position: { line: ref.line, character: ref.character + 3 },
      }),
      STEP_MS,
      'definition of "wizard1"',
      session,
    );
    const locs = locations(result);
    assert.equal(locs.length, 1, `definition: ${JSON.stringify(result)}`);
    assert.equal(locs[0]!.uri, uri);
    assert.ok(
      contains(locs[0]!.range, target),
      `definition ${JSON.stringify(locs[0]!.range)} does not cover "wizard1" on line ${target.line + 1} (LEVEL: "wizard1" ...)`,
    );
    assert.notEqual(locs[0]!.range.start.line, ref.line, 'definition points back at the reference');
  });

  it(
    'answers malformed JSON with a parse error and keeps running',
    { timeout: STEP_MS },
    async () => {
      const from = session.raw.messages.length;
      session.writeFramed('{"jsonrpc": "2.0", "id": 9001, "method": ');
      const reply = await session.raw.waitFor(
        (m) => m.error !== undefined && (m.id === null || m.id === 9001),
        10_000,
        'a parse error response',
        from,
      );
      assert.equal(
        reply.error!.code,
        -32700,
        `expected Parse error (-32700): ${JSON.stringify(reply)}`,
      );
      assert.ok(!session.exited, session.describe());
    },
  );

  it(
    'answers a message that is not a request with Invalid Request and keeps running',
    { timeout: STEP_MS },
    async () => {
      const from = session.raw.messages.length;
      session.writeFramed('{"jsonrpc": "2.0", "id": 9002, "method": 42}');
      const reply = await session.raw.waitFor(
        (m) => m.error !== undefined && (m.id === null || m.id === 9002),
        10_000,
        'an error response',
        from,
      );
      assert.ok(
        [-32600, -32700].includes(reply.error!.code),
        `expected Invalid Request (-32600): ${JSON.stringify(reply)}`,
      );
      assert.ok(!session.exited, session.describe());
    },
  );

  it('answers an unknown method with MethodNotFound', { timeout: STEP_MS }, async () => {
    await assert.rejects(
      within(
        session.connection.sendRequest('dgnkit/noSuchMethod', { x: 1 }),
        STEP_MS,
        'dgnkit/noSuchMethod',
        session,
      ),
      (err: unknown) => err instanceof ResponseError && err.code === -32601,
    );
    // Unknown notifications are ignored; a '$/' one must not even be answered.
    await session.connection.sendNotification('$/dgnkit/noSuchNotification', { x: 1 });
    await session.connection.sendNotification('dgnkit/noSuchNotification', {});
  });

  it(
    'answers a known method with bad params with InvalidParams',
    { timeout: STEP_MS },
    async () => {
      await assert.rejects(
        within(
          session.connection.sendRequest('textDocument/hover', { position: 'nowhere' }),
          STEP_MS,
          'bad hover',
          session,
        ),
        (err: unknown) => err instanceof ResponseError && err.code === -32602,
      );
    },
  );

  it('still works after the bad messages', { timeout: STEP_MS }, async () => {
    const pos = find(text, /^LEVEL:\s*"oracle"/, 'oracle');
    const hover = await within(
      session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos }),
      STEP_MS,
      'hover after bad messages',
      session,
    );
    assert.ok(hover !== null && hoverText(hover).trim() !== '');
    assert.ok(!session.exited, session.describe());
  });

  it('counts columns in UTF-16 code units', { timeout: STEP_MS * 2 }, async () => {
    // A name with a character outside the BMP: 4 bytes in UTF-8, 2 UTF-16 units.
    const doc = 'DUNGEON: "\u{1F409} Caves" "XX" (2, 0)\nLEVEL: "lair" "L" @ (1, 0)\n';
    const docUri = pathToFileURL(path.join(path.dirname(file), 'utf16-columns.def')).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: docUri, languageId: 'dungeon-def', version: 1, text: doc },
    });
    const published = await session.waitForDiagnostics(
      docUri,
      (p) => errors(p.diagnostics).length > 0,
      STEP_MS,
    );
    const col = doc.indexOf('"XX"');
    const bones = errors(published.diagnostics).find(
      (d) => d.range.start.line === 0 && /bones/i.test(d.message),
    );
    assert.ok(bones !== undefined, `no bones error: ${JSON.stringify(published.diagnostics)}`);
    assert.ok(
      [col, col + 1].includes(bones.range.start.character) &&
        [col + 3, col + 4].includes(bones.range.end.character),
      `range ${JSON.stringify(bones.range)} is not columns ${col}..${col + 4} in UTF-16`,
    );
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: docUri },
    });
  });

  it('shuts down and exits with status 0', { timeout: STEP_MS }, async () => {
    const result = await within(
      session.connection.sendRequest(ShutdownRequest.type),
      STEP_MS,
      'shutdown',
      session,
    );
    assert.equal(result ?? null, null);
    await session.connection.sendNotification(ExitNotification.type);
    const status = await session.waitForExit(10_000);
    assert.deepEqual(status, { code: 0, signal: null }, session.describe());
  });
});
