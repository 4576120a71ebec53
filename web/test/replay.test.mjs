// The Replay view and the Dungeon view's draw log in a real browser
// (issue #43 item 3, #44 item 5): Debian's chromium (or $CHROMIUM), driven
// by playwright-core, against `dgn serve` on a free loopback port ($DGN, or
// ../target/debug/dgn), as browser.test.mjs drives the other views.
//
// `dgn serve` serves the page built into it; DGNKIT_WEB_DIST=dist serves
// web/dist's instead (the page as just built, before the binary is rebuilt).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const dgn = process.env.DGN ?? path.join(root, 'target', 'debug', 'dgn');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const dist = process.env.DGNKIT_WEB_DIST
  ? path.resolve(here, '..', process.env.DGNKIT_WEB_DIST)
  : null;
const scratch = mkdtempSync(path.join(tmpdir(), 'dgn-replay-'));
// DGNKIT_SCREENSHOTS=1 writes docs/images/serve-replay.png (the README's).
const shots = process.env.DGNKIT_SCREENSHOTS === '1' ? path.join(root, 'docs', 'images') : scratch;

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
  server = spawn(dgn, ['serve', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  base = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`dgn serve did not start: ${err}`)), 20000);
    server.stderr.on('data', (d) => {
      err += d;
      const m = /the page at (http:\/\/[^ ]+\/)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`dgn serve exited ${code}: ${err}`)));
  });
  browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** With DGNKIT_WEB_DIST, the page's three files from that directory. */
async function fromDist(p) {
  if (!dist) return;
  await p.route(
    (u) => u.origin === new URL(base).origin && ['/', '/app.js', '/app.css'].includes(u.pathname),
    (r) => {
      const name = new URL(r.request().url()).pathname.slice(1) || 'index.html';
      return r.fulfill({ path: path.join(dist, name) });
    },
  );
}

async function page(url) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('requestfailed', (r) => {
    if (!r.url().startsWith('blob:')) errors.push(`request failed: ${r.url()}`);
  });
  await fromDist(p);
  await p.goto(base + url);
  return { p, errors };
}

/** `dgn layout ARGS --format gamelog`, read: the bytes and the JSON. */
function gamelog(args) {
  const r = spawnSync(dgn, ['layout', ...args, '--format', 'gamelog']);
  assert.equal(r.status, 0, String(r.stderr));
  return { bytes: r.stdout, log: JSON.parse(gunzipSync(r.stdout)) };
}

/** The `ran` deltas' data: the loader's draws. */
function draws(log) {
  return log.deltas.filter((d) => d.type === 'ran').map((d) => d.data);
}

/** The replay shown: the map drawn and at step `k` (of `of` draws). */
async function shown(p, k, of) {
  const want = k === 0 ? `Before the first of ${of} draws` : `Draw ${k} of ${of}`;
  await p.locator('#replay-map').waitFor({ timeout: 20000 });
  await p.locator('#replay-pos', { hasText: want }).waitFor({ timeout: 20000 });
}

/** The special levels the replay's map shows: name, dungeon, level, depth. */
async function mapLevels(p) {
  return (
    await p
      .locator('#replay-map g.level:not([display])')
      .evaluateAll((gs) =>
        gs.map((g) => [g.dataset.name, g.dataset.dungeon, g.dataset.level, g.dataset.depth]),
      )
  ).sort();
}

test('replay: opened from the Dungeon view, it replays the same game, seed and hero', async () => {
  const { p, errors } = await page('?view=dungeon&game=nethack-3.7&seed=42&role=Wiz');
  const link = p.locator('#dungeon-replay');
  await link.waitFor({ timeout: 20000 });
  await link.click();
  await p.waitForURL(/view=replay/);
  await shown(p, 0, 101);
  assert.equal(await p.locator('#tabs a.current').textContent(), 'Replay');
  assert.equal(await p.locator('select[name=game]').inputValue(), 'nethack-3.7');
  assert.equal(await p.locator('input[name=seed]').inputValue(), '42');
  assert.equal(await p.locator('select[name=role]').inputValue(), 'Wiz');
  assert.match(await p.locator('#replay-map').textContent(), /NetHack 3\.7, seed 42/);
  assert.match(await p.locator('#replay-change').textContent(), /nothing decided yet/);
  // Nothing is placed before the first draw.
  assert.deepEqual(await mapLevels(p), []);
  assert.deepEqual(errors, []);
  await p.close();
});

test('replay: a step shows the draw, its C site and what it changed, either way', async () => {
  const { log } = gamelog(['--target', 'nethack-3.7', '--seed', '42', '--role', 'Wizard']);
  const ran = draws(log);
  const k = ran.findIndex((d) => d.what === 'placing "oracle"') + 1;
  assert.ok(k > 1);
  const oracle = ran[k - 1];
  const level = log.deltas.filter((d) => d.type === 'ran')[k - 1].game.gameObjects[oracle.object.id]
    .dlevel;
  const { p, errors } = await page(`?view=replay&game=nethack-3.7&seed=42&role=Wiz&step=${k - 2}`);
  await shown(p, k - 2, 101);
  // A click forward, then a key.
  await p.click('#replay-forward');
  await shown(p, k - 1, 101);
  await p.keyboard.press('ArrowRight');
  await shown(p, k, 101);
  const draw = await p.locator('#replay-draw').textContent();
  assert.ok(draw.includes(`rn2(${oracle.run.args.x})=${oracle.returned}`), draw);
  assert.ok(draw.includes('placing "oracle"'), draw);
  assert.match(oracle.run.caller, /dungeon\.c:\d+/);
  assert.ok(
    (await p.locator('#replay-site').textContent()).includes(oracle.run.caller),
    'the C site',
  );
  assert.equal(
    await p.locator('#replay-change').textContent(),
    `oracle placed on level ${level} of The Dungeons of Doom (depth ${level})`,
  );
  const box = p.locator('#replay-map g.level[data-name=oracle]');
  assert.equal(await box.getAttribute('data-level'), String(level));
  assert.match(await box.getAttribute('class'), /changed/, 'the step marks what it changed');
  assert.equal(
    await p.locator('#replay-draws li.current').getAttribute('data-step'),
    String(k),
    'the list of draws follows',
  );
  await p.waitForURL(new RegExp(`step=${k}(&|$)`));
  // Back: the oracle leaves the map again.
  await p.click('#replay-back');
  await shown(p, k - 1, 101);
  assert.equal(await box.getAttribute('display'), 'none');
  await p.waitForURL(new RegExp(`step=${k - 1}(&|$)`));
  assert.deepEqual(errors, []);
  await p.close();
});

test("replay: scrubbed to the end, the map holds the Dungeon view's levels", async () => {
  const { p, errors } = await page('?view=replay&game=nethack-3.7&seed=42&role=Wiz');
  await shown(p, 0, 101);
  await p.locator('#replay-scrub').fill('101');
  await shown(p, 101, 101);
  const replayed = await mapLevels(p);
  const tune = await p.locator('#replay-map').textContent();

  const dungeon = await page('?view=dungeon&game=nethack-3.7&seed=42&role=Wiz');
  await dungeon.p.locator('table.bones tbody tr').first().waitFor({ timeout: 20000 });
  const specials = (
    await dungeon.p
      .locator('table.bones tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
      )
  )
    .filter((cells) => cells[3])
    .map(([dungeonName, level, depth, special]) => [special, dungeonName, level, depth])
    .sort();
  assert.ok(specials.length > 30, `${specials.length} special levels`);
  assert.deepEqual(replayed, specials);
  // The tune and every dungeon's depths are the layout's.
  const layout = JSON.parse(
    spawnSync(
      dgn,
      ['layout', '--target', 'nethack-3.7', '--seed', '42', '--role', 'Wizard', '--format', 'json'],
      { encoding: 'utf8' },
    ).stdout,
  );
  assert.ok(tune.includes(`castle tune ${layout.tune}`), tune);
  const columns = await p
    .locator('#replay-map g.dungeon:not([display])')
    .evaluateAll((gs) => gs.map((g) => [g.dataset.name, g.dataset.depth, g.dataset.levels]));
  assert.deepEqual(
    columns.sort(),
    layout.dungeons.map((d) => [d.name, String(d.depth_start), String(d.num_levels)]).sort(),
  );
  assert.deepEqual(errors.concat(dungeon.errors), []);
  await p.close();
  await dungeon.p.close();
});

test('replay: a backtracking seed shows a level leaving its place', async () => {
  // NetHack 3.6 seed 9: place_level takes orcus's placement back.
  const { log } = gamelog(['--target', 'nethack-3.6', '--seed', '9']);
  const ran = log.deltas.filter((d) => d.type === 'ran');
  const k = ran.findIndex((d) => JSON.stringify(d.game).includes('"&RM"')) + 1;
  assert.ok(k > 0, 'the log removes a placement');
  const removed = Object.entries(ran[k - 1].game.gameObjects).filter(([, v]) => v === '&RM');
  assert.ok(removed.some(([id]) => id.startsWith('p')));
  const { p, errors } = await page(`?view=replay&game=nethack-3.6&seed=9&step=${k - 1}`);
  await shown(p, k - 1, ran.length);
  assert.equal(await p.locator('#replay-map g.ghost').count(), 0);
  const before = await p.locator('#replay-map g.level[data-name=orcus]').getAttribute('data-level');
  await p.click('#replay-forward');
  await shown(p, k, ran.length);
  const ghost = p.locator('#replay-map g.ghost[data-name=orcus]');
  await ghost.waitFor();
  assert.equal(await ghost.getAttribute('data-level'), before, 'drawn where it was');
  assert.match(await ghost.textContent(), /orcus leaves/);
  await ghost.evaluate((g) => Promise.all(g.getAnimations().map((a) => a.finished)));
  await p.locator('#replay-map-box').evaluate((e) => {
    e.scrollIntoView();
    window.scrollBy(0, -document.querySelector('.replay-bar').offsetHeight - 8);
  });
  await p.screenshot({ path: path.join(shots, 'serve-replay.png') });
  const after = await p.locator('#replay-map g.level[data-name=orcus]').getAttribute('data-level');
  assert.notEqual(after, before, 'and placed elsewhere');
  assert.equal((await p.locator('#replay-map path.ghost-move').count()) > 0, true);
  const taken = p.locator('#replay-change li.backtrack').first();
  assert.match(
    await taken.textContent(),
    new RegExp(`placement of orcus taken back: it leaves level ${before} of Gehennom`),
  );
  assert.match(
    await p.locator(`#replay-draws li[data-step="${k}"]`).getAttribute('class'),
    /backtrack/,
  );
  // A step that takes nothing back leaves no ghost behind.
  const next = ran.findIndex((d, i) => i >= k && !JSON.stringify(d.game).includes('"&RM"')) + 1;
  await p.locator('#replay-scrub').fill(String(next));
  await shown(p, next, ran.length);
  assert.equal(await p.locator('#replay-map g.ghost').count(), 0);
  assert.deepEqual(errors, []);
  await p.close();
});

test('replay: the URL reproduces the step, and ?log=URL opens a served gamelog', async () => {
  const { p, errors } = await page('?view=replay&game=nethack-3.6&seed=9&step=34');
  await shown(p, 34, 99);
  const draw = await p.locator('#replay-draw').textContent();
  const levels = await mapLevels(p);
  await p.click('#replay-forward');
  await p.waitForURL(/step=35(&|$)/);
  const url = p.url();
  assert.match(url, /game=nethack-3\.6/);
  assert.match(url, /seed=9/);
  const again = await page(url.slice(base.length));
  await shown(again.p, 35, 99);
  await p.click('#replay-back');
  await shown(p, 34, 99);
  assert.equal(await p.locator('#replay-draw').textContent(), draw);
  assert.deepEqual(await mapLevels(p), levels);
  assert.equal(
    await again.p.locator('#replay-draw').textContent(),
    await (async () => {
      await p.click('#replay-forward');
      await shown(p, 35, 99);
      return p.locator('#replay-draw').textContent();
    })(),
  );
  // A step past the end is said, and the end shown.
  const past = await page('?view=replay&game=nethack-3.6&seed=9&step=500');
  await shown(past.p, 99, 99);
  assert.match(
    await past.p.locator('p.url-notice').textContent(),
    /step 500 is past the log's last draw \(0 to 99\)/,
  );
  await past.p.close();
  // The framework viewer's `?log=URL`: here the API's own gamelog, gzipped.
  const api = '/api/layout?game=nethack-3.6&seed=9&format=gamelog';
  const served = await fetch(base.replace(/\/$/, '') + api);
  assert.equal(served.headers.get('content-encoding'), 'gzip');
  const logged = await page(`?view=replay&log=${encodeURIComponent(api)}&step=35`);
  await shown(logged.p, 35, 99);
  assert.equal(
    await logged.p.locator('#replay-draw').textContent(),
    await p.locator('#replay-draw').textContent(),
  );
  assert.equal(new URL(logged.p.url()).searchParams.get('log'), api, 'its link keeps the log');
  assert.deepEqual(errors.concat(again.errors, logged.errors), []);
  await p.close();
  await again.p.close();
  await logged.p.close();
});

test('replay: a gamelog file opens, gzipped, plain or dropped, and a broken one is said', async () => {
  const { bytes, log } = gamelog(['--target', 'nethack-3.6', '--seed', '7', '--wizard']);
  const gz = path.join(scratch, 'nethack-3.6-7.json.gz');
  writeFileSync(gz, bytes);
  const n = draws(log).length;
  const { p, errors } = await page('?view=replay&game=nethack-3.7&seed=1');
  await shown(p, 0, draws(gamelog(['--target', 'nethack-3.7', '--seed', '1']).log).length);
  await p.locator('#replay-file').setInputFiles(gz);
  await shown(p, 0, n);
  // A log of a built-in description: the form and the link open it again.
  assert.equal(await p.locator('select[name=game]').inputValue(), 'nethack-3.6');
  assert.equal(await p.locator('input[name=seed]').inputValue(), '7');
  assert.ok(await p.locator('input[name=wizard]').isChecked());
  await p.waitForURL((u) => u.searchParams.get('game') === 'nethack-3.6');
  const q = new URL(p.url()).searchParams;
  assert.deepEqual(
    [q.get('view'), q.get('seed'), q.get('wizard'), q.get('step')],
    ['replay', '7', '1', '0'],
  );
  await p.click('#replay-last');
  await shown(p, n, n);
  const final = await mapLevels(p);
  const layout = JSON.parse(
    spawnSync(
      dgn,
      ['layout', '--target', 'nethack-3.6', '--seed', '7', '--wizard', '--format', 'json'],
      { encoding: 'utf8' },
    ).stdout,
  );
  assert.deepEqual(
    final.map(([name, , level]) => [name, level]).sort(),
    layout.levels.map((l) => [l.name, String(l.level)]).sort(),
  );

  // The same, not gzipped, dropped on the page.
  const plain = gunzipSync(bytes).toString('utf8');
  await p.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'seed7.json', { type: 'application/json' }));
    const view = document.querySelector('.view-replay');
    view.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
    view.dispatchEvent(
      new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
  }, plain);
  await shown(p, 0, n);
  await p.click('#replay-last');
  await shown(p, n, n);
  assert.deepEqual(await mapLevels(p), final);

  // Not a gamelog, and a gamelog cut short.
  const bad = path.join(scratch, 'bad.json');
  writeFileSync(bad, '{"deltas": 3}');
  await p.locator('#replay-file').setInputFiles(bad);
  await p.locator('pre.error', { hasText: 'not a gamelog' }).waitFor();
  const cut = path.join(scratch, 'cut.json.gz');
  writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
  await p.locator('#replay-file').setInputFiles(cut);
  await p.locator('pre.error', { hasText: 'cut.json.gz' }).waitFor();
  assert.deepEqual(errors, []);
  await p.close();
});

test('replay: plays a 100-draw log at 60 frames a second', async () => {
  const { p, errors } = await page('?view=replay&game=nethack-3.7&seed=42&role=Wiz');
  await shown(p, 0, 101);
  await p.selectOption('#replay-speed', '60');
  // Every frame's interval while it plays.
  await p.evaluate(() => {
    performance.clearMeasures('replay-step');
    const frames = (window.__frames = []);
    let last = performance.now();
    const tick = (t) => {
      frames.push(t - last);
      last = t;
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await p.click('#replay-play');
  await shown(p, 101, 101);
  await p.locator('#replay-play', { hasText: 'Play' }).waitFor();
  const took = Date.now() - t0;
  const { steps, frames } = await p.evaluate(() => {
    window.__stop = true;
    return {
      steps: performance.getEntriesByName('replay-step').map((e) => e.duration),
      frames: window.__frames.slice(1),
    };
  });
  const q = (xs, f) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))];
  const ms = (x) => `${x.toFixed(2)} ms`;
  console.log(
    `# 101 draws played in ${took} ms: ${steps.length} steps, each ${ms(q(steps, 0.5))} (median), ${ms(q(steps, 0.95))} (95th), ${ms(Math.max(...steps))} (most); frames ${ms(q(frames, 0.5))} apart (median), ${ms(q(frames, 0.95))} (95th)`,
  );
  assert.ok(steps.length >= 50, `${steps.length} steps for 101 draws`);
  // A frame at 60 a second is 16.7 ms; a step takes a fraction of it (the
  // bound is loose: a loaded machine's steps are slower than the page's).
  assert.ok(q(steps, 0.5) < 8, `a step takes ${ms(q(steps, 0.5))} (median)`);
  assert.ok(took < 15000, `played in ${took} ms`);
  assert.deepEqual(errors, []);
  await p.close();
});

test("dungeon: the draw log labels every draw, with its C site, after the game start's", async () => {
  const { p, errors } = await page('?view=dungeon&game=nethack-3.7&seed=42&role=Wiz');
  await p.locator('pre.overview').waitFor({ timeout: 20000 });
  await p.locator('table.bones').waitFor({ timeout: 20000 });
  const requests = [];
  p.on('request', (r) => {
    if (r.url().includes('/api/layout')) requests.push(r.postData() ?? r.url());
  });
  await p.locator('text=Show the draw log').click();
  const pre = p.locator('#dungeon-draws pre.trace');
  await pre.waitFor({ timeout: 20000 });
  assert.equal(requests.length, 1, 'one request');
  assert.match(requests[0], /"format":"gamelog"/);
  const text = await pre.textContent();
  const lines = text.split('\n');
  // `dgn layout --trace` writes the same draws, labelled, on standard error.
  const trace = spawnSync(
    dgn,
    ['layout', '--target', 'nethack-3.7', '--seed', '42', '--role', 'Wizard', '--trace'],
    { encoding: 'utf8' },
  )
    .stderr.split('\n')
    .filter((l) => /^rn2\(/.test(l));
  assert.equal(trace.length, 300, 'the game start and the loader');
  const drawn = lines.filter((l) => /rn2\(\d+\)=\d+/.test(l));
  assert.equal(drawn.length, trace.length);
  trace.forEach((t, i) => {
    const [call, what] = t.split(' @ ');
    assert.ok(drawn[i].includes(call) && drawn[i].includes(what), `${drawn[i]} is ${t}`);
  });
  assert.ok(text.includes('The game start: 199 draws before the loader'));
  assert.ok(text.includes('init_dungeons(): 101 draws'));
  assert.ok(/rn2\(100\)=\d+ +chance of level "bigrm" +init_level\(dungeon\.c:\d+\)/.test(text));
  assert.ok(
    /rn2\(\d+\)=\d+ +placing "oracle" +place_level\(dungeon\.c:\d+\)|placing "oracle" +\S+\(dungeon\.c:\d+\)/.test(
      text,
    ),
    'placing oracle, with its caller',
  );
  assert.ok(/randomize_gem_colors\(o_init\.c:\d+\)/.test(text), "the game start's C sites");
  // Each loader draw opens the Replay view after it.
  const eleventh = pre.locator('a', { hasText: /^11$/ });
  assert.match(await eleventh.getAttribute('href'), /view=replay&.*seed=42.*step=11/);
  assert.deepEqual(errors, []);
  await p.close();
});

test('replay: a 390 px phone does not scroll sideways, and the map opens at full size', async () => {
  const p = await browser.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  await fromDist(p);
  await p.goto(base + '?view=replay&game=xnethack&seed=42&step=60');
  await shown(p, 60, draws(gamelog(['--target', 'xnethack', '--seed', '42']).log).length);
  const [scroll, client] = await p.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok(scroll <= client, `the page is ${scroll} px wide in ${client}`);
  const map = p.locator('#replay-map');
  const width = () => map.evaluate((m) => m.getBoundingClientRect().width);
  const fitted = await width();
  await p.tap('#replay-full');
  assert.ok((await width()) > fitted, 'full size is wider than the column');
  assert.equal(await map.getAttribute('width'), String(Math.round(await width())));
  assert.deepEqual(errors, []);
  await p.close();
});
