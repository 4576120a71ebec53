// The package.json contributions: which files get the dungeon-def language,
// and that settings, commands and grammar agree with the code.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  DEFAULT_LUA_TARGET,
  DEFAULT_TARGET,
  LUA_TARGETS,
  RESTART_KEYS,
  SECTION,
  TARGETS,
} from '../../src/settings';
import { extensionRoot } from '../../tools/paths';

interface Manifest {
  name: string;
  publisher: string;
  main: string;
  engines: { vscode: string };
  contributes: {
    languages: Array<{
      id: string;
      extensions: string[];
      filenames: string[];
      filenamePatterns: string[];
      firstLine: string;
      configuration: string;
    }>;
    grammars: Array<{ language: string; scopeName: string; path: string }>;
    configuration: { properties: Record<string, { default: unknown; enum?: string[] }> };
    commands: Array<{ command: string }>;
  };
}

const root = extensionRoot();
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const language = manifest.contributes.languages[0]!;
const luaLanguage = manifest.contributes.languages.find((l) => l.id === 'dungeon-lua')!;

/** Whether VS Code gives a file of this name the dungeon-lua language. */
function isDungeonLua(name: string): boolean {
  return (
    (luaLanguage.filenames ?? []).includes(name) ||
    (luaLanguage.extensions ?? []).some((ext) => name.endsWith(ext)) ||
    (luaLanguage.filenamePatterns ?? []).length > 0
  );
}

/** VS Code matches a pattern without a slash against the file name: `*` is any run of characters. */
function matchesName(name: string): boolean {
  if (language.filenames.includes(name)) return true;
  if (language.extensions.some((ext) => name.endsWith(ext))) return true;
  return language.filenamePatterns.some((pattern) => {
    const re = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')}$`,
    );
    return re.test(name);
  });
}

describe('package.json', () => {
  it('is the dgnkit extension for VS Code 1.82 and later', () => {
    assert.equal(manifest.name, 'dgnkit');
    assert.equal(manifest.publisher, 'dgnkit');
    assert.equal(manifest.engines.vscode, '^1.82.0');
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(language.id, 'dungeon-def');
  });

  it('claims the names NetHack and its variants give dungeon descriptions', () => {
    for (const name of [
      'dungeon.def',
      'dungeon.pdf',
      'dungeon2.def',
      'dungeon8.def',
      'dngnch1.def',
      'dngnch3.def',
      'mine.dgn',
    ]) {
      assert.ok(matchesName(name), name);
    }
  });

  it('leaves other .def files alone', () => {
    for (const name of [
      'mylib.def',
      'exports.def',
      'objects.def',
      'quest.des',
      'dungeon.c',
      'dungeon.h',
    ]) {
      assert.ok(!matchesName(name), name);
    }
  });

  it('recognises a dungeon description by its first line', () => {
    const firstLine = new RegExp(language.firstLine);
    for (const line of [
      '#\tSCCS Id: @(#)dungeon.def\t3.4\t1996/03/10',
      '# NetHack 3.6\tdungeon.def\t$NHDT-Date: 1462486876 2016/05/05 22:21:16 $',
      '#       SCCS Id: @(#)dungeon.def        4.1.2     97/03/13',
      '#\tCopyright (c) 1990-95 by M. Stephenson',
      'DUNGEON:\t"The Dungeons of Doom" "D" (25, 5)',
      '%MULDGN\tDUNGEON:\t"The Gnomish Mines" "M" (8, 2)',
    ]) {
      assert.ok(firstLine.test(line), line);
    }
    for (const line of [
      'LIBRARY mylib',
      'EXPORTS',
      '#include <stdio.h>',
      '# Makefile for NetHack',
      'MAZE: "castle",random',
    ]) {
      assert.ok(!firstLine.test(line), line);
    }
  });

  it('points at files that exist', () => {
    assert.ok(existsSync(path.join(root, language.configuration)));
    const grammar = manifest.contributes.grammars[0]!;
    assert.equal(grammar.language, 'dungeon-def');
    const file = path.join(root, grammar.path);
    assert.equal(
      (JSON.parse(readFileSync(file, 'utf8')) as { scopeName: string }).scopeName,
      grammar.scopeName,
    );
  });

  it('contributes every setting the extension reads, with the defaults it assumes', () => {
    const props = manifest.contributes.configuration.properties;
    for (const key of [...RESTART_KEYS, 'trace.server']) {
      assert.ok(`${SECTION}.${key}` in props, `${SECTION}.${key}`);
    }
    // The extension reads its menus from here: each default is one of them.
    assert.ok(TARGETS.includes(DEFAULT_TARGET), DEFAULT_TARGET);
    assert.equal(props['dgnkit.target']!.enum!.length, new Set(TARGETS).size, 'each target once');
    assert.equal(props['dgnkit.dialect']!.default, 'vanilla');
    assert.deepEqual(props['dgnkit.defines']!.default, []);
  });

  it('gives dungeon.lua (NetHack 3.7) a language of its own and no other Lua file', () => {
    assert.ok(luaLanguage, 'a dungeon-lua language');
    assert.deepEqual(luaLanguage.filenames, ['dungeon.lua']);
    assert.equal(luaLanguage.extensions, undefined, 'no extension: .lua files stay Lua');
    assert.equal(luaLanguage.filenamePatterns, undefined);
    assert.equal(luaLanguage.firstLine, undefined);
    assert.ok(isDungeonLua('dungeon.lua'));
    for (const name of [
      'init.lua',
      'nhlib.lua',
      'themerms.lua',
      'oracle.lua',
      'dungeon.def',
      'mydungeon.lua',
    ]) {
      assert.ok(!isDungeonLua(name), name);
    }
    // Highlighted by VS Code's own Lua grammar.
    const grammar = manifest.contributes.grammars.find((g) => g.language === 'dungeon-lua')!;
    const file = JSON.parse(readFileSync(path.join(root, grammar.path), 'utf8')) as {
      scopeName: string;
      patterns: Array<{ include: string }>;
    };
    assert.equal(file.scopeName, grammar.scopeName);
    assert.deepEqual(file.patterns, [{ include: 'source.lua' }]);
    assert.ok(existsSync(path.join(root, luaLanguage.configuration)));
    const ignore = readFileSync(path.join(root, '.vscodeignore'), 'utf8');
    assert.ok(
      ignore.includes(`!${grammar.path.replace(/^\.\//, '')}`),
      'the .vsix ships the grammar',
    );
    assert.ok(
      ignore.includes(`!${luaLanguage.configuration.replace(/^\.\//, '')}`),
      'and the configuration',
    );
    const props = manifest.contributes.configuration.properties;
    assert.ok(LUA_TARGETS.includes(DEFAULT_LUA_TARGET), DEFAULT_LUA_TARGET);
    assert.equal(
      props['dgnkit.luaTarget']!.enum!.length,
      new Set(LUA_TARGETS).size,
      'each target once',
    );
  });

  it('contributes the commands the extension registers', () => {
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).sort(), [
      'dgnkit.compareWithLastCommitted',
      'dgnkit.restartServer',
      'dgnkit.showOutput',
    ]);
    // The server's own command is registered by vscode-languageclient from
    // its capabilities: contributing it too would register it twice.
    assert.ok(!manifest.contributes.commands.some((c) => c.command === 'dgnkit.compareWithHead'));
  });
});
