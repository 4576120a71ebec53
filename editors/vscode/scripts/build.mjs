// Bundles the extension with esbuild (type checking is `tsc --noEmit`).
//   node scripts/build.mjs          dist/extension.js, the file the .vsix ships
//   node scripts/build.mjs --tests  also out/test/**.test.js for `node --test`, and out/tools/
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const withTests = process.argv.includes('--tests');

await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // VS Code 1.82 runs extensions on Node 18.
  target: 'node18',
  external: ['vscode'],
  minify: true,
  keepNames: true,
  sourcemap: false,
  logLevel: 'warning',
});

// vscode-languageclient stops a server that ignores `exit` with this script,
// which it looks for next to its own code: next to the bundle, here.
const require = createRequire(import.meta.url);
const terminate = path.join(
  path.dirname(require.resolve('vscode-languageclient/node')),
  'lib',
  'node',
  'terminateProcess.sh',
);
copyFileSync(terminate, path.join(root, 'dist', 'terminateProcess.sh'));
chmodSync(path.join(root, 'dist', 'terminateProcess.sh'), 0o755);

if (withTests) {
  const entryPoints = [];
  for (const dir of ['test/unit', 'test/grammar', 'test/e2e']) {
    for (const name of readdirSync(path.join(root, dir))) {
      if (name.endsWith('.test.ts')) entryPoints.push(`${dir}/${name}`);
    }
  }
  entryPoints.push('tools/renderHighlighting.ts', 'tools/ansiToHtml.ts');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir: 'out',
    outbase: '.',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Tests load their libraries from node_modules at run time; only our own sources are bundled.
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}
