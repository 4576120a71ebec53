// The page's URL: which view is shown and its form's values, so that a
// view can be shared (`/?view=dungeon&game=nethack-3.7&seed=42&role=Wiz`).

/** The URL's parameters as the page was loaded (emptied when another view is chosen). */
export const query = new URLSearchParams(location.search);

let view = '';

/** The view shown, the first parameter of every URL the page writes. */
export function setView(name: string): void {
  view = name;
}

/** Writes the view shown and `values` into the URL (no history entry). */
export function setQuery(values: Record<string, string | boolean>): void {
  const q = new URLSearchParams();
  q.set('view', view);
  for (const [k, v] of Object.entries(values)) {
    if (v === true) q.set(k, '1');
    else if (v !== false && v !== '') q.set(k, v);
  }
  history.replaceState(null, '', `?${q}`);
}

/** Whether the URL turns flag `name` on (`1`, or anything but `0` and `false`). */
export function flagOf(name: string): boolean {
  const v = query.get(name);
  return v !== null && v !== '0' && v !== 'false';
}
