// What the views share: how one is shown, and the form that picks a
// game, a seed, a role and wizard mode.
import type { Games } from '../api';
import { checkbox, el, field, input, select } from '../dom';
import { flagOf, query } from '../url';

/**
 * A view fills `root` with its form and results; what it returns is what it
 * must let go of before another view is shown (the Edit view's connection).
 */
export type View = (root: HTMLElement, games: Games) => (() => void) | void;

/** The game chosen when the URL names none (`dgn`'s default `--target`). */
export const DEFAULT_GAME = 'nethack-3.6';

const ROLES = [
  '',
  'random',
  'Arc',
  'Bar',
  'Cav',
  'Hea',
  'Kni',
  'Mon',
  'Pri',
  'Rog',
  'Ran',
  'Sam',
  'Tou',
  'Val',
  'Wiz',
];

// A game start that chooses the hero (NetHack 3.6 with its game start,
// NLE) takes each facet by NetHack's own words, or `random`.
const RACES = ['', 'random', 'human', 'elf', 'dwarf', 'gnome', 'orc'];
const GENDERS = ['', 'random', 'male', 'female'];
const ALIGNS = ['', 'random', 'lawful', 'neutral', 'chaotic'];

/** The game menu, set from the URL. */
export function gameSelect(games: Games, value = query.get('game')): HTMLSelectElement {
  return select('game', games.all, value ?? DEFAULT_GAME, DEFAULT_GAME);
}

/** The role menu, set from the URL. */
export function roleSelect(): HTMLSelectElement {
  return select('role', ROLES, query.get('role') ?? '');
}

export interface GameForm {
  form: HTMLFormElement;
  target: HTMLSelectElement;
  seed: HTMLInputElement;
  role: HTMLSelectElement;
  race: HTMLSelectElement;
  gender: HTMLSelectElement;
  align: HTMLSelectElement;
  gameStart: HTMLInputElement;
  lgen: HTMLInputElement;
  wizard: HTMLInputElement;
}

/** A form with the game, seed, role and wizard mode, set from the URL. */
export function gameForm(games: Games): GameForm {
  const target = gameSelect(games, query.get('game') ?? query.get('target'));
  const seed = input('seed', query.get('seed') ?? '0', {
    inputmode: 'numeric',
    pattern: '[0-9]+',
    size: '12',
  });
  const role = roleSelect();
  const race = select('race', RACES, query.get('race') ?? '');
  const gender = select('gender', GENDERS, query.get('gender') ?? '');
  const align = select('align', ALIGNS, query.get('align') ?? '');
  const gameStart = checkbox('game_start', flagOf('game_start'));
  // NLE's seeds: `core` is the seed; `lgen` its level generator's.
  const lgen = input('lgen', query.get('lgen') ?? '', {
    inputmode: 'numeric',
    pattern: '[0-9]*',
    size: '12',
    placeholder: 'none',
  });
  const wizard = checkbox('wizard', flagOf('wizard'));
  const hero = [field('Race', race), field('Gender', gender), field('Alignment', align)];
  const start = field('Game start', gameStart);
  const nle = field('NLE lgen', lgen);
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('Seed', seed),
    field('Role', role),
    ...hero,
    start,
    nle,
    field('Wizard mode', wizard),
  );
  // Only the games whose start chooses the hero read race, gender and
  // alignment; only NLE has a level generator; NetHack 3.6 makes its
  // start on request (NLE and 3.7's family always do).
  const shown = () => {
    const g = target.value;
    const chooses = g === 'nle' || (g === 'nethack-3.6' && gameStart.checked);
    for (const h of hero) h.hidden = !chooses;
    start.hidden = g !== 'nethack-3.6';
    nle.hidden = g !== 'nle';
    seed.title = g === 'nle' ? "NLE's core seed" : '';
  };
  target.addEventListener('change', shown);
  gameStart.addEventListener('change', shown);
  shown();
  return { form, target, seed, role, race, gender, align, gameStart, lgen, wizard };
}

/** What a game form asks the API for (what a game does not read is left out). */
export function gameParams(f: GameForm): {
  target: string;
  seed: string;
  role: string;
  race: string;
  gender: string;
  align: string;
  game_start: boolean;
  option: string;
  wizard: boolean;
} {
  const g = f.target.value;
  const chooses = g === 'nle' || (g === 'nethack-3.6' && f.gameStart.checked);
  const hero = (s: HTMLSelectElement) => (chooses ? s.value : '');
  return {
    target: g,
    seed: f.seed.value,
    role: f.role.value === 'random' && !chooses ? '' : f.role.value,
    race: hero(f.race),
    gender: hero(f.gender),
    align: hero(f.align),
    game_start: g === 'nethack-3.6' && f.gameStart.checked,
    option: g === 'nle' && f.lgen.value.trim() !== '' ? `lgen=${f.lgen.value.trim()}` : '',
    wizard: f.wizard.checked,
  };
}
