// A gamelog (`dgn layout --format gamelog`, the SIG-GAME framework's format:
// `../shared/spec/gamelog-format.md`, dgnkit's objects in
// crates/dgnkit/src/gamelog/mod.rs) read and stepped through: the document's
// `mergeDelta`, made undoable so that a step back costs what a step forward
// does, and what each step changed said in words.

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** One draw as the log says it (`ran` deltas' data, and the game start's). */
export interface Draw {
  run: { functionName: string; args: Obj; caller?: Json };
  returned: Json;
  /** dgnkit's words for it, as `dgn layout --trace` writes them. */
  what?: string;
  /** Its number among the loader's draws (1-based). */
  draw?: number;
  /** The game object it is about (`{"id": "l3"}`). */
  object?: { id: string };
}

export interface Delta {
  type: string;
  data?: Obj;
  game?: Obj;
}

export interface Gamelog {
  gameName: string;
  gameSession: string;
  settings: Obj;
  deltas: Delta[];
  /** `DELTA_LIST_LENGTH` and `DELTA_REMOVED` as its `constants` name them. */
  len: string;
  rm: string;
  /** The draws the game start made before the loader (`start`'s `data.game_start`). */
  gameStart: Draw[];
}

/** What is wrong with a file that is not a gamelog, or a delta that cannot be merged. */
export class GamelogError extends Error {}

/** A gamelog's bytes, gzipped (they start with 1f 8b) or not. */
export async function readGamelog(bytes: Uint8Array): Promise<Gamelog> {
  let text: string;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
        .stream()
        .pipeThrough(new DecompressionStream('gzip'));
      text = await new Response(stream).text();
    } catch (e) {
      throw new GamelogError(`the file is gzipped but cannot be inflated (${e})`);
    }
  } else text = new TextDecoder().decode(bytes);
  return parseGamelog(text);
}

/** A gamelog's JSON text. */
export function parseGamelog(text: string): Gamelog {
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch (e) {
    throw new GamelogError(`not JSON: ${(e as Error).message}`);
  }
  if (!isObj(top)) throw new GamelogError('not a gamelog: the file is not a JSON object');
  if (!Array.isArray(top.deltas) || !top.deltas.length)
    throw new GamelogError('not a gamelog: it has no `deltas`');
  const deltas = top.deltas as unknown as Delta[];
  deltas.forEach((d, i) => {
    if (!isObj(d) || typeof d.type !== 'string')
      throw new GamelogError(`deltas[${i}] is not a delta (an object with a \`type\`)`);
    if (d.game !== undefined && !isObj(d.game))
      throw new GamelogError(`deltas[${i}].game is not an object`);
    if (d.type === 'ran') checkRan(d.data, `deltas[${i}]`);
  });
  if (deltas[0].type !== 'start')
    throw new GamelogError(`deltas[0] is a \`${deltas[0].type}\` delta, not \`start\``);
  const constants = isObj(top.constants) ? top.constants : {};
  const len =
    typeof constants.DELTA_LIST_LENGTH === 'string' ? constants.DELTA_LIST_LENGTH : '&LEN';
  const rm = typeof constants.DELTA_REMOVED === 'string' ? constants.DELTA_REMOVED : '&RM';
  const start = deltas[0].data?.game_start;
  const gameStart = Array.isArray(start)
    ? start.filter(isObj).map((d) => d as unknown as Draw)
    : [];
  return {
    gameName: String(top.gameName ?? 'a game'),
    gameSession: String(top.gameSession ?? ''),
    settings: isObj(top.settings) ? top.settings : {},
    deltas,
    len,
    rm,
    gameStart,
  };
}

function checkRan(data: unknown, at: string): void {
  const bad = (what: string) => new GamelogError(`${at} (\`ran\`) ${what}`);
  if (!isObj(data)) throw bad('has no `data`');
  if (!isObj(data.run)) throw bad('has no `data.run`');
  if (typeof data.run.functionName !== 'string') throw bad('has no `data.run.functionName`');
  if (!isObj(data.run.args)) throw bad('has no `data.run.args` object');
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A draw as `dgn layout --trace` writes it: `rn2(100)=53`. */
export function drawText(d: Draw): string {
  const args = Object.values(d.run.args ?? {})
    .map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
    .join(', ');
  const r = d.returned;
  return `${d.run.functionName}(${args})=${typeof r === 'string' ? r : JSON.stringify(r)}`;
}

/** A draw's C site (`init_level(dungeon.c:572)`), or '' when dgnkit does not know it. */
export function siteOf(d: Draw): string {
  const c = d.run.caller;
  if (typeof c !== 'string') return c === undefined || c === null ? '' : JSON.stringify(c);
  return c.startsWith('<C caller unknown>') ? '' : c;
}

type Undo = () => void;

/**
 * The document's `mergeDelta(state, delta)`, which also records in `undo`
 * how to take each change back (`null`: nothing to record, `state` is new).
 * The delta itself is never changed.
 */
function merge(state: any, delta: Obj, log: Gamelog, undo: Undo[] | null, at: string): void {
  const len = delta[log.len];
  const array = Array.isArray(state);
  if (len !== undefined) {
    if (typeof len !== 'number' || !Number.isInteger(len) || len < 0)
      throw new GamelogError(
        `at ${at || '/'}: "${log.len}" is ${JSON.stringify(len)}, not a length`,
      );
    if (!array) throw new GamelogError(`at ${at || '/'}: "${log.len}" on an object`);
    if (state.length > len) {
      const cut = state.slice(len);
      state.length = len;
      undo?.push(() => state.push(...cut));
    }
  }
  for (const key of Object.keys(delta)) {
    if (key === log.len) continue;
    const d = delta[key];
    if (array && !/^(0|[1-9][0-9]*)$/.test(key))
      throw new GamelogError(`at ${at}/${key}: not an index of an array`);
    const had = Object.prototype.hasOwnProperty.call(state, key);
    const old = state[key];
    if (d === log.rm) {
      if (had) {
        delete state[key];
        undo?.push(() => (state[key] = old));
      }
      continue;
    }
    if (isObj(d) && typeof old === 'object' && old !== null) {
      merge(old, d, log, undo, `${at}/${key}`);
      continue;
    }
    const value = isObj(d) ? fresh(d, log, `${at}/${key}`) : d;
    const length = array ? state.length : 0;
    state[key] = value;
    if (undo)
      undo.push(
        had
          ? () => (state[key] = old)
          : array
            ? () => (state.length = length)
            : () => delete state[key],
      );
  }
}

/** A delta that makes a new object or array (`"&LEN"`). */
function fresh(d: Obj, log: Gamelog, at: string): Json {
  const made = d[log.len] === undefined ? {} : [];
  merge(made, d, log, null, at);
  return made;
}

/** A game object of the state: `{id}` references resolved by `obj`. */
export type GameObject = Obj & { id: string; gameObjectName?: string };

/** A level that left its place in a step: where it was. */
export interface Ghost {
  level: string;
  name: string;
  dungeon: string;
  dlevel: number;
}

/** What one delta is: the draw (for `ran`), its words, what it touched. */
export interface Step {
  type: string;
  draw?: Draw;
  /** What it changed, in words ("oracle placed on level 9"). */
  change: string[];
  /** The game objects it changed, and the levels of the placements it removed. */
  touched: string[];
  /** The levels whose placement it took back (`place_level` backtracking). */
  ghosts: Ghost[];
}

/**
 * A gamelog's states, draw by draw either way. Step `k` is the state after
 * `k` draws as `dgn replay --step k` makes it: every delta before the
 * `k+1`-th `ran` one (so the last step includes `over`).
 */
export class Replay {
  readonly log: Gamelog;
  /** Each delta said: its draw, its words, what it touched. */
  readonly deltas: Step[] = [];
  /** Each step's last delta (`ends[0]`: the deltas before the first draw). */
  readonly ends: number[] = [];
  /** The state: the layout so far plus `gameObjects`. */
  state: Obj = {};
  /** The index of the last delta merged. */
  private pos = -1;
  private undos: Undo[][] = [];

  /**
   * Merges every delta once (which checks them and says each in words),
   * calling `visit` after each step, and goes back to step 0.
   */
  constructor(log: Gamelog, visit?: (r: Replay, step: number) => void) {
    this.log = log;
    const ran = log.deltas.flatMap((d, i) => (d.type === 'ran' ? [i] : []));
    for (const i of ran) this.ends.push(i - 1);
    this.ends.push(log.deltas.length - 1);
    for (let i = 0; i < log.deltas.length; i++) {
      const d = log.deltas[i];
      const before = this.snapshot(d);
      this.apply(i);
      this.deltas.push(this.describe(d, before));
    }
    if (visit) {
      this.go(0);
      for (let k = 0; k <= this.draws; k++) {
        this.go(k);
        visit(this, k);
      }
    }
    this.go(0);
  }

  /** How many draws the log has: the last step. */
  get draws(): number {
    return this.ends.length - 1;
  }

  /** The step shown: the draws merged. */
  get step(): number {
    let k = 0;
    while (k < this.draws && this.ends[k] < this.pos) k++;
    return k;
  }

  get objects(): Record<string, GameObject> {
    return (this.state.gameObjects ?? {}) as Record<string, GameObject>;
  }

  /** The game object a reference (`{"id": ...}`) or an id names. */
  obj(ref: Json | undefined): GameObject | undefined {
    const id = isObj(ref) ? ref.id : ref;
    return typeof id === 'string' ? this.objects[id] : undefined;
  }

  /** Goes to step `k` (clamped), a delta at a time. */
  go(k: number): void {
    const to = this.ends[Math.max(0, Math.min(this.draws, k))];
    while (this.pos < to) this.apply(this.pos + 1);
    while (this.pos > to) this.undo();
  }

  /** Step `k` said: its draw, what it changed and touched (its deltas together). */
  info(k: number): Step {
    const from = k > 0 ? this.ends[k - 1] + 1 : 0;
    const parts = this.deltas.slice(from, this.ends[k] + 1);
    const draw = parts.find((p) => p.draw)?.draw;
    return {
      type: draw ? 'ran' : (parts[parts.length - 1]?.type ?? 'start'),
      draw: k > 0 ? draw : undefined,
      change: parts.flatMap((p) => p.change),
      touched: [...new Set(parts.flatMap((p) => p.touched))],
      ghosts: parts.flatMap((p) => p.ghosts),
    };
  }

  private apply(i: number): void {
    const undo: Undo[] = [];
    const game = this.log.deltas[i].game;
    try {
      if (game) merge(this.state, game, this.log, undo, '');
    } catch (e) {
      if (e instanceof GamelogError) throw new GamelogError(`deltas[${i}]: ${e.message}`);
      throw e;
    }
    this.undos[i] = undo;
    this.pos = i;
  }

  private undo(): void {
    const undo = this.undos[this.pos];
    for (let k = undo.length - 1; k >= 0; k--) undo[k]();
    this.pos--;
  }

  /** The game objects a delta changes, as they were before it (copies). */
  private snapshot(d: Delta): Record<string, GameObject | undefined> {
    const before: Record<string, GameObject | undefined> = {};
    const objects = d.game?.gameObjects;
    if (!isObj(objects)) return before;
    for (const id of Object.keys(objects)) {
      const o = this.objects[id];
      before[id] = o ? copy(o) : undefined;
      // A removed placement's level, as it was.
      const level = o && this.obj(o.level);
      if (level) before[level.id] ??= copy(level);
    }
    return before;
  }

  /** The `start` delta: the description's records, nothing decided. */
  private startWords(d: Delta): Step {
    const kinds: Record<string, number> = {};
    for (const o of Object.values(this.objects))
      kinds[String(o.gameObjectName)] = (kinds[String(o.gameObjectName)] ?? 0) + 1;
    const n = (k: string, one: string, many: string) =>
      `${kinds[k] ?? 0} ${(kinds[k] ?? 0) === 1 ? one : many}`;
    return {
      type: d.type,
      change: [
        `the description: ${n('Dungeon', 'dungeon', 'dungeons')}, ${n('Level', 'special level', 'special levels')} and ${n('BranchRecord', 'branch', 'branches')}; nothing decided yet`,
      ],
      touched: Object.keys(this.objects),
      ghosts: [],
    };
  }

  /** What a delta just merged changed, in words (`before`: its objects before it). */
  private describe(d: Delta, before: Record<string, GameObject | undefined>): Step {
    const change: string[] = [];
    const touched = new Set<string>();
    const ghosts: Ghost[] = [];
    const objects = isObj(d.game?.gameObjects) ? (d.game!.gameObjects as Obj) : {};
    const name = (o: GameObject | undefined) => (o ? String(o.name ?? o.id) : '?');
    const exist: string[] = [];
    const notMade: string[] = [];
    // The dungeons a branch made by this delta leads to: their depth is decided.
    const entered = new Set<string>();
    for (const [id, o] of Object.entries(objects))
      if (isObj(o) && isObj(o.to) && typeof o.to.id === 'string' && id[0] === 'b')
        entered.add(o.to.id);
    if (d.type === 'start') return this.startWords(d);
    for (const id of Object.keys(objects).sort(byKind)) {
      touched.add(id);
      const now = this.objects[id];
      const was = before[id];
      if (objects[id] === this.log.rm) {
        const level = was && isObj(was.level) ? before[String(was.level.id)] : undefined;
        if (was?.gameObjectName === 'Placement' && level) {
          touched.add(level.id);
          const dungeon = this.obj(level.dungeon);
          ghosts.push({
            level: level.id,
            name: name(level),
            dungeon: dungeon?.id ?? '',
            dlevel: Number(was.dlevel),
          });
          change.push(
            `placement of ${name(level)} taken back: it leaves level ${was.dlevel}${dungeon ? ` of ${name(dungeon)}` : ''}`,
          );
        } else change.push(`${was?.gameObjectName ?? 'object'} ${was ? name(was) : id} removed`);
        continue;
      }
      if (!now) continue;
      switch (now.gameObjectName) {
        case 'Dungeon':
          change.push(...dungeonWords(now, was, entered.has(id)));
          break;
        case 'Level': {
          if (now.exists !== was?.exists) {
            if (now.exists === true) exist.push(name(now));
            else if (now.exists === false) notMade.push(name(now));
          }
          if (now.dlevel !== undefined && now.dlevel !== was?.dlevel) {
            const dungeon = this.obj(now.dungeon);
            const depth =
              dungeon && typeof dungeon.depth_start === 'number'
                ? ` (depth ${dungeon.depth_start + Number(now.dlevel) - 1})`
                : '';
            change.push(
              `${name(now)} placed on level ${now.dlevel}${dungeon ? ` of ${name(dungeon)}` : ''}${depth}`,
            );
          }
          break;
        }
        case 'Branch':
          change.push(branchWords(now, was, this));
          break;
        default:
          break;
      }
    }
    if (exist.length) change.push(`${list(exist)} ${exist.length > 1 ? 'exist' : 'exists'}`);
    if (notMade.length) change.push(`${list(notMade)}: not made (the chance roll failed)`);
    const what = isObj(d.data) ? d.data.what : undefined;
    if (d.game?.tune !== undefined || what === 'castle tune')
      change.push(`castle tune so far: ${this.state.tune}`);
    if (!change.length && d.type === 'ran') change.push('no change to the dungeon');
    if (d.type === 'over' && change.length) change.unshift('after the last draw:');
    if (d.type === 'over' && typeof d.data?.error === 'string')
      change.push(`the loader fails: ${d.data.error}`);
    const draw = d.type === 'ran' ? (d.data as unknown as Draw) : undefined;
    return { type: d.type, draw, change, touched: [...touched], ghosts };
  }
}

function copy(o: GameObject): GameObject {
  return JSON.parse(JSON.stringify(o)) as GameObject;
}

/** Dungeons first, then levels, placements and branches, each by number. */
function byKind(a: string, b: string): number {
  const order = 'dlpbr';
  const ka = order.indexOf(a[0]);
  const kb = order.indexOf(b[0]);
  if (ka !== kb) return ka - kb;
  return a.localeCompare(b, 'en', { numeric: true });
}

function list(names: string[]): string {
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function dungeonWords(now: GameObject, was: GameObject | undefined, entered: boolean): string[] {
  const name = String(now.name ?? now.id);
  const said: string[] = [];
  const n = now.num_levels;
  const start = now.depth_start;
  if (typeof n === 'number' && n !== was?.num_levels) said.push(`${n} level${n === 1 ? '' : 's'}`);
  if (
    typeof start === 'number' &&
    typeof n === 'number' &&
    start !== was?.depth_start &&
    (was?.depth_start !== undefined || entered)
  ) {
    const end = start + n - 1;
    said.push(end === start ? `depth ${end}` : `depths ${start} to ${end}`);
  }
  const words = said.length ? [`${name}: ${said.join(', ')}`] : [];
  if (now.dropped === true && was?.dropped !== true)
    words.push(`${name} dropped: its chance roll failed`);
  return words;
}

const BRANCH_KIND: Record<string, string> = {
  stair: 'stairs',
  portal: 'a portal',
  no_end1: 'a branch',
  no_end2: 'a branch',
};

function branchWords(now: GameObject, was: GameObject | undefined, r: Replay): string {
  const from = r.obj(now.from);
  const to = r.obj(now.to);
  const e1 = isObj(now.end1) ? now.end1 : {};
  const e2 = isObj(now.end2) ? now.end2 : {};
  const kind = BRANCH_KIND[String(now.type)] ?? String(now.type);
  const target = `${to ? String(to.name) : '?'}${e2.level !== undefined ? ` (its level ${e2.level})` : ''}`;
  if (!from) return `${kind} to ${target} floats: placed in a vault of the main dungeon`;
  let words = `${kind} from level ${e1.level} of ${String(from.name)} to ${target}`;
  if (now.type === 'no_end1') words += `, with no stairs on level ${e1.level}`;
  if (now.type === 'no_end2') words += `, with no stairs back`;
  return was ? `now ${words}` : words;
}

/** What a gamelog's `settings` ask the API for, when its description is built in. */
export function settingsQuery(settings: Obj): Record<string, string | boolean> | null {
  const file = settings.file;
  const target = settings.target;
  if (typeof target !== 'string' || typeof file !== 'string' || !file.endsWith('(built in)'))
    return null;
  const s = (k: string) => {
    const v = settings[k];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
  return {
    game: target,
    seed: s('seed'),
    role: s('role'),
    race: s('race'),
    gender: s('gender'),
    align: s('align'),
    // Only NetHack 3.6 makes its game start on request.
    game_start: target === 'nethack-3.6' && settings.game_start === true,
    lgen: s('option:lgen'),
    wizard: settings.wizard === true,
  };
}
