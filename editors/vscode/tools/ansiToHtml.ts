// Turns a terminal screen captured with `tmux capture-pane -e -p` into an
// HTML page, so a real editor session can be photographed by headless Chromium.
//
//   node out/tools/ansiToHtml.js CAPTURE.ans OUT.html [--title TEXT]

import { readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_BG, DEFAULT_FG, ansiToHtml, escapeHtml } from './ansi';

function main(): void {
  const [input, out] = process.argv.slice(2);
  if (input === undefined || out === undefined) {
    process.stderr.write('usage: ansiToHtml CAPTURE.ans OUT.html [--title TEXT]\n');
    process.exit(2);
  }
  const t = process.argv.indexOf('--title');
  const title = t >= 0 ? (process.argv[t + 1] ?? '') : '';
  const body = ansiToHtml(readFileSync(input, 'utf8'));
  writeFileSync(
    out,
    `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; background: ${DEFAULT_BG}; }
  .tab { font: 13px system-ui, sans-serif; color: #ccc; background: #252526; padding: 8px 16px; border-bottom: 1px solid #333; }
  .screen { padding: 6px 8px; font: 14px/19px "DejaVu Sans Mono", monospace; color: ${DEFAULT_FG}; }
  .l { white-space: pre; height: 19px; }
</style></head>
<body>${title ? `<div class="tab">${escapeHtml(title)}</div>` : ''}<div class="screen">${body}</div></body></html>
`,
  );
}

main();
