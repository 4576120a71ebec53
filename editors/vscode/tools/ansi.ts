// Terminal screens captured with `tmux capture-pane -e -p` (text with SGR
// colour codes) as HTML, for photographing a real editor session.

interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  reverse?: boolean;
}

const BASE16 = [
  '#1e1e1e',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#ffffff',
];
export const DEFAULT_FG = '#d4d4d4';
export const DEFAULT_BG = '#1e1e1e';

function xterm256(n: number): string {
  if (n < 16) return BASE16[n]!;
  if (n < 232) {
    const i = n - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    const [r, g, b] = [level(Math.floor(i / 36)), level(Math.floor(i / 6) % 6), level(i % 6)];
    return `rgb(${r},${g},${b})`;
  }
  const v = 8 + (n - 232) * 10;
  return `rgb(${v},${v},${v})`;
}

/** Applies one SGR sequence's parameters to a style. */
export function applySgr(style: Style, params: number[]): Style {
  const s: Style = { ...style };
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === 0) {
      for (const k of Object.keys(s)) delete s[k as keyof Style];
    } else if (p === 1) s.bold = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.reverse = true;
    else if (p === 22) s.bold = false;
    else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.reverse = false;
    else if (p >= 30 && p <= 37) s.fg = BASE16[p - 30];
    else if (p >= 90 && p <= 97) s.fg = BASE16[p - 90 + 8];
    else if (p >= 40 && p <= 47) s.bg = BASE16[p - 40];
    else if (p >= 100 && p <= 107) s.bg = BASE16[p - 100 + 8];
    else if (p === 39) delete s.fg;
    else if (p === 49) delete s.bg;
    else if (p === 38 || p === 48) {
      let color: string | undefined;
      if (params[i + 1] === 5 && params[i + 2] !== undefined) {
        color = xterm256(params[i + 2]!);
        i += 2;
      } else if (params[i + 1] === 2 && params[i + 4] !== undefined) {
        color = `rgb(${params[i + 2]},${params[i + 3]},${params[i + 4]})`;
        i += 4;
      }
      if (color !== undefined) {
        if (p === 38) s.fg = color;
        else s.bg = color;
      }
    }
  }
  return s;
}

function css(style: Style): string {
  let fg = style.fg ?? DEFAULT_FG;
  let bg = style.bg;
  if (style.reverse) {
    [fg, bg] = [bg ?? DEFAULT_BG, fg];
  }
  const parts = [`color:${fg}`];
  if (bg !== undefined) parts.push(`background:${bg}`);
  if (style.bold) parts.push('font-weight:bold');
  if (style.italic) parts.push('font-style:italic');
  if (style.underline) parts.push('text-decoration:underline');
  return parts.join(';');
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** HTML for captured terminal text: one div per line, spans per style run. */
export function ansiToHtml(text: string): string {
  let style: Style = {};
  const lines: string[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    let html = '';
    let run = '';
    const flush = () => {
      if (run !== '') html += `<span style="${css(style)}">${escapeHtml(run)}</span>`;
      run = '';
    };
    // SGR sequences carry the styles; any other escape sequence is dropped.
    const re = /\x1b\[([?>=]?)([0-9;:]*)([A-Za-z])|\x1b[()][A-Za-z0-9]|\x1b./g;
    let last = 0;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      run += line.slice(last, m.index);
      last = re.lastIndex;
      if (m[3] === 'm' && m[1] === '') {
        flush();
        const params = (m[2] ?? '').split(/[;:]/).map((x) => (x === '' ? 0 : Number(x)));
        style = applySgr(style, params.length > 0 ? params : [0]);
      }
    }
    run += line.slice(last);
    flush();
    lines.push(`<div class="l">${html || ' '}</div>`);
  }
  return lines.join('');
}
