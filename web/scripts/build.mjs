// Builds the page `dgn serve` serves into dist/ (checked in: `cargo build`
// embeds it and needs no Node.js).
//   node scripts/build.mjs          write dist/index.html, dist/app.js, dist/app.css, dist/favicon.ico
//   node scripts/build.mjs --check  fail unless dist/ is what the sources build to
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const common = {
  loader: { '.def': 'text', '.lua': 'text' },
  absWorkingDir: root,
  bundle: true,
  minify: true,
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
  target: ['chrome100', 'firefox100', 'safari15'],
};
const js = await esbuild.build({
  ...common,
  entryPoints: ['src/app.ts'],
  outfile: 'dist/app.js',
  format: 'iife',
});
const css = await esbuild.build({
  ...common,
  entryPoints: ['src/app.css'],
  outfile: 'dist/app.css',
});
const outputs = {
  'dist/app.js': js.outputFiles[0].contents,
  'dist/app.css': css.outputFiles[0].contents,
  'dist/index.html': readFileSync(path.join(root, 'src/index.html')),
  'dist/favicon.ico': readFileSync(path.join(root, 'src/favicon.ico')),
};

let stale = [];
for (const [name, bytes] of Object.entries(outputs)) {
  const file = path.join(root, name);
  if (check) {
    let old;
    try {
      old = readFileSync(file);
    } catch {
      old = Buffer.alloc(0);
    }
    if (!Buffer.from(bytes).equals(old)) stale.push(name);
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
}
if (stale.length) {
  console.error(
    `web/${stale.join(', web/')} ${stale.length > 1 ? 'are' : 'is'} not what the sources build to: run \`npm run build\` in web/ and commit dist/`,
  );
  process.exit(1);
}
