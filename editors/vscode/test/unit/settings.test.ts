import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_DIALECT,
  DEFAULT_LUA_TARGET,
  DEFAULT_TARGET,
  LANGUAGE_IDS,
  RESTART_KEYS,
  TARGETS,
  didChangeConfigurationSettings,
  initializationOptions,
  documentSelector,
  needsRestart,
  readSettings,
} from '../../src/settings';

function reader(values: Record<string, unknown>) {
  return (key: string) => values[key];
}

describe('readSettings', () => {
  it('uses the defaults when nothing is set', () => {
    const { settings, problems } = readSettings(reader({}));
    assert.deepEqual(settings, {
      server: {
        target: DEFAULT_TARGET,
        luaTarget: DEFAULT_LUA_TARGET,
        dialect: DEFAULT_DIALECT,
        defines: [],
        undefines: [],
      },
      serverPath: '',
      serverArgs: [],
    });
    assert.deepEqual(problems, []);
  });

  it('takes every valid target', () => {
    for (const target of [
      'nethack-3.4.3',
      'nethack-3.6',
      'nle',
      'native',
      'evilhack',
      'unnethack',
      'slashem',
      'dnethack',
      'gnollhack',
      'dynahack',
    ]) {
      const { settings, problems } = readSettings(reader({ target }));
      assert.equal(settings.server.target, target);
      assert.deepEqual(problems, []);
    }
  });

  it('checks dungeon.lua against NetHack 3.7 unless told otherwise', () => {
    assert.equal(DEFAULT_LUA_TARGET, 'nethack-3.7');
    assert.equal(readSettings(reader({ luaTarget: 'native' })).settings.server.luaTarget, 'native');
    const { settings, problems } = readSettings(reader({ luaTarget: 'nethack-3.6' }));
    assert.equal(settings.server.luaTarget, 'nethack-3.7');
    assert.match(
      problems[0]!,
      /dgnkit\.luaTarget: "nethack-3\.6" is not one of nethack-3\.7, nethack-5\.0, native/,
    );
  });

  it('falls back to the default target and says why for an unknown one', () => {
    const { settings, problems } = readSettings(reader({ target: 'nethack-3.7' }));
    assert.equal(settings.server.target, 'nethack-3.6');
    assert.equal(problems.length, 1);
    // The list is package.json's menu, whole and in its order, so a game
    // added there is named here without editing this test.
    assert.equal(
      problems[0],
      `dgnkit.target: "nethack-3.7" is not one of ${TARGETS.join(', ')}; using nethack-3.6.`,
    );
    assert.match(problems[0]!, /one of nethack-3\.4\.3, nethack-3\.6, /);
  });

  it('trims the dialect and treats a blank one as vanilla', () => {
    assert.equal(
      readSettings(reader({ dialect: '  slashem ' })).settings.server.dialect,
      'slashem',
    );
    assert.equal(readSettings(reader({ dialect: '   ' })).settings.server.dialect, 'vanilla');
    const wrong = readSettings(reader({ dialect: 3 }));
    assert.equal(wrong.settings.server.dialect, 'vanilla');
    assert.match(wrong.problems[0]!, /dgnkit\.dialect: expected a string, got 3/);
  });

  it('keeps valid defines once each, in order, and reports the rest', () => {
    const { settings, problems } = readSettings(
      reader({
        defines: ['REINCARNATION', ' MULDGN ', 'REINCARNATION', 'BAD NAME', 7, '', '%', '%CONWAY'],
      }),
    );
    assert.deepEqual(settings.server.defines, ['REINCARNATION', 'MULDGN', 'CONWAY']);
    assert.equal(problems.length, 4);
    assert.ok(problems.every((p) => p.startsWith('dgnkit.defines: ')));
  });

  it('reads undefines like defines', () => {
    const { settings, problems } = readSettings(reader({ undefines: ['%REINCARNATION', 'x y'] }));
    assert.deepEqual(settings.server.undefines, ['REINCARNATION']);
    assert.deepEqual(settings.server.defines, []);
    assert.match(problems[0]!, /^dgnkit\.undefines: "x y" is not an option name/);
  });

  it('ignores defines that are not a list', () => {
    const { settings, problems } = readSettings(reader({ defines: 'REINCARNATION' }));
    assert.deepEqual(settings.server.defines, []);
    assert.match(problems[0]!, /expected a list of option names/);
  });

  it('reads the server path and extra arguments', () => {
    const { settings, problems } = readSettings(
      reader({ 'server.path': '  ~/bin/dgn-lsp ', 'server.extraArgs': ['--log', 'debug'] }),
    );
    assert.equal(settings.serverPath, '~/bin/dgn-lsp');
    assert.deepEqual(settings.serverArgs, ['--log', 'debug']);
    assert.deepEqual(problems, []);
    const bad = readSettings(reader({ 'server.path': 42, 'server.extraArgs': ['ok', 1] }));
    assert.equal(bad.settings.serverPath, '');
    assert.deepEqual(bad.settings.serverArgs, []);
    assert.equal(bad.problems.length, 2);
  });
});

describe('what the server receives', () => {
  const server = {
    target: 'nethack-3.6' as const,
    luaTarget: 'nethack-3.7' as const,
    dialect: 'gnollhack',
    defines: ['REINCARNATION'],
    undefines: ['MULDGN'],
  };

  it('initializationOptions carries target, dialect and defines', () => {
    assert.deepEqual(initializationOptions(server), {
      target: 'nethack-3.6',
      luaTarget: 'nethack-3.7',
      dialect: 'gnollhack',
      defines: ['REINCARNATION'],
      undefines: ['MULDGN'],
    });
  });

  it('initializationOptions is a copy the caller cannot alias', () => {
    const options = initializationOptions(server);
    options.defines.push('MULDGN');
    options.undefines.push('REINCARNATION');
    assert.deepEqual(server.defines, ['REINCARNATION']);
    assert.deepEqual(server.undefines, ['MULDGN']);
  });

  it('didChangeConfiguration puts the same values under the dgnkit section', () => {
    assert.deepEqual(didChangeConfigurationSettings(server), {
      dgnkit: {
        target: 'nethack-3.6',
        luaTarget: 'nethack-3.7',
        dialect: 'gnollhack',
        defines: ['REINCARNATION'],
        undefines: ['MULDGN'],
      },
    });
  });

  it('a whole settings.json round-trips to the server unchanged', () => {
    const { settings } = readSettings(
      reader({
        target: 'native',
        dialect: 'dnethack',
        defines: ['REINCARNATION'],
        'server.path': '/x',
      }),
    );
    assert.deepEqual(initializationOptions(settings.server), {
      target: 'native',
      luaTarget: 'nethack-3.7',
      dialect: 'dnethack',
      defines: ['REINCARNATION'],
      undefines: [],
    });
  });
});

describe('documentSelector', () => {
  it('serves dungeon-def and dungeon-lua documents, on disk and untitled, and nothing else', () => {
    assert.deepEqual([...LANGUAGE_IDS], ['dungeon-def', 'dungeon-lua']);
    const selector = documentSelector();
    assert.equal(selector.length, 4);
    assert.ok(selector.every((s) => (LANGUAGE_IDS as readonly string[]).includes(s.language)));
    assert.ok(!selector.some((s) => s.language === 'lua'), 'other Lua files never reach dgn-lsp');
    assert.deepEqual([...new Set(selector.map((s) => s.scheme))].sort(), ['file', 'untitled']);
  });
});

describe('needsRestart', () => {
  it('restarts for every server setting', () => {
    for (const key of RESTART_KEYS) {
      assert.equal(
        needsRestart((s) => s === `dgnkit.${key}`),
        true,
        key,
      );
    }
  });

  it('does not restart for tracing or other extensions', () => {
    assert.equal(
      needsRestart((s) => s === 'dgnkit.trace.server'),
      false,
    );
    assert.equal(
      needsRestart((s) => s === 'editor.fontSize'),
      false,
    );
    assert.equal(
      needsRestart(() => false),
      false,
    );
  });
});
