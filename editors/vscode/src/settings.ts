// The extension's settings and what dgn-lsp receives from them. Kept free of
// the `vscode` module so it can be tested with plain Node.

import { contributes } from '../package.json';

export const SECTION = 'dgnkit';

/**
 * The games dgn-lsp checks files against, as package.json's menus offer
 * them: `lsp-server/tests/server/editor_settings.rs` keeps each menu equal to
 * what the server takes, so no game is named here.
 */
const properties = contributes.configuration.properties;

/** Every game dgn-lsp checks a .def against (`dgnkit.target`). */
export const TARGETS: readonly string[] = properties['dgnkit.target'].enum;
export type Target = string;
export const DEFAULT_TARGET: Target = properties['dgnkit.target'].default;

/**
 * What a dungeon.lua can be checked against (`dgnkit.luaTarget`): NetHack 3.7,
 * dgnkit's own format, and the games built on 3.7.
 */
export const LUA_TARGETS: readonly string[] = properties['dgnkit.luaTarget'].enum;
export type LuaTarget = string;
export const DEFAULT_LUA_TARGET: LuaTarget = properties['dgnkit.luaTarget'].default;

/**
 * The documents dgn-lsp serves: dungeon.def and its kin (`dungeon-def`), and
 * files named exactly dungeon.lua (`dungeon-lua`, which package.json gives
 * only to that name: other Lua files stay Lua and never reach the server).
 */
export const LANGUAGE_IDS = ['dungeon-def', 'dungeon-lua'] as const;

export function documentSelector(): Array<{ scheme: string; language: string }> {
  return LANGUAGE_IDS.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
}
export const DEFAULT_DIALECT = 'vanilla';

/** What the language server is told: `initializationOptions` and the `dgnkit` section of `workspace/didChangeConfiguration`. */
export interface ServerSettings {
  target: Target;
  /** What a dungeon.lua is checked against. */
  luaTarget: LuaTarget;
  dialect: string;
  /** `%NAME` options turned on, like `dgn check -D NAME`. */
  defines: string[];
  /** `%NAME` options turned off, like `dgn check -U NAME`. */
  undefines: string[];
}

/** Everything the extension reads from the `dgnkit.*` settings. */
export interface ExtensionSettings {
  server: ServerSettings;
  serverPath: string;
  serverArgs: string[];
}

/** Reads one setting by its key below `dgnkit.` (`target`, `server.path`, ...). */
export type SettingReader = (key: string) => unknown;

const DEFINE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads and normalises the settings. A value of the wrong type or an unknown
 * target falls back to the default and is reported in `problems`, so a typo
 * in settings.json is explained in the output channel instead of reaching
 * the server.
 */
export function readSettings(get: SettingReader): {
  settings: ExtensionSettings;
  problems: string[];
} {
  const problems: string[] = [];

  const target = readChoice(get('target'), 'target', TARGETS, DEFAULT_TARGET, problems);
  const luaTarget = readChoice(
    get('luaTarget'),
    'luaTarget',
    LUA_TARGETS,
    DEFAULT_LUA_TARGET,
    problems,
  );

  let dialect = DEFAULT_DIALECT;
  const rawDialect = get('dialect');
  if (typeof rawDialect === 'string') {
    if (rawDialect.trim() !== '') dialect = rawDialect.trim();
  } else if (rawDialect !== undefined && rawDialect !== null) {
    problems.push(
      `dgnkit.dialect: expected a string, got ${JSON.stringify(rawDialect)}; using ${DEFAULT_DIALECT}.`,
    );
  }

  const defines = readOptionNames(get('defines'), 'defines', problems);
  const undefines = readOptionNames(get('undefines'), 'undefines', problems);

  const rawPath = get('server.path');
  const serverPath = typeof rawPath === 'string' ? rawPath.trim() : '';
  if (rawPath !== undefined && rawPath !== null && typeof rawPath !== 'string') {
    problems.push(
      `dgnkit.server.path: expected a string, got ${JSON.stringify(rawPath)}; ignored.`,
    );
  }

  const rawArgs = get('server.extraArgs');
  let serverArgs: string[] = [];
  if (Array.isArray(rawArgs) && rawArgs.every((a) => typeof a === 'string')) {
    serverArgs = rawArgs as string[];
  } else if (rawArgs !== undefined && rawArgs !== null) {
    problems.push(
      `dgnkit.server.extraArgs: expected a list of strings, got ${JSON.stringify(rawArgs)}; ignored.`,
    );
  }

  return {
    settings: {
      server: { target, luaTarget, dialect, defines, undefines },
      serverPath,
      serverArgs,
    },
    problems,
  };
}

/** One of `choices`, or the default (and why, in `problems`) for anything else that is set. */
function readChoice<T extends string>(
  raw: unknown,
  key: string,
  choices: readonly T[],
  fallback: T,
  problems: string[],
): T {
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (typeof raw === 'string' && (choices as readonly string[]).includes(raw)) return raw as T;
  problems.push(
    `dgnkit.${key}: ${JSON.stringify(raw)} is not one of ${choices.join(', ')}; using ${fallback}.`,
  );
  return fallback;
}

/** A list of option names: each valid name once, in order; a leading `%` is dropped. */
function readOptionNames(raw: unknown, key: string, problems: string[]): string[] {
  const names: string[] = [];
  if (Array.isArray(raw)) {
    for (const item of raw) {
      const name = typeof item === 'string' ? item.trim().replace(/^%/, '') : item;
      if (typeof name !== 'string' || !DEFINE_NAME.test(name)) {
        problems.push(
          `dgnkit.${key}: ${JSON.stringify(item)} is not an option name like REINCARNATION; ignored.`,
        );
      } else if (!names.includes(name)) {
        names.push(name);
      }
    }
  } else if (raw !== undefined && raw !== null) {
    problems.push(
      `dgnkit.${key}: expected a list of option names, got ${JSON.stringify(raw)}; ignored.`,
    );
  }
  return names;
}

/** `initializationOptions` of the `initialize` request. */
export function initializationOptions(settings: ServerSettings): ServerSettings {
  return {
    target: settings.target,
    luaTarget: settings.luaTarget,
    dialect: settings.dialect,
    defines: [...settings.defines],
    undefines: [...settings.undefines],
  };
}

/** `params.settings` of `workspace/didChangeConfiguration`. */
export function didChangeConfigurationSettings(settings: ServerSettings): {
  [SECTION]: ServerSettings;
} {
  return { [SECTION]: initializationOptions(settings) };
}

/** Settings whose change needs the language server restarted (all but tracing, which the client applies itself). */
export const RESTART_KEYS = [
  'server.path',
  'server.extraArgs',
  'target',
  'luaTarget',
  'dialect',
  'defines',
  'undefines',
] as const;

export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_KEYS.some((key) => affects(`${SECTION}.${key}`));
}
