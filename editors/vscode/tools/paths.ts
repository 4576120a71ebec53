// Where things are, for tests and tools that run from the bundled out/ folder.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** editors/vscode: the nearest folder above this file whose package.json is the dgnkit extension's. */
export function extensionRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'dgnkit')
          return dir;
      } catch {
        // not the manifest we want; keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no dgnkit package.json above ${__dirname}`);
    dir = parent;
  }
}

/** The dgnkit checkout (the Cargo workspace). */
export function repoRoot(): string {
  return path.resolve(extensionRoot(), '..', '..');
}

/**
 * The Cargo target directory of the checkout, as cargo itself reports it
 * (`cargo metadata`), so that CARGO_TARGET_DIR and `build.target-dir` are
 * honoured; `target/` of the checkout when cargo cannot be asked.
 */
export function cargoTargetDir(): string {
  try {
    const out = execFileSync(
      process.env.CARGO || 'cargo',
      ['metadata', '--format-version', '1', '--no-deps', '--offline'],
      {
        cwd: repoRoot(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const dir = (JSON.parse(out) as { target_directory?: unknown }).target_directory;
    if (typeof dir === 'string' && dir !== '') return dir;
  } catch {
    // no cargo on PATH, or no workspace: the conventional place
  }
  return path.join(repoRoot(), 'target');
}

export type SharedLookup = { ok: true; corpus: string } | { ok: false; skip: string };

/**
 * `../shared/corpus` beside the checkout, as the Rust tests find it: absent
 * means skip with a message, unless DGNKIT_REQUIRE_SHARED=1 (CI), where it is
 * an error.
 */
export function sharedCorpus(): SharedLookup {
  const shared = path.resolve(repoRoot(), '..', 'shared');
  const corpus = path.join(shared, 'corpus');
  if (existsSync(corpus)) return { ok: true, corpus };
  if (process.env.DGNKIT_REQUIRE_SHARED === '1') {
    throw new Error(`DGNKIT_REQUIRE_SHARED=1 but ${shared} is missing`);
  }
  return { ok: false, skip: `skipping: ${shared} is absent (tests against the corpus need it)` };
}
