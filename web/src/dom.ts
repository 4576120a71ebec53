// Small DOM helpers the views build their forms and results with.
import type { Answer } from './api';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...kids: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

export function field(label: string, input: HTMLElement): HTMLLabelElement {
  return el('label', {}, el('span', { text: label }), input);
}

/**
 * What the page could not take from its URL (a game or a role it does not
 * offer), said above the view instead of being replaced in silence.
 */
export const notices: string[] = [];

export function select(
  name: string,
  options: string[],
  value: string,
  fallback = options[0],
): HTMLSelectElement {
  const s = el('select', { name });
  for (const o of options) s.append(el('option', { value: o, text: o || '(default)' }));
  const chosen = choice(options, value);
  s.value = chosen ?? fallback;
  if (value && chosen === undefined)
    notices.push(
      `The link's ${name} “${value}” is not one of the choices, so ${fallback ? `“${fallback}”` : 'the default'} is shown instead.`,
    );
  return s;
}

/**
 * The option `value` names: itself, the same in other case, or the option
 * it begins with (NetHack's full role names: `Wizard` is `Wiz`).
 */
function choice(options: string[], value: string): string | undefined {
  const v = value.toLowerCase();
  return (
    options.find((o) => o === value) ??
    options.find((o) => o.toLowerCase() === v) ??
    options.find((o) => o.length >= 3 && v.startsWith(o.toLowerCase()))
  );
}

export function input(
  name: string,
  value: string,
  attrs: Record<string, string> = {},
): HTMLInputElement {
  const i = el('input', { name, ...attrs });
  i.value = value;
  return i;
}

export function checkbox(name: string, on: boolean): HTMLInputElement {
  const i = el('input', { name, type: 'checkbox' });
  i.checked = on;
  return i;
}

export function errorBox(
  a: Pick<Answer, 'error' | 'status'>,
  words: Record<string, string> = {},
): HTMLElement {
  return el('pre', {
    class: 'error',
    role: 'alert',
    text: pageWords(a.error ?? `HTTP ${a.status}`, words),
  });
}

/**
 * A message in the page's words: each command-line flag (`--samples`) or
 * API parameter (`` `samples` ``) that `words` names becomes the name of
 * the view's control for it.
 */
export function pageWords(message: string, words: Record<string, string>): string {
  return message.replace(/--[a-z][a-z-]*|`[a-z_]+`/g, (m) => words[m] ?? m);
}

/** An SVG answer shown as an image (its text is never run as the page). */
export function svgImage(svg: string, alt: string): HTMLImageElement {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const img = el('img', { src: url, alt, class: 'map' });
  img.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
  return img;
}

export function pct(p: number): string {
  if (p === 0) return '0';
  if (p === 1) return '100%';
  const v = p * 100;
  return `${v < 0.1 ? v.toPrecision(2) : v.toFixed(1)}%`;
}

/**
 * A table; each cell also names its column (`data-label`), which a narrow
 * screen shows in front of it when the rows are laid out as cards.
 */
export function table(
  head: string[],
  rows: (string | number | Node)[][],
  cls = '',
): HTMLTableElement {
  const t = el('table', cls ? { class: cls } : {});
  t.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const r of rows)
    body.append(
      el(
        'tr',
        {},
        ...r.map((c, i) =>
          el('td', { 'data-label': head[i] ?? '' }, typeof c === 'number' ? String(c) : c),
        ),
      ),
    );
  t.append(body);
  return t;
}

/** A distribution `{"5": 0.2, ...}` as a tiny bar chart. */
export function bars(dist: Record<string, number> | null | undefined): HTMLElement {
  const box = el('span', { class: 'bars' });
  if (!dist) return box;
  const entries = Object.entries(dist).sort((a, b) => Number(a[0]) - Number(b[0]));
  const max = Math.max(...entries.map(([, p]) => p), 1e-9);
  for (const [k, p] of entries) {
    const b = el('span', { class: 'bar', title: `${k}: ${pct(p)}` });
    b.style.height = `${Math.max(2, Math.round((p / max) * 24))}px`;
    box.append(b);
  }
  const keys = entries.map(([k]) => k);
  box.append(el('span', { class: 'range', text: span(keys) }));
  return box;
}

/** `5–9` for keys 5 to 9, `5` for one key. */
function span(keys: string[]): string {
  if (!keys.length) return '';
  return keys.length > 1 ? `${keys[0]}–${keys[keys.length - 1]}` : keys[0];
}

/** Submitting `form` runs `go` instead of loading a page. */
export function onSubmit(form: HTMLFormElement, go: () => void): void {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go();
  });
}
