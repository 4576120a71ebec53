//! NetHack 5.0.0, the release of the 3.7 line (NetHack/NetHack commit
//! 16ff59115, 2026-05-02); `nethack-3.7` stays the name of the
//! development builds (the tree of 79c688cc6, 2026-02-06).
//!
//! What 5.0.0 reads and draws for its dungeon is 3.7's:
//! - `dat/dungeon.lua` differs from 79c688cc6's only in a comment
//!   (`-- 5.0.0: minend changed to no-bones ...`, :188; blob 7550d1317),
//!   so both share dgnkit's built-in description;
//! - `src/dungeon.c` is still revision 1.228: between the two trees only
//!   `u_on_newpos()` (:1568) and `donamelevel()` (:2571) changed,
//!   neither of which `init_dungeons()` calls; its draws keep their lines
//!   (:426, :687, :1074, :1116);
//! - `src/role.c` changed only in its header (`role_init`'s gender roll
//!   is still :2060, its pantheon loop :2068-2069), and `roles[]` holds the
//!   same thirteen roles;
//! - `newgame()` (src/allmain.c:766) calls `init_objects()`, `role_init()`
//!   and `init_dungeons()` in 3.7's order (:783, :786, :789); the one call
//!   it adds, `get_nhuuid()` (:778), asks the system for a UUID and draws
//!   nothing (sys/unix/unixmain.c:849);
//! - `can_make_bones()` and `no_bones_level()` (src/bones.c) and
//!   `print_dungeon()` are unchanged.
//!
//! The one difference before the dungeon: 5.0.0 has a new wand, the wand
//! of stasis (include/objects.h:1460-1461), so `o_init` shuffles 28 wand
//! descriptions instead of 27 and draws once more.

use super::nethack37::{vanilla, Start37};
use super::{Game, LoaderInputs, LoaderProof};
use crate::loader::{GameStart, LoadError};
use crate::options::Target;

pub(crate) static GAME: Game = vanilla(
    Target::NetHack50,
    "NetHack 5.0",
    LoaderProof::Proven(PROOF),
    game_start,
    // 5.0's o_init shuffles one more wand than 3.7's, so 3.7's bounds and
    // callers do not describe its draws: no session form for it yet.
    None,
);

const PROOF: &str = "nethack50_parity: every game start of tests/data/nethack-5.0.0/init_dungeons.jsonl (six wizard-mode starts recorded on NetHack 5.0.0, 16ff59115), draw for draw, with the draws before the loader; normal mode's chance rolls are 3.7's code, proven by nethack37_parity";

/// `o_init`'s draws (src/o_init.c): the gem colours (:89-95), one draw per
/// object of each shuffled range (:129: 11 amulets, 25 potions, 28 rings,
/// 41 scrolls, 41 spellbooks, 28 wands, 2 venoms, then 4 helmets, 4 pairs
/// of gloves, 4 cloaks and 7 pairs of boots) and the wand of nothing's
/// direction (:234). 3.7's 198 and the wand of stasis.
pub const OBJECT_DRAWS: u32 = 199;

/// 3.7's start (`roles[]`, no victim, nothing after the dungeon) with one
/// more object.
const START: Start37 = Start37 {
    title: "NetHack 5.0",
    object_draws: OBJECT_DRAWS,
    ..super::nethack37::START
};

/// The draws a new game makes before `init_dungeons()` for the run's role.
pub fn game_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    START.for_inputs(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nethack37::{DEFAULT_ROLE, ROLE_STARTS};
    use crate::games::role_named;

    /// 5.0.0 starts as 3.7 does but for the one more wand to shuffle.
    #[test]
    fn a_start_is_37s_with_one_more_object_draw() {
        for role in ROLE_STARTS.iter().map(|r| r.code).chain([DEFAULT_ROLE]) {
            let inputs = LoaderInputs {
                role: role_named(role),
                ..LoaderInputs::default()
            };
            let ours = game_start(&inputs).unwrap();
            let theirs = super::super::nethack37::game_start(&inputs).unwrap();
            assert_eq!(ours.fixed, theirs.fixed + 1, "{role}");
            assert_eq!(
                GameStart {
                    fixed: theirs.fixed,
                    ..ours
                },
                theirs,
                "{role}"
            );
        }
    }
}
