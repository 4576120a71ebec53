// Loads the bundled extension (dist/extension.js, what the .vsix ships) with
// a small stand-in for the `vscode` module, and checks the glue that the
// other unit tests cannot reach: commands are registered, a missing dgn-lsp
// is explained, bad settings are reported, and a settings change restarts.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { extensionRoot } from '../../tools/paths';

interface Stub {
  settings: Record<string, unknown>;
  output: string[];
  warnings: Array<{ message: string; actions: string[] }>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  configListeners: Array<(e: { affectsConfiguration: (s: string) => boolean }) => void>;
  activeDocument?: { languageId: string; uri: { toString: () => string } } | undefined;
}

function makeVscode(stub: Stub): unknown {
  const api: Record<string, unknown> = {
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: (section: string) => {
        assert.equal(section, 'dgnkit');
        return { get: (key: string) => stub.settings[key] };
      },
      onDidChangeConfiguration: (f: Stub['configListeners'][number]) => {
        stub.configListeners.push(f);
        return { dispose() {} };
      },
      registerTextDocumentContentProvider: (scheme: string) => {
        assert.equal(scheme, 'dgnkit-diff');
        return { dispose() {} };
      },
    },
    window: {
      get activeTextEditor() {
        return stub.activeDocument === undefined ? undefined : { document: stub.activeDocument };
      },
      createOutputChannel: (name: string) => {
        assert.equal(name, 'dgnkit');
        return { appendLine: (l: string) => stub.output.push(l), show() {}, dispose() {} };
      },
      showWarningMessage: async (message: string, ...actions: string[]) => {
        stub.warnings.push({ message, actions });
        return undefined;
      },
      showErrorMessage: async (message: string) => {
        stub.warnings.push({ message, actions: [] });
        return undefined;
      },
    },
    commands: {
      registerCommand: (name: string, f: (...args: unknown[]) => unknown) => {
        stub.commands.set(name, f);
        return { dispose() {} };
      },
      executeCommand: async () => undefined,
    },
  };
  // vscode-languageclient subclasses some vscode classes (CodeAction,
  // Diagnostic, ...) when it loads; any class it asks for is an empty one.
  return new Proxy(api, {
    get: (target, name) => {
      if (typeof name === 'string' && !(name in target) && /^[A-Z]/.test(name))
        target[name] = class {};
      return target[name as string];
    },
  });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('the bundled extension', () => {
  const bundle = path.join(extensionRoot(), 'dist', 'extension.js');
  const stub: Stub = {
    settings: {},
    output: [],
    warnings: [],
    commands: new Map(),
    configListeners: [],
  };
  const moduleApi = Module as unknown as {
    _load: (request: string, ...rest: unknown[]) => unknown;
  };
  const originalLoad = moduleApi._load;
  const originalPath = process.env.PATH;
  let ext: {
    activate: (ctx: { subscriptions: unknown[] }) => void;
    deactivate: () => Promise<void>;
  };
  const subscriptions: unknown[] = [];

  before(() => {
    assert.ok(existsSync(bundle), `${bundle} is missing: run node scripts/build.mjs first`);
    const vscode = makeVscode(stub);
    moduleApi._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
    };
    // No dgn-lsp anywhere, and a bad target in the settings.
    process.env.PATH = path.join(extensionRoot(), 'no-such-dir');
    stub.settings = { target: 'nethack-9', defines: ['REINCARNATION'] };
    ext = require(bundle) as typeof ext;
    ext.activate({ subscriptions });
  });

  after(async () => {
    await ext.deactivate();
    moduleApi._load = originalLoad;
    process.env.PATH = originalPath;
  });

  it('ships the script vscode-languageclient stops a stuck server with, next to the bundle', () => {
    assert.ok(existsSync(path.join(path.dirname(bundle), 'terminateProcess.sh')));
  });

  it('registers its commands and disposables', () => {
    assert.deepEqual([...stub.commands.keys()].sort(), [
      'dgnkit.compareWithLastCommitted',
      'dgnkit.restartServer',
      'dgnkit.showOutput',
    ]);
    assert.ok(subscriptions.length >= 6);
  });

  it('explains how to install dgn-lsp when it is not on PATH', async () => {
    await settle();
    assert.equal(stub.warnings.length, 1);
    assert.match(stub.warnings[0]!.message, /\(dgn-lsp\) was not found on PATH/);
    assert.match(stub.warnings[0]!.message, /cargo install --path lsp-server/);
    assert.deepEqual(stub.warnings[0]!.actions, ['Open Settings', 'Show Output']);
  });

  it('reports a bad setting in the output channel', () => {
    assert.ok(
      stub.output.some((l) => /dgnkit\.target: "nethack-9" is not one of/.test(l)),
      stub.output.join('\n'),
    );
  });

  it('restarts on a dgnkit setting change, and only then', async () => {
    const before = stub.warnings.length;
    for (const f of stub.configListeners)
      f({ affectsConfiguration: (s) => s === 'editor.tabSize' });
    await settle();
    assert.equal(stub.warnings.length, before, 'an unrelated setting must not restart the server');
    stub.settings = { 'server.path': '/opt/nowhere/dgn-lsp' };
    for (const f of stub.configListeners)
      f({ affectsConfiguration: (s) => s === 'dgnkit.server.path' || s === 'dgnkit' });
    await settle();
    assert.ok(stub.output.some((l) => l.includes('settings changed: restarting dgn-lsp')));
    assert.equal(stub.warnings.length, before + 1);
    assert.match(
      stub.warnings.at(-1)!.message,
      /dgnkit\.server\.path is set to "\/opt\/nowhere\/dgn-lsp", but that is not an executable file/,
    );
  });

  it('asks for a dungeon description before comparing, and for dgn-lsp', async () => {
    const before = stub.warnings.length;
    await stub.commands.get('dgnkit.compareWithLastCommitted')!();
    assert.equal(stub.warnings.length, before + 1);
    assert.match(stub.warnings.at(-1)!.message, /open a dungeon\.def or dungeon\.lua/);
    stub.activeDocument = {
      languageId: 'dungeon-def',
      uri: { toString: () => 'file:///x/dungeon.def' },
    };
    await stub.commands.get('dgnkit.compareWithLastCommitted')!();
    stub.activeDocument = undefined;
    assert.equal(stub.warnings.length, before + 2);
    assert.match(stub.warnings.at(-1)!.message, /dgn-lsp is not running/);
  });

  it('restarts from the command', async () => {
    const before = stub.warnings.length;
    await stub.commands.get('dgnkit.restartServer')!();
    await settle();
    assert.equal(stub.warnings.length, before + 1);
  });
});
