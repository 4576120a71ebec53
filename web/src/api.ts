// dgnkit's HTTP API as the page asks it: an endpoint's answer, and the
// games `/api` (the OpenAPI description, cli/src/serve/openapi.json) lists.

export type Params = Record<string, string | number | boolean | undefined>;

/** An answer: the body, its status and the command's exit status. */
export interface Answer {
  ok: boolean;
  status: number;
  text: string;
  exit: number | null;
  error?: string;
  /** What the command wrote beside its answer (its standard error, on one line). */
  notes?: string;
}

/** `/api/ENDPOINT` with `params`, leaving out those not given. */
export async function api(endpoint: string, params: Params): Promise<Answer> {
  const body: Params = {};
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== '' && v !== false) body[k] = v;
  let r: Response;
  try {
    r = await fetch(`/api/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    return unreachable(e);
  }
  const text = await r.text();
  const exit = r.headers.get('x-dgn-exit');
  const a: Answer = { ok: r.ok, status: r.status, text, exit: exit === null ? null : Number(exit) };
  if (!r.ok) a.error = errorOf(text);
  const notes = r.headers.get('x-dgn-stderr');
  if (notes) a.notes = notes;
  return a;
}

function unreachable(e: unknown): Answer {
  return {
    ok: false,
    status: 0,
    text: '',
    exit: null,
    error: `the server cannot be reached: ${e}`,
  };
}

/** An error answer's message (`{"error": ...}`), or its whole text. */
function errorOf(text: string): string {
  try {
    return JSON.parse(text).error;
  } catch {
    return text;
  }
}

/** The games the API takes: every `--target`, and those whose file may be a dungeon.lua. */
export interface Games {
  all: string[];
  lua: string[];
}

/** The games `/api` lists (`components.schemas.Game` and `LuaGame`), or why there are none. */
export async function loadGames(): Promise<Games | { failed: string }> {
  let description: unknown;
  try {
    const r = await fetch('/api');
    if (!r.ok) return { failed: `GET /api answered HTTP ${r.status}` };
    description = await r.json();
  } catch (e) {
    return { failed: `the server cannot be reached: ${e}` };
  }
  const schemas = (description as { components?: { schemas?: Record<string, unknown> } })
    ?.components?.schemas;
  const all = namesOf(schemas?.Game);
  const lua = namesOf(schemas?.LuaGame);
  if (!all || !lua) return { failed: '/api lists no games (components.schemas.Game, LuaGame)' };
  return { all, lua };
}

/** A schema's `enum` of strings. */
function namesOf(schema: unknown): string[] | null {
  const names = (schema as { enum?: unknown } | undefined)?.enum;
  if (!Array.isArray(names) || !names.length) return null;
  return names.every((n) => typeof n === 'string') ? names : null;
}
