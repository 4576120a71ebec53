// Finding the dgn-lsp executable. Kept free of the `vscode` module so it can
// be tested with plain Node; file-system access is passed in.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const SERVER_NAME = 'dgn-lsp';

export const INSTALL_HINT =
  'Install it from a dgnkit checkout with `cargo install --path lsp-server` ' +
  '(this puts dgn-lsp in ~/.cargo/bin), or set `dgnkit.server.path` to the dgn-lsp executable.';

export interface ResolveEnvironment {
  /** `dgnkit.server.path`, already trimmed; empty when unset. */
  configured: string;
  /** Workspace folders, first one used for a relative `dgnkit.server.path`. */
  workspaceFolders: readonly string[];
  /** The process environment (PATH, PATHEXT, HOME/USERPROFILE). */
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homeDir: string;
  /** True when `file` exists, is a regular file and may be executed. */
  isExecutable: (file: string) => boolean;
}

export type Resolution =
  { ok: true; path: string; source: 'setting' | 'PATH' } | { ok: false; message: string };

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Expands a leading `~` and makes a relative path absolute against the first workspace folder. */
export function expandConfiguredPath(configured: string, env: ResolveEnvironment): string {
  const p = pathApi(env.platform);
  let result = configured;
  if (
    result === '~' ||
    result.startsWith('~/') ||
    (env.platform === 'win32' && result.startsWith('~\\'))
  ) {
    result = p.join(env.homeDir, result.slice(1));
  }
  if (!p.isAbsolute(result)) {
    const base = env.workspaceFolders[0];
    if (base !== undefined) result = p.resolve(base, result);
  }
  return result;
}

function executableNames(env: ResolveEnvironment): string[] {
  if (env.platform !== 'win32') return [SERVER_NAME];
  const exts = (env.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '');
  return exts.map((ext) => SERVER_NAME + ext.toLowerCase());
}

/** Looks `dgn-lsp` up on PATH the way a shell would: first directory that holds an executable one wins. */
export function findOnPath(env: ResolveEnvironment): string | undefined {
  const p = pathApi(env.platform);
  const pathVar = env.platform === 'win32' ? (env.env.Path ?? env.env.PATH) : env.env.PATH;
  if (pathVar === undefined || pathVar === '') return undefined;
  const sep = env.platform === 'win32' ? ';' : ':';
  for (const dir of pathVar.split(sep)) {
    // An empty PATH entry means the current directory; the editor's cwd is arbitrary, so skip it.
    if (dir === '') continue;
    for (const name of executableNames(env)) {
      const candidate = p.join(dir, name);
      if (env.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The dgn-lsp to start: `dgnkit.server.path` when set, else `dgn-lsp` on PATH, else a message saying how to get it. */
export function resolveServerPath(env: ResolveEnvironment): Resolution {
  if (env.configured !== '') {
    const expanded = expandConfiguredPath(env.configured, env);
    if (env.isExecutable(expanded)) return { ok: true, path: expanded, source: 'setting' };
    return {
      ok: false,
      message:
        `dgnkit.server.path is set to "${env.configured}", but ${expanded === env.configured ? 'that' : `"${expanded}"`} ` +
        `is not an executable file. Fix the setting, or clear it to use dgn-lsp from PATH. ${INSTALL_HINT}`,
    };
  }
  const found = findOnPath(env);
  if (found !== undefined) return { ok: true, path: found, source: 'PATH' };
  return {
    ok: false,
    message: `The dgnkit language server (${SERVER_NAME}) was not found on PATH, so only highlighting is available. ${INSTALL_HINT}`,
  };
}

/** `isExecutable` for the real file system. */
export function isExecutableFile(
  file: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
