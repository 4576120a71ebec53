import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ansiToHtml, applySgr } from '../../tools/ansi';

describe('ansiToHtml (documentation screenshots)', () => {
  it('reads 24-bit, 256-colour and basic SGR colours', () => {
    assert.deepEqual(applySgr({}, [38, 2, 1, 2, 3, 48, 5, 196]), {
      fg: 'rgb(1,2,3)',
      bg: 'rgb(255,0,0)',
    });
    assert.deepEqual(applySgr({}, [1, 31, 4]), { bold: true, fg: '#cd3131', underline: true });
    assert.deepEqual(applySgr({ fg: '#fff', bold: true }, [0]), {});
    assert.deepEqual(applySgr({ fg: '#fff', bg: '#000' }, [39, 49]), {});
  });

  it('keeps text, escapes HTML and drops other escape sequences', () => {
    const html = ansiToHtml('\x1b[38;2;255;0;0mA<b>\x1b[0m \x1b[?25lok\n');
    assert.equal(
      html,
      '<div class="l"><span style="color:rgb(255,0,0)">A&lt;b&gt;</span><span style="color:#d4d4d4"> ok</span></div>',
    );
  });

  it('carries a style across lines and keeps empty lines', () => {
    const html = ansiToHtml('\x1b[32mx\n\ny');
    assert.equal(html.split('<div').length - 1, 3);
    assert.ok(html.endsWith('<span style="color:#0dbc79">y</span></div>'));
  });
});
