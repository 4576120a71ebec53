// A real LSP client session with dgn-lsp over stdio: vscode-jsonrpc's
// stream connection (the transport VS Code's client uses) plus a tap on the
// raw output, so tests can also see responses the connection itself cannot
// route (an error response with `"id": null`).

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import {
  type Diagnostic,
  type Logger,
  type MessageConnection,
  type PublishDiagnosticsParams,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from 'vscode-languageserver-protocol/node';

export interface RawMessage {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  params?: unknown;
}

/** Splits the server's stdout into LSP frames, independently of vscode-jsonrpc. */
class FrameTap {
  private buffer = Buffer.alloc(0);
  readonly messages: RawMessage[] = [];
  readonly garbage: string[] = [];
  private listeners: Array<() => void> = [];

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /^Content-Length:\s*(\d+)\s*$/im.exec(header);
      if (match === null) {
        this.garbage.push(header);
        this.buffer = this.buffer.subarray(headerEnd + 4);
        continue;
      }
      const length = Number(match[1]);
      const bodyStart = headerEnd + 4;
      if (this.buffer.length < bodyStart + length) return;
      const body = this.buffer.subarray(bodyStart, bodyStart + length).toString('utf8');
      this.buffer = this.buffer.subarray(bodyStart + length);
      try {
        this.messages.push(JSON.parse(body) as RawMessage);
      } catch {
        this.garbage.push(body);
      }
      for (const l of this.listeners.splice(0)) l();
    }
  }

  /** Resolves with the first message (already seen or future) that satisfies `pred`. */
  waitFor(
    pred: (m: RawMessage) => boolean,
    timeoutMs: number,
    what: string,
    from = 0,
  ): Promise<RawMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
        timeoutMs,
      );
      const check = (): void => {
        const found = this.messages.slice(from).find(pred);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else {
          this.listeners.push(check);
        }
      };
      check();
    });
  }
}

export class LspSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: MessageConnection;
  readonly raw = new FrameTap();
  readonly logged: string[] = [];
  // Everything sent to the server goes through here, in order: the
  // connection's messages and the raw bytes of the malformed-message tests.
  // Once the server has died, writes land here instead of failing inside the
  // client library.
  private readonly input = new PassThrough();
  private stderr = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exitWaiters: Array<() => void> = [];
  private diagnostics = new Map<string, PublishDiagnosticsParams[]>();
  private diagnosticWaiters: Array<() => void> = [];

  constructor(command: string, args: string[] = []) {
    this.child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, RUST_BACKTRACE: '1' },
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.raw.push(chunk));
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      for (const w of this.exitWaiters.splice(0)) w();
    });
    // Writing to a server that died must fail the test that caused it, not crash the runner.
    this.child.stdin.on('error', () => {});
    this.input.pipe(this.child.stdin);
    const logger: Logger = {
      error: (m) => this.logged.push(`error: ${m}`),
      warn: (m) => this.logged.push(`warn: ${m}`),
      info: (m) => this.logged.push(`info: ${m}`),
      log: (m) => this.logged.push(`log: ${m}`),
    };
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.input),
      logger,
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push(params);
      this.diagnostics.set(params.uri, list);
      for (const w of this.diagnosticWaiters.splice(0)) w();
    });
    // Failures surface through the requests that hit them; these only keep
    // a dead server from becoming an unhandled error in the runner.
    this.connection.onError(([err]) => this.logged.push(`connection error: ${err.message}`));
    this.connection.onClose(() => this.logged.push('connection closed'));
    this.connection.listen();
  }

  /** The server's stderr and exit status, for failure messages. */
  describe(): string {
    const exit =
      this.exit === undefined
        ? 'running'
        : `exited (code ${this.exit.code}, signal ${this.exit.signal})`;
    const err = this.stderr.length > 4000 ? `...${this.stderr.slice(-4000)}` : this.stderr;
    return `dgn-lsp ${exit}; stderr:\n${err || '(empty)'}`;
  }

  get exited(): boolean {
    return this.exit !== undefined;
  }

  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exit;
  }

  /** Number of publishDiagnostics notifications seen so far for `uri`. */
  diagnosticCount(uri: string): number {
    return this.diagnostics.get(uri)?.length ?? 0;
  }

  /**
   * The first publishDiagnostics for `uri`, after the first `after` ones,
   * that satisfies `pred` (e.g. "for version 2").
   */
  waitForDiagnostics(
    uri: string,
    pred: (p: PublishDiagnosticsParams) => boolean,
    timeoutMs: number,
    after = 0,
  ): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seen = (this.diagnostics.get(uri) ?? []).map((p) => ({
          version: p.version,
          count: p.diagnostics.length,
        }));
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for diagnostics of ${uri}; seen ${JSON.stringify(seen)}\n${this.describe()}`,
          ),
        );
      }, timeoutMs);
      const check = (): void => {
        const found = (this.diagnostics.get(uri) ?? []).slice(after).find(pred);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else if (this.exit !== undefined) {
          clearTimeout(timer);
          reject(
            new Error(`server exited while waiting for diagnostics of ${uri}\n${this.describe()}`),
          );
        } else {
          this.diagnosticWaiters.push(check);
        }
      };
      check();
    });
  }

  /** Writes bytes straight to the server's stdin, bypassing the connection's framing. */
  writeRaw(data: string): void {
    this.input.write(data);
  }

  /** A correctly framed message whose body is `body` (which may be anything). */
  writeFramed(body: string): void {
    this.writeRaw(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`);
  }

  /** Calls `f` when the server exits (at once if it already has). */
  onExit(f: () => void): void {
    if (this.exit !== undefined) f();
    else this.exitWaiters.push(f);
  }

  waitForExit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return new Promise((resolve, reject) => {
      if (this.exit !== undefined) return resolve(this.exit);
      const timer = setTimeout(
        () => reject(new Error(`dgn-lsp did not exit within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.exit!);
      });
    });
  }

  /** Ends the session whatever state it is in (after the test, or on failure). */
  dispose(): void {
    this.connection.dispose();
    if (this.exit === undefined) this.child.kill('SIGKILL');
  }
}

export function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 1);
}

/** Within `ms` and while the server runs, or reject saying what was awaited and what the server said. */
export function within<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  session?: LspSession,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `timed out after ${ms} ms waiting for ${what}${session ? `\n${session.describe()}` : ''}`,
          ),
        ),
      ms,
    );
    session?.onExit(() => {
      clearTimeout(timer);
      reject(new Error(`dgn-lsp exited while waiting for ${what}\n${session.describe()}`));
    });
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
