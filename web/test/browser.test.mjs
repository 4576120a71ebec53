// The page in a real browser: Debian's chromium (or $CHROMIUM), driven by
// playwright-core, against `dgn serve` on a free loopback port ($DGN, or
// ../target/debug/dgn). Each view is loaded and used as a person would.
// DGNKIT_SCREENSHOTS=1 writes docs/images/serve-*.png (the README's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dgn = process.env.DGN ?? path.join(root, 'target', 'debug', 'dgn');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const shots =
  process.env.DGNKIT_SCREENSHOTS === '1'
    ? path.join(root, 'docs', 'images')
    : mkdtempSync(path.join(tmpdir(), 'dgn-serve-shots-'));

let server, browser, base;

before(async () => {
  assert.ok(
    existsSync(dgn),
    `no dgn binary at ${dgn}: run \`cargo build -p dgnkit-cli\` first, or set DGN`,
  );
  assert.ok(
    existsSync(browserPath),
    `no chromium at ${browserPath}: apt-get install chromium, or set CHROMIUM`,
  );
  ({ server, base } = await serve());
  browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** `dgn serve` on a free loopback port, with `args`: the process and the page's address. */
async function serve(args = []) {
  const proc = spawn(dgn, ['serve', '--addr', '127.0.0.1:0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const at = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`dgn serve did not start: ${err}`)), 20000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /the page at (http:\/\/[^ ]+\/)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`dgn serve exited ${code}: ${err}`)));
  });
  return { server: proc, base: at };
}

async function page(url) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('requestfailed', (r) => {
    if (!r.url().startsWith('blob:')) errors.push(`request failed: ${r.url()}`);
  });
  await p.goto(base + url);
  return { p, errors };
}

async function mapShown(p) {
  const img = p.locator('img.map').first();
  await img.waitFor({ timeout: 20000 });
  await p.waitForFunction(
    () => {
      const i = document.querySelector('img.map');
      return i && i.complete && i.naturalWidth > 100;
    },
    null,
    { timeout: 20000 },
  );
}

test('the page loads quickly and fetches nothing but its own three files and /api', async () => {
  const p = await browser.newPage();
  const urls = [];
  p.on('request', (r) => urls.push(r.url()));
  const t0 = Date.now();
  await p.goto(base + '?view=xlog', { waitUntil: 'load' });
  await p.locator('#xlog-text').waitFor();
  const took = Date.now() - t0;
  console.log(`# the xlogfile view was interactive ${took} ms after navigation`);
  assert.ok(took < 3000, `interactive after ${took} ms`);
  for (const u of urls) assert.ok(u.startsWith(base) || u.startsWith('blob:'), `fetched ${u}`);
  assert.ok(urls.includes(base + 'api'), 'the games come from /api');
  await p.close();
  const icon = await fetch(base + 'favicon.ico');
  assert.equal(icon.status, 200, '/favicon.ico answers');
  assert.equal(icon.headers.get('content-type'), 'image/vnd.microsoft.icon');
  const js = await fetch(base + 'app.js', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(js.headers.get('content-encoding'), 'gzip', 'app.js comes gzipped');
});

test('the game menus offer the games /api lists, in its order', async () => {
  const schemas = (await (await fetch(base + 'api')).json()).components.schemas;
  assert.ok(schemas.Game.enum.includes('nethack-3.6'));
  assert.ok(schemas.LuaGame.enum.every((g) => schemas.Game.enum.includes(g)));
  const options = async (p) =>
    p.locator('select[name=game] option').evaluateAll((os) => os.map((o) => o.value));
  for (const view of ['dungeon', 'edit', 'odds', 'diff']) {
    const { p, errors } = await page(`?view=${view}`);
    await p.locator('select[name=game]').waitFor();
    assert.deepEqual(await options(p), schemas.Game.enum, view);
    assert.equal(await p.locator('select[name=game]').inputValue(), 'nethack-3.6', view);
    assert.deepEqual(errors, []);
    await p.close();
  }
  // A dungeon.lua is checked as a game that reads one: NetHack 3.7 unless
  // one of /api's LuaGame is chosen; back to a dungeon.def, 3.6.
  const { p, errors } = await page('?view=edit&game=dnethack');
  await p.selectOption('select[name=kind]', 'dungeon.lua');
  assert.equal(await p.locator('select[name=game]').inputValue(), 'nethack-3.7');
  const fork = schemas.LuaGame.enum.find((g) => g !== 'nethack-3.7');
  await p.selectOption('select[name=game]', fork);
  await p.selectOption('select[name=kind]', 'dungeon.def');
  await p.selectOption('select[name=kind]', 'dungeon.lua');
  assert.equal(await p.locator('select[name=game]').inputValue(), fork);
  assert.deepEqual(errors, []);
  await p.close();
});

test('dungeon: a seed shows its map, overview and bones, and the URL says so', async () => {
  const { p, errors } = await page('?view=dungeon&game=nethack-3.6&seed=42&role=Wiz');
  await mapShown(p);
  await p.locator('pre.overview').waitFor();
  assert.match(await p.locator('pre.overview').textContent(), /The Dungeons of Doom/);
  assert.ok((await p.locator('table.bones tbody tr').count()) > 20);
  await p.fill('input[name=seed]', '7');
  await p.click('#view-dungeon button[type=submit]');
  await p.waitForURL(/seed=7/);
  await mapShown(p);
  await p.locator('text=Show the draw log').click();
  await p.locator('pre.trace').waitFor();
  assert.ok((await p.locator('pre.trace').textContent()).length > 100);
  await p.locator('pre.overview').waitFor();
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: path.join(shots, 'serve-dungeon.png') });
  const threeSeven = await page('?view=dungeon&game=nethack-3.7&seed=42&role=Wiz');
  await mapShown(threeSeven.p);
  assert.equal(await threeSeven.p.locator('select[name=game]').inputValue(), 'nethack-3.7');
  assert.deepEqual(errors.concat(threeSeven.errors), []);
  await p.close();
  await threeSeven.p.close();
});

test("dungeon: a variant's map opens at full size, in a tab, and downloads", async () => {
  const { p, errors } = await page('?view=dungeon&game=xnethack&seed=42');
  await mapShown(p);
  const img = p.locator('#dungeon-map img.map');
  const size = () => img.evaluate((i) => ({ shown: i.clientWidth, natural: i.naturalWidth }));
  const fitted = await size();
  assert.ok(
    fitted.shown < fitted.natural,
    `the map is shrunk to the column (${JSON.stringify(fitted)})`,
  );
  await p.click('#map-full');
  const full = await size();
  assert.ok(Math.abs(full.shown - full.natural) < 1, `full size (${JSON.stringify(full)})`);
  assert.match(await p.getAttribute('#map-open', 'href'), /^blob:/);
  assert.equal(await p.getAttribute('#map-svg', 'download'), 'dungeon-xnethack-42.svg');
  const [svg] = await Promise.all([p.waitForEvent('download'), p.click('#map-svg')]);
  assert.equal(svg.suggestedFilename(), 'dungeon-xnethack-42.svg');
  const [png] = await Promise.all([p.waitForEvent('download'), p.click('#map-png')]);
  assert.equal(png.suggestedFilename(), 'dungeon-xnethack-42.png');
  const bytes = readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  assert.deepEqual(errors, []);
  await p.close();
});

test("dungeon: NLE's seeds and a random hero, as `dgn layout --target nle`", async () => {
  const { p, errors } = await page('?view=dungeon&game=nle&seed=42&role=Val&lgen=7&wizard=1');
  // NLE's level-generator seed and the hero's facets are asked for NLE.
  assert.equal(await p.locator('input[name=lgen]').inputValue(), '7');
  assert.ok(await p.locator('select[name=gender]').isVisible());
  await mapShown(p);
  await p.locator('#dungeon-hero').waitFor();
  const hero = await p.locator('#dungeon-hero').textContent();
  const cli = spawnSync(
    dgn,
    [
      'layout',
      '--target',
      'nle',
      '--seed',
      '42',
      '--role',
      'val',
      '--option',
      'lgen=7',
      '--wizard',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(await p.locator('pre.overview').textContent(), cli.stdout);
  assert.match(cli.stderr, new RegExp(hero.replace(/^You/, 'you').replace('.', '\\.')));
  // A random hero is chosen as the game does, and the URL keeps the seeds.
  await p.selectOption('select[name=role]', 'random');
  await p.click('#view-dungeon button[type=submit]');
  await p.waitForFunction(() => /role=random/.test(location.search));
  assert.match(new URL(p.url()).search, /lgen=7/);
  // Other games do not show NLE's seed or the hero's facets.
  await p.selectOption('select[name=game]', 'nethack-3.7');
  assert.ok(!(await p.locator('input[name=lgen]').isVisible()));
  assert.ok(!(await p.locator('select[name=gender]').isVisible()));
  assert.deepEqual(errors, []);
  await p.close();
});

test('edit: each game starts from its own description, and Edit and Layout agree', async () => {
  // The game's own file, as `dgn layout --target GAME` lays it out when given none.
  const own = {
    dnethack: 'dnethack-3.23.def',
    evilhack: 'evilhack-0.9.def',
    'nethack-3.4.3': 'nethack-3.4.3.def',
    xnethack: 'xnethack-9.1.lua',
  };
  for (const [game, file] of Object.entries(own)) {
    const { p, errors } = await page(`?view=edit&game=${game}`);
    await p.waitForFunction(
      () => document.querySelector('#edit-status')?.dataset.errors === '0',
      null,
      { timeout: 30000 },
    );
    const text = readFileSync(path.join(root, 'corpus', file), 'utf8');
    assert.equal(await p.evaluate(() => window.dgnEditor.state.doc.toString()), text, game);
    const kind = file.endsWith('.lua') ? 'dungeon.lua' : 'dungeon.def';
    assert.equal(await p.locator('select[name=kind]').inputValue(), kind, game);
    assert.match(await p.locator('#edit-kept').textContent(), new RegExp(`corpus/${file}`));
    // The layout pane lays the same text out: a map, not an error.
    await mapShown(p);
    assert.equal(await p.locator('#preview .error').count(), 0, game);
    if (game === 'dnethack') {
      await p.screenshot({ path: path.join(shots, 'serve-edit-dnethack.png') });
      // Another game over the untouched sample brings its own, of its own kind.
      await p.selectOption('select[name=game]', 'xnethack');
      await p.waitForFunction(() =>
        window.dgnEditor.state.doc.toString().includes('name = "The Dungeons of Doom"'),
      );
      assert.equal(await p.locator('select[name=kind]').inputValue(), 'dungeon.lua');
      assert.equal(
        await p.evaluate(() => window.dgnEditor.state.doc.toString()),
        readFileSync(path.join(root, 'corpus', own.xnethack), 'utf8'),
      );
    }
    assert.deepEqual(errors, [], game);
    await p.close();
  }
});

test("edit: diagnostics as you type, a level's hover with its depths and bones, and Format", async () => {
  const { p, errors } = await page('?view=edit&seed=3');
  await p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '0',
    null,
    { timeout: 20000 },
  );
  await mapShown(p);
  await p.evaluate(() => {
    const v = window.dgnEditor;
    const text = '\nLEVEL: "extra" "X" @ (99, 1)\n';
    const end = v.state.doc.length + text.length;
    v.dispatch({
      changes: { from: v.state.doc.length, insert: text },
      selection: { anchor: end },
      scrollIntoView: true,
    });
    v.focus();
  });
  await p.waitForFunction(
    () => Number(document.querySelector('#edit-status')?.dataset.errors) >= 1,
    null,
    { timeout: 20000 },
  );
  await p.locator('.cm-lint-marker-error').first().waitFor();
  await p.locator('.cm-lintRange-error').first().hover();
  await p.locator('.cm-tooltip-lint').waitFor();
  assert.match(await p.locator('.cm-tooltip-lint').textContent(), /E\d{4}/);
  await p.screenshot({ path: path.join(shots, 'serve-edit.png') });
  // The diagnostics are the language server's, shown once.
  assert.equal(await p.locator('#edit-status').getAttribute('data-source'), 'lsp');
  assert.equal(await p.locator('.cm-tooltip-lint .cm-diagnostic').count(), 1);
  await p.mouse.move(0, 0);
  // Without the error again, a level's hover: its depths (with their odds
  // once the statistics are computed) and its bones.
  await p.evaluate(() => {
    const v = window.dgnEditor;
    const text = v.state.doc.toString();
    const at = text.lastIndexOf('\nLEVEL: "extra"');
    v.dispatch({ changes: { from: at, to: text.length } });
  });
  await p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '0',
    null,
    { timeout: 20000 },
  );
  const oracle = await p.evaluate(() => {
    const v = window.dgnEditor;
    const at = v.state.doc.toString().indexOf('"oracle" "O" @ (5, 5)') + 3;
    v.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    return at;
  });
  let hover = '';
  for (let i = 0; i < 20 && !/bones: eligible/.test(hover); i++) {
    await p.mouse.move(0, 0);
    await p.locator('.cm-lsp-hover-tooltip').waitFor({ state: 'detached', timeout: 5000 });
    const at = await p.evaluate((pos) => {
      const r = window.dgnEditor.coordsAtPos(pos);
      return { x: r.left + 2, y: (r.top + r.bottom) / 2 };
    }, oracle);
    await p.mouse.move(at.x, at.y, { steps: 2 });
    await p.locator('.cm-lsp-hover-tooltip').waitFor({ timeout: 10000 });
    hover = await p.locator('.cm-lsp-hover-tooltip').textContent();
  }
  assert.match(hover, /"oracle".*depth: 5 \(20%\)/s);
  assert.match(hover, /bones: eligible/);
  // Format: the language server's edits make the text `dgn fmt`'s.
  const messy = await p.evaluate(() => {
    const v = window.dgnEditor;
    const text = v.state.doc.toString();
    const at = text.indexOf('LEVEL:\t\t"oracle" "O" @ (5, 5)');
    v.dispatch({
      changes: {
        from: at,
        to: at + 'LEVEL:\t\t"oracle" "O" @ (5, 5)'.length,
        insert: 'LEVEL:"oracle"   "O"  @(5,5)',
      },
    });
    return v.state.doc.toString();
  });
  const formatted = spawnSync(dgn, ['fmt', '-'], { input: messy, encoding: 'utf8' }).stdout;
  assert.match(formatted, /LEVEL:\s+"oracle" "O" @ \(5, 5\)/);
  await p.click('#format');
  await p.waitForFunction((want) => window.dgnEditor.state.doc.toString() === want, formatted, {
    timeout: 10000,
  });
  // A dungeon.lua is checked as NetHack 3.7's, its layout drawn.
  const lua = await page('?view=edit&name=dungeon.lua&game=nethack-3.7');
  await lua.p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '0',
    null,
    { timeout: 20000 },
  );
  assert.equal(await lua.p.locator('#edit-status').getAttribute('data-source'), 'lsp');
  assert.match(await lua.p.locator('.cm-content').textContent(), /dungeon = /);
  await mapShown(lua.p);
  // The other kind of file is another document for the language server.
  await lua.p.selectOption('select[name=kind]', 'dungeon.def');
  await lua.p.waitForFunction(() => window.dgnEditor.state.doc.toString().includes('DUNGEON:'));
  await lua.p.evaluate(() => {
    const v = window.dgnEditor;
    v.dispatch({
      changes: { from: v.state.doc.length, insert: '\nLEVEL: "extra" "X" @ (99, 1)\n' },
    });
  });
  await lua.p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '1',
    null,
    { timeout: 20000 },
  );
  assert.equal(await lua.p.locator('select[name=game]').inputValue(), 'nethack-3.6');
  await lua.p.close();
  assert.deepEqual(errors.concat(lua.errors), []);
  await p.close();
});

/** The Edit view's text. */
const editText = (p) => p.evaluate(() => window.dgnEditor.state.doc.toString());

/** Types `text` at the end of the Edit view's text. */
const appendEdit = (p, text) =>
  p.evaluate((t) => {
    const v = window.dgnEditor;
    v.dispatch({ changes: { from: v.state.doc.length, insert: t } });
  }, text);

/** Waits for the Edit view's notice to say that an edit (`edit`) or the sample (`sample`) is shown. */
const editShows = (p, what) =>
  p.waitForFunction((w) => document.querySelector('#edit-kept')?.dataset.shown === w, what, {
    timeout: 20000,
  });

const SAMPLE_DEF = readFileSync(path.join(root, 'corpus', 'nethack-3.6.def'), 'utf8');
const SAMPLE_LUA = readFileSync(path.join(root, 'corpus', 'nethack-3.7.lua'), 'utf8');

test('edit: an edit is kept per game and kind of file across leaving the view, reload and Back', async () => {
  const { p, errors } = await page('?view=edit&game=nethack-3.6');
  await editShows(p, 'sample');
  assert.equal(await editText(p), SAMPLE_DEF);
  assert.match(await p.locator('#edit-kept').textContent(), /built-in sample is shown/);
  await appendEdit(p, '\n# my change\n');
  await editShows(p, 'edit');
  assert.match(
    await p.locator('#edit-kept').textContent(),
    /Your edit of dungeon\.def for nethack-3\.6 is shown, not the built-in sample/,
  );
  // Another view and back.
  await p.click('#tabs a[data-view=dungeon]');
  await mapShown(p);
  await p.click('#tabs a[data-view=edit]');
  await editShows(p, 'edit');
  assert.equal(await editText(p), SAMPLE_DEF + '\n# my change\n');
  // A reload.
  await p.reload();
  await editShows(p, 'edit');
  assert.equal(await editText(p), SAMPLE_DEF + '\n# my change\n');
  // Back, from another view.
  await p.click('#tabs a[data-view=odds]');
  await p.locator('#view-odds').waitFor();
  await p.goBack();
  await editShows(p, 'edit');
  assert.equal(await editText(p), SAMPLE_DEF + '\n# my change\n');
  // The other kind of file has its own text.
  await p.selectOption('#view-edit select[name=kind]', 'dungeon.lua');
  await editShows(p, 'sample');
  assert.equal(await editText(p), SAMPLE_LUA);
  await appendEdit(p, '\n-- lua change\n');
  await editShows(p, 'edit');
  await p.selectOption('#view-edit select[name=kind]', 'dungeon.def');
  await editShows(p, 'edit');
  assert.equal(await editText(p), SAMPLE_DEF + '\n# my change\n');
  await p.reload();
  await p.selectOption('#view-edit select[name=kind]', 'dungeon.lua');
  await p.waitForFunction(() => window.dgnEditor.state.doc.toString().endsWith('-- lua change\n'));
  // Another game has its own text too.
  await p.goto(base + '?view=edit&game=dnethack');
  await editShows(p, 'sample');
  await appendEdit(p, '\n# dnethack change\n');
  await editShows(p, 'edit');
  await p.selectOption('#view-edit select[name=game]', 'nethack-3.6');
  await p.waitForFunction(() => window.dgnEditor.state.doc.toString().endsWith('# my change\n'));
  await p.selectOption('#view-edit select[name=game]', 'dnethack');
  await p.waitForFunction(() =>
    window.dgnEditor.state.doc.toString().endsWith('# dnethack change\n'),
  );
  // An edit follows a game that has none of its own.
  await p.selectOption('#view-edit select[name=game]', 'slashem');
  await editShows(p, 'edit');
  assert.match(await editText(p), /# dnethack change\n$/);
  assert.match(await p.locator('#edit-kept').textContent(), /for slashem/);
  assert.deepEqual(errors, []);
  await p.close();
});

test('edit: Download saves the text, Open loads a file, and the sample comes back and goes', async () => {
  const { p, errors } = await page('?view=edit');
  await editShows(p, 'sample');
  await appendEdit(p, '\n# kept\n');
  await editShows(p, 'edit');
  assert.equal(await p.locator('#edit-download').textContent(), 'Download dungeon.def');
  const [saved] = await Promise.all([p.waitForEvent('download'), p.click('#edit-download')]);
  assert.equal(saved.suggestedFilename(), 'dungeon.def');
  assert.equal(readFileSync(await saved.path(), 'utf8'), SAMPLE_DEF + '\n# kept\n');
  // Back to the sample: the edit is put aside, and comes back.
  await p.click('#edit-to-sample');
  await editShows(p, 'sample');
  assert.equal(await editText(p), SAMPLE_DEF);
  await p.reload();
  await editShows(p, 'sample');
  await p.click('#edit-restore');
  await editShows(p, 'edit');
  assert.equal(await editText(p), SAMPLE_DEF + '\n# kept\n');
  assert.equal(await p.locator('#edit-restore').count(), 0);
  // A file opened from disk: a .lua name makes it a dungeon.lua.
  const mine = SAMPLE_LUA.replace('"oracle"', '"oracle" --[[ mine ]]');
  await p.setInputFiles('#edit-file', {
    name: 'mine.lua',
    mimeType: 'text/plain',
    buffer: Buffer.from(mine),
  });
  await p.waitForFunction((t) => window.dgnEditor.state.doc.toString() === t, mine);
  assert.equal(await p.locator('#view-edit select[name=kind]').inputValue(), 'dungeon.lua');
  assert.equal(await p.locator('#view-edit select[name=game]').inputValue(), 'nethack-3.7');
  assert.match(await p.locator('#edit-kept').textContent(), /Opened “mine\.lua”/);
  assert.equal(await p.locator('#edit-download').textContent(), 'Download dungeon.lua');
  await p.waitForURL(/name=dungeon\.lua/);
  await p.reload();
  await editShows(p, 'edit');
  assert.equal(await editText(p), mine);
  // The .def edit is still kept under its own kind.
  await p.selectOption('#view-edit select[name=kind]', 'dungeon.def');
  await p.waitForFunction(() => window.dgnEditor.state.doc.toString().endsWith('# kept\n'));
  // A compiled file is refused, and the text stays.
  await p.setInputFiles('#edit-file', {
    name: 'dungeon',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from([0x01, 0x00, 0x02]),
  });
  await p.locator('#edit-kept', { hasText: 'is a compiled file' }).waitFor();
  assert.match(await editText(p), /# kept\n$/);
  assert.deepEqual(errors, []);
  await p.close();
});

test('edit: without the language server, dgn check through the API gives the diagnostics', async () => {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.routeWebSocket(/\/lsp$/, (ws) => ws.close({ code: 1013, reason: 'busy' }));
  await p.goto(base + '?view=edit');
  await p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '0',
    null,
    { timeout: 20000 },
  );
  assert.equal(await p.locator('#edit-status').getAttribute('data-source'), 'api');
  assert.ok(await p.locator('#format').isDisabled());
  await p.evaluate(() => {
    const v = window.dgnEditor;
    v.dispatch({
      changes: { from: v.state.doc.length, insert: '\nLEVEL: "extra" "X" @ (99, 1)\n' },
    });
  });
  await p.waitForFunction(
    () => document.querySelector('#edit-status')?.dataset.errors === '1',
    null,
    { timeout: 20000 },
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('edit: undo keeps the file kind, and leaving the view throws nothing', async () => {
  const { p, errors } = await page('?view=edit');
  await p.waitForFunction(
    () => {
      const s = document.querySelector('#edit-status');
      return s?.dataset.source === 'lsp' && s.dataset.errors === '0';
    },
    null,
    { timeout: 30000 },
  );
  await p.selectOption('#view-edit select[name=kind]', 'dungeon.lua');
  const doc = () => p.evaluate(() => window.dgnEditor.state.doc.toString());
  await p.waitForFunction(() => !window.dgnEditor.state.doc.toString().includes('DUNGEON:'));
  await p.locator('.cm-content').click();
  await p.keyboard.press('Control+z');
  assert.ok(!(await doc()).includes('DUNGEON:'), 'undo did not bring the .def sample back');
  assert.equal(await p.locator('#view-edit select[name=kind]').inputValue(), 'dungeon.lua');
  await p.click('#tabs a[data-view=dungeon]');
  await mapShown(p);
  assert.deepEqual(errors, []);
  await p.close();
});

test('odds: the tables, and the same given what was seen', async () => {
  const { p, errors } = await page('?view=odds');
  await p.locator('table.odds').first().waitFor({ timeout: 30000 });
  assert.ok((await p.locator('table.odds').first().locator('tbody tr').count()) > 5);
  // NetHack 3.6's own file never fails to load, and the page says so in words.
  assert.match(await p.locator('#odds-method').textContent(), /; the loader never fails\.$/);
  await p.fill('input[name=given]', 'oracle.depth == 7');
  await p.click('#view-odds button[type=submit]');
  await p.waitForURL(/given=oracle/);
  await p.locator('table.odds').first().waitFor({ timeout: 30000 });
  const oracle = p.locator('table.odds').first().locator('tr', { hasText: 'oracle' }).first();
  assert.match(await oracle.locator('.range').textContent(), /^7$/);
  await p.screenshot({ path: path.join(shots, 'serve-odds.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await p.close();
});

test('odds: the statistics are asked for once, the chart drawn from them', async () => {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  const asked = [];
  p.on('request', (r) => {
    if (r.url().endsWith('/api/stats')) asked.push(JSON.parse(r.postData()));
  });
  await p.goto(base + '?view=odds&game=dnethack');
  await p.locator('table.odds').first().waitFor({ timeout: 60000 });
  assert.deepEqual(
    asked.map((a) => a.format),
    ['json'],
  );
  // The chart: a row per special level that can exist, its bars.
  const stats = JSON.parse(
    spawnSync(dgn, ['stats', '--target', 'dnethack', '--format', 'json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }).stdout,
  );
  const levels = stats.levels.filter((l) => l.exists > 0 && Object.keys(l.depth).length);
  const chart = p.locator('#odds-chart svg');
  const names = await chart.locator('text > tspan:first-child').allTextContents();
  assert.deepEqual(
    names,
    levels.map((l) => l.name),
  );
  const bars = levels.reduce((n, l) => n + Object.keys(l.depth).length, 0);
  assert.equal(await chart.locator('rect > title').count(), bars);
  assert.match(await p.locator('#odds-method').textContent(), /^Exact enumeration/);
  assert.deepEqual(errors, []);
  await p.close();
});

test("odds: out of time, the message names the page's controls, and sampling answers", async () => {
  // A server whose requests have 1 s: dNetHack's statistics given an
  // overview take several seconds to enumerate, a sample of them a tenth.
  const quick = await serve(['--timeout', '1']);
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  const overview = [
    'The Dungeons of Doom: levels 1 to 12',
    '   Level 3:',
    '      Stairs down to The Gnomish Mines.',
    '   Level 7:',
    '      Stairs up to Sokoban, level 6.',
  ].join('\n');
  const q = new URLSearchParams({ view: 'odds', game: 'dnethack', given_overview: overview });
  await p.goto(`${quick.base}?${q}`);
  const error = p.locator('#odds-results pre.error');
  await error.waitFor({ timeout: 30000 });
  const message = await error.textContent();
  assert.match(message, /ran out of its time budget/);
  assert.match(message, /the “sampled” Method/);
  assert.match(message, /fewer “Samples”/);
  assert.doesNotMatch(
    message,
    /--|`/,
    `a flag or a parameter the page has no control for: ${message}`,
  );
  // The controls it names.
  await p.selectOption('#view-odds select[name=method]', 'sample');
  await p.fill('#view-odds input[name=samples]', '2000');
  await p.click('#view-odds button[type=submit]');
  await p.locator('#odds-given').waitFor({ timeout: 30000 });
  assert.match(await p.locator('#odds-method').textContent(), /^Sampled: 2000 seeds from 0/);
  assert.match(p.url(), /sample=1/);
  assert.match(p.url(), /samples=2000/);
  // The link keeps them.
  await p.reload();
  assert.equal(await p.inputValue('#view-odds select[name=method]'), 'sample');
  assert.equal(await p.inputValue('#view-odds input[name=samples]'), '2000');
  await p.locator('#odds-given').waitFor({ timeout: 30000 });
  assert.deepEqual(errors, []);
  await p.close();
  quick.server.kill();
});

test('odds: a pasted overview is shown as read, and the link keeps it', async () => {
  const { p, errors } = await page('?view=odds');
  await p.locator('table.odds').first().waitFor({ timeout: 30000 });
  await p.click('#view-odds details summary');
  await p.fill(
    'textarea[name=given_overview]',
    [
      'The Dungeons of Doom: levels 1 to 9',
      '   Level 3:',
      '      Stairs down to The Gnomish Mines.',
      '   Level 8:',
      '      Stairs up to Sokoban, level 7.',
    ].join('\n'),
  );
  await p.click('#view-odds button[type=submit]');
  const given = p.locator('#odds-given');
  await given.waitFor({ timeout: 30000 });
  const read = await given.textContent();
  assert.match(read, /of games look like this/);
  assert.match(read, /branch\("The Gnomish Mines"\)\.depth == 3/);
  assert.match(read, /branch\("Sokoban"\)\.depth == 8/);
  assert.match(p.url(), /given_overview=The\+Dungeons/);
  // The link alone gives the same condition.
  await p.goto(p.url());
  await p.locator('#odds-given').waitFor({ timeout: 30000 });
  assert.match(await p.locator('#odds-given').textContent(), /Sokoban/);
  assert.match(await p.inputValue('textarea[name=given_overview]'), /Stairs up to Sokoban/);
  assert.deepEqual(errors, []);
  await p.close();
});

test('xlogfile: pasted lines become the table of games and the summary', async () => {
  const { p, errors } = await page('?view=xlog');
  await p.fill(
    '#xlog-text',
    [
      'version=3.6.6:points=4321:deathdnum=0:deathlev=5:maxlvl=5:hp=-3:maxhp=40:deaths=1:role=Val:race=Hum:gender=Fem:align=Neu:name=alpha:death=killed by a soldier ant:flags=0x0',
      'version=3.6.6:points=12:deathdnum=2:deathlev=4:maxlvl=4:hp=0:maxhp=12:deaths=0:role=Wiz:race=Elf:gender=Mal:align=Cha:name=beta:death=quit:flags=0x0',
    ].join('\n'),
  );
  await p.click('#view-xlog button[type=submit]');
  await p.locator('table.games tbody tr').nth(1).waitFor({ timeout: 20000 });
  assert.match(await p.locator('table.games').textContent(), /alpha.*The Dungeons of Doom/s);
  assert.match(await p.locator('table.summary').first().textContent(), /2/);
  await p.screenshot({ path: path.join(shots, 'serve-xlog.png') });
  // An uploaded file is answered the same way.
  await p.setInputFiles('#xlog-file', {
    name: 'xlogfile',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      'version=3.4.3:points=7:deathdnum=0:deathlev=3:maxlvl=3:hp=-1:maxhp=9:deaths=1:role=Sam:race=Hum:gender=Mal:align=Law:name=gamma:death=killed by a jackal\n',
    ),
  });
  await p.waitForFunction(
    () => document.querySelector('table.games')?.textContent.includes('gamma'),
    null,
    { timeout: 20000 },
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('xlogfile: a filter field no line has is named, with the likely one', async () => {
  const { p, errors } = await page('?view=xlog');
  await p.fill(
    '#xlog-text',
    'version=3.6.6:points=4321:deathdnum=0:deathlev=5:maxlvl=5:hp=-3:maxhp=40:deaths=1:role=Val:race=Hum:gender=Fem:align=Neu:name=alpha:death=killed by a soldier ant:flags=0x0\n',
  );
  await p.fill('#view-xlog input[name=where]', 'rolee == Val');
  await p.click('#view-xlog button[type=submit]');
  const warning = p.locator('#xlog-results p.warning');
  await warning.waitFor({ timeout: 20000 });
  const text = await warning.textContent();
  assert.match(text, /“rolee”, a field no line has/);
  assert.match(text, /did you mean “role”/);
  assert.match(
    await p.locator('table.summary').first().textContent(),
    /0.*1/s,
    'one game left out',
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('a game or a role the page does not offer is said, and a full role name is taken', async () => {
  const { p, errors } = await page('?view=dungeon&game=bogus&role=Wizard&seed=3');
  const notice = p.locator('p.url-notice');
  await notice.first().waitFor({ timeout: 20000 });
  assert.equal(await notice.count(), 1);
  assert.match(
    await notice.textContent(),
    /game “bogus” is not one of the choices, so “nethack-3.6” is shown/,
  );
  assert.equal(await p.locator('#view-dungeon select[name=role]').inputValue(), 'Wiz');
  assert.equal(await p.locator('#view-dungeon select[name=game]').inputValue(), 'nethack-3.6');
  assert.deepEqual(errors, []);
  await p.close();
});

test('diff: two descriptions compared', async () => {
  const { p, errors } = await page('?view=diff');
  await p.locator('table.diff tbody tr').first().waitFor({ timeout: 30000 });
  assert.match(await p.locator('table.diff').textContent(), /oracle/);
  await p.screenshot({ path: path.join(shots, 'serve-diff.png') });
  assert.deepEqual(errors, []);
  await p.close();
});

/**
 * The shared corpus's DynaHack 0.5.5 and 0.6.0 dungeon.def (found by
 * ../shared/corpus/MANIFEST.tsv), or null when ../shared is not beside the
 * checkout (a failure with DGNKIT_REQUIRE_SHARED=1, as in CI).
 */
function dynahackPair() {
  const dir = path.join(root, '..', 'shared', 'corpus');
  const manifest = path.join(dir, 'MANIFEST.tsv');
  if (!existsSync(manifest)) {
    assert.notEqual(process.env.DGNKIT_REQUIRE_SHARED, '1', `no ${manifest}`);
    return null;
  }
  const rows = readFileSync(manifest, 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((r) => r[1] === 'DynaMoHack/DynaHack' && r[8] === 'dungeon.def');
  const at = (pick) => path.join(dir, rows.find(pick)[0], 'dungeon.def');
  return { old: at((r) => r[0].endsWith('@v0.5.5')), new: at((r) => !r[0].includes('@')) };
}

test('diff: DynaHack 0.5.5 against 0.6.0, opened from files, shows what `dgn diff` prints', async (t) => {
  const pair = dynahackPair();
  if (!pair) return t.skip('no ../shared/corpus beside the checkout');
  // The files under the names the page sends, for `dgn diff` to name them alike.
  const dir = mkdtempSync(path.join(tmpdir(), 'dgn-diff-'));
  copyFileSync(pair.old, path.join(dir, 'dynahack-0.5.5.def'));
  copyFileSync(pair.new, path.join(dir, 'dynahack-0.6.0.def'));
  const cli = (format) => {
    const r = spawnSync(
      path.resolve(dgn),
      [
        'diff',
        '--target',
        'dynahack',
        '--format',
        format,
        'dynahack-0.5.5.def',
        'dynahack-0.6.0.def',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const human = cli('human');
  const json = JSON.parse(cli('json'));

  const { p, errors } = await page('?view=diff');
  await p.locator('table.diff tbody tr').first().waitFor({ timeout: 30000 });
  await p.selectOption('#view-diff select[name=game]', 'dynahack');
  await p.setInputFiles('#diff-old-file', path.join(dir, 'dynahack-0.5.5.def'));
  await p.setInputFiles('#diff-new-file', path.join(dir, 'dynahack-0.6.0.def'));
  await p.waitForFunction(() => document.querySelector('#diff-new')?.value.includes('DUNGEON:'));
  await p.click('#view-diff button[type=submit]');
  await p.locator('#diff-head', { hasText: 'dynahack-0.6.0.def' }).waitFor({ timeout: 30000 });

  // The head: each side and the summary line, as `dgn diff` prints them.
  const head = await p.locator('#diff-head p').allTextContents();
  assert.deepEqual(head, human.split('\n').slice(0, head.length));
  assert.equal(
    await p.locator('#diff-summary').textContent(),
    '31 changed, 12 added, 9 removed, 122 unchanged of 174 items',
  );
  // Each row: its cells those of the human table's line, in order.
  const rows = await p
    .locator('table.diff tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.children].map((td) => (td.querySelector('.figure') ?? td).textContent),
      ),
    );
  const text = human.split('\n');
  const start = text.findIndex((l) => l.trim().startsWith('item')) + 1;
  const lines = text.slice(start, text.indexOf('', start));
  assert.equal(rows.length, lines.length);
  assert.equal(rows.length, json.table.rows.length);
  rows.forEach((cells, i) => {
    let rest = lines[i];
    for (const c of cells.filter((c) => c !== '')) {
      const at = rest.indexOf(c);
      assert.ok(at >= 0, `row ${i}: “${c}” is not in order in “${lines[i]}”`);
      rest = rest.slice(at + c.length);
    }
    assert.equal(rest.trim(), '', `row ${i}: “${lines[i]}” has more than the page's ${cells}`);
    // No row leaves both sides empty.
    assert.ok(cells[2] !== '' || cells[3] !== '', `row ${i} has empty old and new cells`);
  });
  // What changed, said: townfill moved from level 2 to 3 of the Town.
  const townfill = rows.find((r) => r[0] === 'level townfill (Town)');
  assert.deepEqual(townfill.slice(1), ['level', '2', '3', 'mean +1.0', '1.000']);
  // The four heck-e told apart.
  const hecks = rows.map((r) => r[0]).filter((n) => n.startsWith('level heck-e'));
  assert.deepEqual(hecks.sort(), [
    'level heck-e #2 (Gehennom)',
    'level heck-e #3 (Gehennom)',
    'level heck-e #4 (Gehennom)',
    'level heck-e (Gehennom)',
  ]);
  // A bones row has its figures.
  const bones = rows.find((r) => r[0] === 'bones Town level 2');
  assert.deepEqual(bones.slice(1, 4), [
    'bones verdict',
    'can load 0%, leave 0%',
    'can load 100%, leave 100%',
  ]);
  // The rules the table names, as `dgn diff` lists them.
  const rules = human
    .split('\n')
    .filter((l) => /^  rule \d+: /.test(l))
    .map((l) => l.trim());
  assert.ok(rules.length > 0);
  assert.deepEqual(await p.locator('#diff-rules li').allTextContents(), rules);
  assert.deepEqual(errors, []);
  await p.close();
});

/** Whether the page scrolls sideways, and the table cells with text that are not wholly on screen. */
const offScreen = (p) =>
  p.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cells = [...document.querySelectorAll('td, th')].filter(
      (c) => c.textContent.trim() !== '' && c.closest('thead') === null,
    );
    return {
      sideways: document.documentElement.scrollWidth > width,
      cut: cells
        .filter((c) => {
          const r = c.getBoundingClientRect();
          return r.width === 0 || r.left < 0 || r.right > width + 0.5;
        })
        .map((c) => c.textContent)
        .slice(0, 5),
    };
  });

test('phone: Dungeon and Odds fit 390 px, every column shown, and a bones reason opens on a tap', async () => {
  const p = await browser.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(base + '?view=dungeon&game=dnethack&seed=42');
  await mapShown(p);
  await p.locator('table.bones tbody tr').first().waitFor({ timeout: 20000 });
  assert.deepEqual(await offScreen(p), { sideways: false, cut: [] }, 'Dungeon');
  // The reason a level can or cannot hold bones, on a tap.
  const bones = JSON.parse(
    spawnSync(dgn, ['bones', '--target', 'dnethack', '--seed', '42', '--format', 'json'], {
      encoding: 'utf8',
    }).stdout,
  ).levels;
  const toggle = p.locator('table.bones tbody tr button.reason-toggle').nth(4);
  await toggle.scrollIntoViewIfNeeded();
  await toggle.tap();
  const reason = p.locator('table.bones tr.reason');
  await reason.waitFor();
  assert.equal(await reason.textContent(), `Rule ${bones[4].rule}`);
  assert.ok(await reason.isVisible());
  assert.deepEqual(await offScreen(p), { sideways: false, cut: [] }, 'Dungeon, a reason open');
  await p.evaluate(() => document.querySelector('table.bones').scrollIntoView());
  await p.screenshot({ path: path.join(shots, 'serve-phone-dungeon.png') });
  await toggle.tap();
  await reason.waitFor({ state: 'detached' });

  await p.goto(base + '?view=odds&game=dnethack');
  await p.locator('table.odds tbody tr').first().waitFor({ timeout: 60000 });
  await p.locator('#view-odds details summary').tap();
  assert.deepEqual(await offScreen(p), { sideways: false, cut: [] }, 'Odds');
  await p.screenshot({ path: path.join(shots, 'serve-phone-odds.png') });
  assert.deepEqual(errors, []);
  await p.close();
});
