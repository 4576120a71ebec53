// The descriptions the Edit and Diff views start from: each game's own, as
// dgnkit describes it (corpus/), the file `dgn layout --target GAME` lays
// out when it is given none (cli/src/layout.rs `built_in`; a test in
// cli/tests/commands/serve_api.rs holds the two tables together).
import NETHACK_343 from '../../corpus/nethack-3.4.3.def';
import NETHACK_36 from '../../corpus/nethack-3.6.def';
import NETHACK_37 from '../../corpus/nethack-3.7.lua';
import EVILHACK from '../../corpus/evilhack-0.9.def';
import UNNETHACK from '../../corpus/unnethack-6.0.def';
import SLASHEM from '../../corpus/slashem-0.0.8.def';
import DNETHACK from '../../corpus/dnethack-3.23.def';
import GNOLLHACK from '../../corpus/gnollhack-4.def';
import DYNAHACK from '../../corpus/dynahack-0.0.1.def';
import XNETHACK from '../../corpus/xnethack-9.1.lua';
import SPLICEHACK from '../../corpus/splicehack-1.2.lua';
import NERFHACK from '../../corpus/nerfhack-2.2.lua';
import CRECELLEHACK from '../../corpus/crecellehack-1.5.lua';

/** A built-in description: its file in corpus/ and its text. */
export interface Sample {
  file: string;
  text: string;
}

const sample = (file: string, text: string): Sample => ({ file, text });

/** Each game's own description (`--target` → corpus/ file). */
const OWN: Record<string, Sample> = {
  'nethack-3.4.3': sample('nethack-3.4.3.def', NETHACK_343),
  'nethack-3.6': sample('nethack-3.6.def', NETHACK_36),
  'nethack-3.7': sample('nethack-3.7.lua', NETHACK_37),
  'nethack-5.0': sample('nethack-3.7.lua', NETHACK_37),
  nle: sample('nethack-3.6.def', NETHACK_36),
  native: sample('nethack-3.6.def', NETHACK_36),
  evilhack: sample('evilhack-0.9.def', EVILHACK),
  unnethack: sample('unnethack-6.0.def', UNNETHACK),
  slashem: sample('slashem-0.0.8.def', SLASHEM),
  dnethack: sample('dnethack-3.23.def', DNETHACK),
  gnollhack: sample('gnollhack-4.def', GNOLLHACK),
  dynahack: sample('dynahack-0.0.1.def', DYNAHACK),
  xnethack: sample('xnethack-9.1.lua', XNETHACK),
  splicehack: sample('splicehack-1.2.lua', SPLICEHACK),
  nerfhack: sample('nerfhack-2.2.lua', NERFHACK),
  crecellehack: sample('crecellehack-1.5.lua', CRECELLEHACK),
};

/** The kind of file (`dungeon.def` or `dungeon.lua`) a game's own description is. */
export function ownKind(game: string): string {
  return OWN[game]?.file.endsWith('.lua') ? 'dungeon.lua' : 'dungeon.def';
}

/**
 * The sample of `game` for a kind of file: the game's own description when
 * it is of that kind, else NetHack's of that kind (3.6's dungeon.def, 3.7's
 * dungeon.lua), as a game that reads both kinds is offered.
 */
export function sampleFor(game: string, kind: string): Sample {
  const own = OWN[game];
  if (own && ownKind(game) === kind) return own;
  return kind === 'dungeon.lua' ? OWN['nethack-3.7'] : OWN['nethack-3.6'];
}

/** NetHack 3.6's dungeon.def (the Diff view's sample). */
export const SAMPLE_DEF = NETHACK_36;
