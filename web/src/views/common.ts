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

/** The game menu, set from the URL. */
export function gameSelect(games: Games, value = query.get('game')): HTMLSelectElement {
  return select('game', games.all, value ?? DEFAULT_GAME);
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
  const wizard = checkbox('wizard', flagOf('wizard'));
  const form = el(
    'form',
    { class: 'controls' },
    field('Game', target),
    field('Seed', seed),
    field('Role', role),
    field('Wizard mode', wizard),
  );
  return { form, target, seed, role, wizard };
}

/** What a game form asks the API for. */
export function gameParams(f: GameForm): {
  target: string;
  seed: string;
  role: string;
  wizard: boolean;
} {
  return {
    target: f.target.value,
    seed: f.seed.value,
    role: f.role.value,
    wizard: f.wizard.checked,
  };
}
