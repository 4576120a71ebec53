// The Edit view's texts, kept in this browser (localStorage) per game and
// kind of file, so that an edit survives leaving the view, a reload and
// Back: `kept` is the edit shown for that game and kind, `aside` one the
// person put aside to see the built-in sample again.

export type Slot = 'kept' | 'aside';

/** A text kept, and when (milliseconds since 1970). */
export interface Kept {
  text: string;
  saved: number;
}

function key(slot: Slot, game: string, kind: string): string {
  return `dgnkit.edit.${slot}:${game}:${kind}`;
}

/** The text kept in `slot` for `game` and `kind`, if any. */
export function readKept(slot: Slot, game: string, kind: string): Kept | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(key(slot, game, kind));
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Kept>;
    return typeof v.text === 'string' ? { text: v.text, saved: Number(v.saved) || 0 } : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `text` in `slot` for `game` and `kind` (none: forgets it); says
 * why when the browser refuses (storage full or turned off), else null.
 */
export function writeKept(
  slot: Slot,
  game: string,
  kind: string,
  text: string | null,
): string | null {
  try {
    if (text === null) localStorage.removeItem(key(slot, game, kind));
    else localStorage.setItem(key(slot, game, kind), JSON.stringify({ text, saved: Date.now() }));
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * Whether a text reads as a dungeon.lua, as dgnkit's own test does
 * (`looks_like_lua` in crates/frontend/src/lua/mod.rs): its first
 * significant text a `--` comment, `dungeon =`, `local` or `return`.
 */
export function looksLikeLua(text: string): boolean {
  const t = text.replace(/^\s+/, '').replace(/^\uFEFF/, '');
  if (t.startsWith('--')) return true;
  const m = /^[A-Za-z0-9_]*/.exec(t)![0];
  if (m === 'dungeon') return /^\s*=/.test(t.slice(m.length));
  return m === 'local' || m === 'return';
}
