import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COMMAND,
  SERVER_COMMAND,
  comparisonPath,
  fileNameOfUri,
  readComparison,
} from '../../src/compare';

describe('compare with the last committed version', () => {
  it('names the server command and its own apart (vscode-languageclient registers the server one)', () => {
    assert.equal(SERVER_COMMAND, 'dgnkit.compareWithHead');
    assert.notEqual(COMMAND, SERVER_COMMAND);
  });

  it('reads the table of the server answer', () => {
    assert.deepEqual(readComparison({ table: 'OLD ...\nNo differences.\n', diff: {} }), {
      ok: true,
      table: 'OLD ...\nNo differences.\n',
    });
    for (const bad of [null, undefined, 'text', { diff: {} }, { table: 3 }]) {
      const read = readComparison(bad);
      assert.equal(read.ok, false);
      if (!read.ok) assert.match(read.message, /without a table/);
    }
  });

  it('titles the comparison after the file', () => {
    const cases: Array<[string, string]> = [
      ['file:///home/me/nethack/dat/dungeon.def', 'dungeon.def'],
      ['file:///c%3A/src/dat/dungeon%20old.def', 'dungeon old.def'],
      ['file:///x/dungeon.lua?x=1', 'dungeon.lua'],
      ['file:///x/bad%E0.def', 'bad%E0.def'],
    ];
    for (const [uri, name] of cases) assert.equal(fileNameOfUri(uri), name, uri);
    assert.equal(comparisonPath('dungeon.def'), '/dungeon.def since HEAD.txt');
  });
});
