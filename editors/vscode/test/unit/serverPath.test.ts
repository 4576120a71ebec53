import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  INSTALL_HINT,
  type ResolveEnvironment,
  expandConfiguredPath,
  findOnPath,
  isExecutableFile,
  resolveServerPath,
} from '../../src/serverPath';

function posixEnv(over: Partial<ResolveEnvironment> & { files?: string[] }): ResolveEnvironment {
  const files = new Set(over.files ?? []);
  return {
    configured: '',
    workspaceFolders: [],
    env: {},
    platform: 'linux',
    homeDir: '/home/nh',
    isExecutable: (f) => files.has(f),
    ...over,
  };
}

describe('resolveServerPath', () => {
  it('uses dgnkit.server.path when it points at an executable', () => {
    const r = resolveServerPath(
      posixEnv({
        configured: '/opt/dgnkit/dgn-lsp',
        files: ['/opt/dgnkit/dgn-lsp', '/usr/bin/dgn-lsp'],
        env: { PATH: '/usr/bin' },
      }),
    );
    assert.deepEqual(r, { ok: true, path: '/opt/dgnkit/dgn-lsp', source: 'setting' });
  });

  it('does not fall back to PATH when the setting is wrong, and says what is wrong', () => {
    const r = resolveServerPath(
      posixEnv({
        configured: '/nowhere/dgn-lsp',
        files: ['/usr/bin/dgn-lsp'],
        env: { PATH: '/usr/bin' },
      }),
    );
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    assert.match(
      r.message,
      /dgnkit\.server\.path is set to "\/nowhere\/dgn-lsp", but that is not an executable file/,
    );
    assert.ok(r.message.includes('cargo install --path lsp-server'));
  });

  it('expands ~ and names the expanded path in the message', () => {
    const ok = resolveServerPath(
      posixEnv({ configured: '~/.cargo/bin/dgn-lsp', files: ['/home/nh/.cargo/bin/dgn-lsp'] }),
    );
    assert.deepEqual(ok, { ok: true, path: '/home/nh/.cargo/bin/dgn-lsp', source: 'setting' });
    const bad = resolveServerPath(posixEnv({ configured: '~/missing' }));
    assert.ok(!bad.ok);
    assert.match(bad.message, /"~\/missing", but "\/home\/nh\/missing" is not/);
  });

  it('resolves a relative setting against the first workspace folder', () => {
    const r = resolveServerPath(
      posixEnv({
        configured: 'target/debug/dgn-lsp',
        workspaceFolders: ['/src/dgnkit', '/src/other'],
        files: ['/src/dgnkit/target/debug/dgn-lsp'],
      }),
    );
    assert.deepEqual(r, { ok: true, path: '/src/dgnkit/target/debug/dgn-lsp', source: 'setting' });
  });

  it('finds dgn-lsp in the first PATH directory that has it', () => {
    const r = resolveServerPath(
      posixEnv({ env: { PATH: '/a:/b:/c' }, files: ['/b/dgn-lsp', '/c/dgn-lsp'] }),
    );
    assert.deepEqual(r, { ok: true, path: '/b/dgn-lsp', source: 'PATH' });
  });

  it('skips empty PATH entries instead of searching the current directory', () => {
    assert.equal(findOnPath(posixEnv({ env: { PATH: ':/a:' }, files: ['dgn-lsp'] })), undefined);
  });

  it('explains how to install dgn-lsp when it is nowhere', () => {
    const r = resolveServerPath(posixEnv({ env: { PATH: '/usr/bin:/bin' } }));
    assert.ok(!r.ok);
    assert.match(r.message, /\(dgn-lsp\) was not found on PATH/);
    assert.ok(r.message.endsWith(INSTALL_HINT));
    assert.ok(INSTALL_HINT.includes('`cargo install --path lsp-server`'));
    const noPath = resolveServerPath(posixEnv({ env: {} }));
    assert.ok(!noPath.ok);
  });

  it('uses PATHEXT and ; on Windows', () => {
    const env: ResolveEnvironment = {
      configured: '',
      workspaceFolders: [],
      env: { Path: 'C:\\tools;C:\\Users\\nh\\.cargo\\bin', PATHEXT: '.COM;.EXE' },
      platform: 'win32',
      homeDir: 'C:\\Users\\nh',
      isExecutable: (f) => f === 'C:\\Users\\nh\\.cargo\\bin\\dgn-lsp.exe',
    };
    assert.deepEqual(resolveServerPath(env), {
      ok: true,
      path: 'C:\\Users\\nh\\.cargo\\bin\\dgn-lsp.exe',
      source: 'PATH',
    });
    assert.equal(
      expandConfiguredPath('~\\bin\\dgn-lsp.exe', env),
      'C:\\Users\\nh\\bin\\dgn-lsp.exe',
    );
  });
});

describe('isExecutableFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dgnkit-path-'));
  const exe = path.join(dir, 'dgn-lsp');
  const plain = path.join(dir, 'notes.txt');
  const sub = path.join(dir, 'sub');
  writeFileSync(exe, '#!/bin/sh\n');
  chmodSync(exe, 0o755);
  writeFileSync(plain, 'x');
  chmodSync(plain, 0o644);
  mkdirSync(sub);
  chmodSync(sub, 0o755);

  it('accepts an executable file', () => assert.equal(isExecutableFile(exe, 'linux'), true));
  it('rejects a missing file', () =>
    assert.equal(isExecutableFile(path.join(dir, 'nope'), 'linux'), false));
  it('rejects a directory', () => assert.equal(isExecutableFile(sub, 'linux'), false));
  it('rejects a file without the execute bit', () => {
    // root passes access(X_OK) only when some execute bit is set, so this holds for root too.
    assert.equal(isExecutableFile(plain, 'linux'), false);
  });
  it('finds a real executable through PATH', () => {
    const r = resolveServerPath({
      configured: '',
      workspaceFolders: [],
      env: { PATH: `/nonexistent:${dir}` },
      platform: 'linux',
      homeDir: dir,
      isExecutable: (f) => isExecutableFile(f, 'linux'),
    });
    assert.deepEqual(r, { ok: true, path: exe, source: 'PATH' });
  });
});
