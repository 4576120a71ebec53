//! EvilHack (k21971/EvilHack c444f6a3ab1e; facts from
//! `expected/variants/evilhack/README.md` and the game's source): a 3.6
//! fork whose `init_dungeons()` is 3.6.7's draw for draw, with room for
//! 99 prototype levels. ISAAC-64, seeded as 3.6.

use super::{Game, InputSpec, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::{BonesRules, EventLevel};
use crate::dialect::Dialect;
use crate::loader::{Limits, NonPositiveRn2, Rules, NETHACK_LIMITS};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// `init_dungeons()` (`src/dungeon.c:749-1030`): 3.6's. `LEV_LIMIT` is 99
/// (`include/dgn_file.h:76`, checked at `src/dungeon.c:923`); MAXDUNGEON
/// 16 and MAXLEVEL 32 (`include/global.h:347-348`), BRANCH_LIMIT 32 as in
/// vanilla; the same four dungeons looked up by name (`:1000-1003`) and
/// Fort Ludios floated through `level_map`'s `knox` (`:967-995`), but
/// only when a branch reaches it: the kludge is guarded by `if (br)`
/// (`:989-993`), so a `knox` no branch leads to does not abort the game.
pub(crate) const RULES: Rules = Rules {
    limits: Some(Limits {
        max_levels: 99,
        ..NETHACK_LIMITS
    }),
    floating_needs_branch: false,
    // 3.6's `rn2`: `isaac64_next_uint64() % x` (`src/rnd.c:59-63`), the
    // guard compiled out (`:104-113`, `NH_STATUS_RELEASED` in
    // `include/global.h:22`).
    rn2_nonpositive: NonPositiveRn2::OneDrawRaw,
    ..Rules::nethack_36()
};

/// `no_bones_level()` (`src/bones.c:21-43`) is 3.6's plus the valley,
/// which holds no bones until the hero has killed Cerberus (`:37-39`;
/// `u.uevent.ucerberus`, `include/you.h:73`, set in `src/mon.c:4282-4283`).
/// `can_make_bones()` (`:465-498`) is 3.6's, with the hero's square (open
/// air) besides. Magic portals outside the endgame and off branch levels
/// are placed by `valley` (`dat/gehennom.des:74`, to the Hidden Dungeon)
/// and `purgatory-1` (`dat/purgatory.des:56`, back to the castle); the
/// Wizard's Tower is its own dungeon behind a branch portal. File names as
/// 3.6 (`src/files.c:891-939`).
const BONES: BonesRules = BonesRules {
    event_levels: &[EventLevel {
        level: "valley",
        event: "Cerberus is killed",
        source: "EvilHack src/bones.c:39",
    }],
    portal_levels: &["valley", "purgatory-1"],
    notes: &[
        "no bones with the `bones` option off (src/bones.c:470)",
        "no bones in discover mode (src/bones.c:494)",
    ],
    ..BonesRules::VANILLA
};

/// EvilHack 0.5.0-0.8.0 (`dgn xlog`'s older releases): no valley rule (it
/// came in 447a7a497, 2023-02-04; v0.8.1 src/bones.c:39), and the magic
/// portals are vanilla's Wizard's Tower pair, `wizard3` (v0.5.0
/// dat/yendor.des:242) and `fakewiz1` (:358): the valley's portal came
/// with the Hidden Dungeon in 0.8.3.
pub(crate) const BONES_0_5: BonesRules = BonesRules {
    event_levels: &[],
    portal_levels: &["wizard3", "fakewiz1"],
    ..BONES
};

/// EvilHack 0.8.1-0.8.2: the valley rule, vanilla's portal pair and
/// Purgatory's (v0.8.1 dat/purgatory.des:56).
pub(crate) const BONES_0_8_1: BonesRules = BonesRules {
    portal_levels: &["wizard3", "fakewiz1", "purgatory-1"],
    ..BONES
};

pub(super) static GAME: Game = Game {
    target: Target::EvilHack,
    title: "EvilHack",
    dialect: Dialect::EvilHack,
    binary: Some(BinaryFormat::EvilHack),
    rng: RngKind::Isaac64,
    rules: RULES,
    bones: BONES,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::Proven(
        "variants_parity::evilhack_layouts_match: every line of expected/variants/evilhack/layouts.* (normal, wizard), draw for draw",
    ),
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
};
