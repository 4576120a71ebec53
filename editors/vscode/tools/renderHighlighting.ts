// Renders a dungeon description as coloured HTML with the extension's
// grammar and a VS Code colour theme, through vscode-textmate's own theme
// matching: what the editor would paint, without the editor.
//
//   node out/tools/renderHighlighting.js FILE OUT.html [--lines A-B[,C-D...]] [--theme THEME.json] [--title TEXT]

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vsctm from 'vscode-textmate';
import { extensionRoot } from './paths';
import { SCOPE_NAME, createRegistry } from './textmate';

const FOREGROUND_MASK = 0xff8000;
const FOREGROUND_OFFSET = 15;
const FONT_STYLE_MASK = 0x7800;
const FONT_STYLE_OFFSET = 11;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const [file, out] = process.argv.slice(2);
  if (file === undefined || out === undefined || file.startsWith('--') || out.startsWith('--')) {
    process.stderr.write(
      'usage: renderHighlighting FILE OUT.html [--lines A-B[,C-D...]] [--theme THEME.json] [--title TEXT]\n',
    );
    process.exit(2);
  }
  const themeFile =
    arg('--theme') ?? path.join(extensionRoot(), 'tools', 'themes', 'dark-plus.json');
  const theme = JSON.parse(readFileSync(themeFile, 'utf8')) as vsctm.IRawTheme;
  const registry = await createRegistry(theme);
  const grammar = await registry.loadGrammar(SCOPE_NAME);
  if (grammar === null) throw new Error('cannot load the dungeon-def grammar');
  const colors = registry.getColorMap();
  const base = theme.settings.find((s) => s.scope === undefined)?.settings ?? {};

  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const ranges: Array<[number, number]> = [];
  for (const part of (arg('--lines') ?? `1-${lines.length}`).split(',')) {
    const m = /^(\d+)-(\d+)$/.exec(part.trim());
    if (m === null) throw new Error(`--lines: ${JSON.stringify(part)} is not FIRST-LAST`);
    ranges.push([Number(m[1]), Number(m[2])]);
  }
  const shown = (n: number): boolean => ranges.some(([a, b]) => n >= a && n <= b);
  let previous: number | undefined;

  let state = vsctm.INITIAL;
  const rows: string[] = [];
  lines.forEach((line, i) => {
    const result = grammar.tokenizeLine2(line, state);
    state = result.ruleStack;
    if (!shown(i + 1)) return;
    if (previous !== undefined && previous !== i)
      rows.push('<div class="line gap"><span class="ln">⋮</span></div>');
    previous = i + 1;
    let html = '';
    for (let t = 0; t < result.tokens.length; t += 2) {
      const start = result.tokens[t]!;
      const end = t + 2 < result.tokens.length ? result.tokens[t + 2]! : line.length;
      const meta = result.tokens[t + 1]!;
      const fg = colors[(meta & FOREGROUND_MASK) >>> FOREGROUND_OFFSET] ?? base.foreground;
      const style = (meta & FONT_STYLE_MASK) >>> FONT_STYLE_OFFSET;
      const css = [`color:${fg}`];
      if (style & 1) css.push('font-style:italic');
      if (style & 2) css.push('font-weight:bold');
      if (style & 4) css.push('text-decoration:underline');
      html += `<span style="${css.join(';')}">${escapeHtml(line.slice(start, end))}</span>`;
    }
    rows.push(
      `<div class="line"><span class="ln">${i + 1}</span><span class="code">${html}</span></div>`,
    );
  });

  const title = arg('--title') ?? path.basename(file);
  writeFileSync(
    out,
    `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; background: ${base.background ?? '#1E1E1E'}; }
  .tab { font: 13px system-ui, sans-serif; color: #ccc; background: #252526; padding: 8px 16px; border-bottom: 1px solid #333; }
  pre { margin: 0; padding: 8px 0; font: 14px/20px "DejaVu Sans Mono", monospace; color: ${base.foreground ?? '#D4D4D4'}; tab-size: 8; }
  .line { white-space: pre; }
  /* An inline block of its own, so tab stops count from the code's first column. */
  .code { display: inline-block; }
  .ln { display: inline-block; width: 3.5em; padding-right: 1.5em; text-align: right; color: #858585; user-select: none; }
</style></head>
<body><div class="tab">${escapeHtml(title)}</div><pre>${rows.join('')}</pre></body></html>
`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
