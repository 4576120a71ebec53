// VS Code glue: starts dgn-lsp for dungeon-def and dungeon-lua (files named
// dungeon.lua) documents and restarts it when
// the dgnkit settings change, and shows the server's comparison of a file
// with its last committed version. The decisions (which executable, which
// settings, what a comparison answer holds) live in settings.ts,
// serverPath.ts and compare.ts.

import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import {
  COMMAND,
  SCHEME,
  SERVER_COMMAND,
  comparisonPath,
  fileNameOfUri,
  readComparison,
} from './compare';
import {
  type ExtensionSettings,
  LANGUAGE_IDS,
  SECTION,
  didChangeConfigurationSettings,
  documentSelector,
  initializationOptions,
  needsRestart,
  readSettings,
} from './settings';
import { isExecutableFile, resolveServerPath } from './serverPath';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
// Start/stop/restart run one after another: several settings can change in
// one edit of settings.json, and a restart must not race a start.
let queue: Promise<void> = Promise.resolve();
// The tables of the comparisons shown, by their documents' URIs.
const comparisons = new Map<string, string>();
let comparisonsShown = 0;

function enqueue(step: () => Promise<void>): Promise<void> {
  queue = queue.then(step).catch((err: unknown) => {
    log(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  });
  return queue;
}

function log(line: string): void {
  output?.appendLine(`[dgnkit] ${line}`);
}

function currentSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const { settings, problems } = readSettings((key) => config.get(key));
  for (const problem of problems) log(problem);
  return settings;
}

async function reportMissingServer(message: string): Promise<void> {
  log(message);
  const openSettings = 'Open Settings';
  const showOutput = 'Show Output';
  const choice = await vscode.window.showWarningMessage(message, openSettings, showOutput);
  if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'dgnkit.server.path');
  } else if (choice === showOutput) {
    output?.show(true);
  }
}

async function start(): Promise<void> {
  const settings = currentSettings();
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  const resolution = resolveServerPath({
    configured: settings.serverPath,
    workspaceFolders: folders,
    env: process.env,
    platform: process.platform,
    homeDir: os.homedir(),
    isExecutable: (file) => isExecutableFile(file),
  });
  if (!resolution.ok) {
    // Not awaited: the notification stays up without blocking later restarts.
    void reportMissingServer(resolution.message);
    return;
  }

  const server = settings.server;
  log(
    `starting ${resolution.path} (from ${resolution.source === 'setting' ? 'dgnkit.server.path' : 'PATH'}) ` +
      `with target=${server.target}, luaTarget=${server.luaTarget}, dialect=${server.dialect}, defines=[${server.defines.join(', ')}]`,
  );

  const serverOptions: ServerOptions = {
    command: resolution.path,
    args: settings.serverArgs,
    transport: TransportKind.stdio,
    options: folders[0] !== undefined ? { cwd: folders[0] } : {},
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: initializationOptions(server),
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      // The server's code action runs its command through the client: show
      // what it answers, as the palette command does.
      executeCommand: async (command, args, next) => {
        if (command !== SERVER_COMMAND) return next(command, args);
        try {
          const result = await next(command, args);
          await showComparison(result, fileNameOfUri(String(args[0] ?? '')));
          return result;
        } catch (err) {
          reportComparisonError(err);
          return undefined;
        }
      },
      workspace: {
        // A server that asks for the `dgnkit` section gets the same
        // normalised settings as its initializationOptions.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return params.items.map((item, i) =>
            item.section === SECTION ? didChangeConfigurationSettings(server)[SECTION] : result[i],
          );
        },
      },
    },
  };

  const next = new LanguageClient(SECTION, 'dgnkit language server', serverOptions, clientOptions);
  client = next;
  try {
    await next.start();
  } catch (err) {
    client = undefined;
    const message = `dgn-lsp (${resolution.path}) failed to start: ${err instanceof Error ? err.message : String(err)}`;
    log(message);
    void vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
      if (choice !== undefined) output?.show(true);
    });
    return;
  }
  // Servers that read settings only from didChangeConfiguration get them too.
  await next.sendNotification(DidChangeConfigurationNotification.type, {
    settings: didChangeConfigurationSettings(server),
  });
}

async function showComparison(result: unknown, fileName: string): Promise<void> {
  const read = readComparison(result);
  if (!read.ok) {
    log(read.message);
    void vscode.window.showErrorMessage(read.message);
    return;
  }
  comparisonsShown += 1;
  const uri = vscode.Uri.from({
    scheme: SCHEME,
    path: comparisonPath(fileName),
    query: String(comparisonsShown),
  });
  comparisons.set(uri.toString(), read.table);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

function reportComparisonError(err: unknown): void {
  const message = `dgnkit: ${err instanceof Error ? err.message : String(err)}`;
  log(message);
  void vscode.window.showErrorMessage(message);
}

async function compareWithLastCommitted(): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (
    document === undefined ||
    !(LANGUAGE_IDS as readonly string[]).includes(document.languageId)
  ) {
    void vscode.window.showWarningMessage(
      'dgnkit: open a dungeon.def or dungeon.lua to compare it with its last committed version.',
    );
    return;
  }
  const running = client;
  if (running === undefined) {
    void vscode.window.showErrorMessage(
      'dgnkit: dgn-lsp is not running, and it makes the comparison; see the dgnkit output (dgnkit: Show language server output).',
    );
    return;
  }
  try {
    const result: unknown = await running.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMAND,
      arguments: [document.uri.toString()],
    });
    await showComparison(result, fileNameOfUri(document.uri.toString()));
  } catch (err) {
    reportComparisonError(err);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running === undefined) return;
  try {
    await running.stop(5000);
  } catch (err) {
    log(`stopping dgn-lsp: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel('dgnkit');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('dgnkit.restartServer', () =>
      enqueue(async () => {
        await stop();
        await start();
      }),
    ),
    vscode.commands.registerCommand('dgnkit.showOutput', () => output?.show(true)),
    vscode.commands.registerCommand(COMMAND, compareWithLastCommitted),
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => comparisons.get(uri.toString()) ?? '',
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!needsRestart((section) => event.affectsConfiguration(section))) return;
      log('settings changed: restarting dgn-lsp');
      void enqueue(async () => {
        await stop();
        await start();
      });
    }),
  );
  void enqueue(start);
}

export function deactivate(): Promise<void> {
  return enqueue(stop);
}
