//! The loader: resolves a compiled [`Script`] and a seed into a [`Layout`],
//! drawing the same random numbers in the same order as NetHack's
//! `init_dungeons()` (`loader.md`).
//!
//! A [`Resolver`] is built once per script (names compared, branch owners
//! and lookups precomputed) and then resolves any number of seeds. The
//! allocation-free path is [`Resolver::resolve_into`], which fills a
//! reusable [`Resolved`] buffer; [`Resolved::to_layout`] turns it into the
//! canonical [`Layout`] with names.
//!
//! Each game's `init_dungeons()` departs from NetHack 3.6's in a few
//! places; [`Rules`] holds those departures, each citing the game's C.

#![deny(clippy::unwrap_used)]

pub mod arith;
mod error;
mod place;
mod resolve;
mod start;

pub use error::{FailCode, LoadError, RangeOwner};
pub use resolve::{
    BranchKind, Checkpoint, Resolved, ResolvedBranch, ResolvedDungeon, ResolvedLevel,
};
pub use start::{CharacterStart, GameStart, Pantheon, Victim};

pub mod chargen;
mod game;
pub mod roles;
mod trace;

pub use game::{GameOption, InputSpec, LoaderGame, LoaderInputs, LoaderProof, StartHook};
pub use roles::{race_named, role_named, Race, Role, RACES, ROLES};
pub use trace::{Drawer, NoTrace, Trace};

// The generators and the draw log under one path, `rng`, as the stages
// after the loader name them.
pub mod rng {
    pub use crate::trace::*;
    pub use dgnkit_rng::*;
}

use crate::rng::{Glibc, Isaac32, Isaac64, Mt19937Cokus, RngKind, Source};
use dgnkit_script::layout::Layout;
use dgnkit_script::{flags, BranchType, Range, Script};
use std::ops::ControlFlow;

/// NetHack's deepest dungeon (`MAXLEVEL`): the loader clamps sizes to it and
/// places levels on `1 ..= MAXLEVEL`.
pub const MAXLEVEL: i32 = 32;

/// Sizes of NetHack's loader tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `MAXDUNGEON`: the file must have fewer dungeons than this.
    pub max_dungeons: usize,
    /// `LEV_LIMIT`: special-level records of the dungeons that exist.
    pub max_levels: usize,
    /// `BRANCH_LIMIT`: branch records of the dungeons that exist.
    pub max_branches: usize,
}

/// How wide the loader's fields are: values beyond a field wrap as they do
/// in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// 3.4.3 and 3.6: counts, levels and depths in signed bytes
    /// (`xchar`/`schar`), ledger and depth starts in `int`.
    Bytes,
    /// 3.7: sizes, entries and levels in `xint16` (include/dungeon.h:10-11,
    /// 68-69), the branch end's depth through `depth()`'s `schar`
    /// (src/dungeon.c:1430, 962), ledger and depth starts in `int`
    /// (include/dungeon.h:71-72).
    NetHack37,
    /// dNetHack: counts and levels in `int` (dNAO include/dungeon.h:
    /// 64-69), the branch end's depth through `depth()`'s `schar`
    /// (src/dungeon.c:1216).
    Ints,
    /// dgnkit's native target: no wrapping.
    Wide,
}

impl Fields {
    /// A dungeon's size, its entry level, a branch's level.
    #[inline(always)]
    pub fn count(self, v: i32) -> i32 {
        match self {
            Fields::Bytes => v as i8 as i32,
            Fields::NetHack37 => v as i16 as i32,
            Fields::Ints | Fields::Wide => v,
        }
    }

    /// The depth of a branch's parent end (`depth()`).
    #[inline(always)]
    pub fn depth(self, v: i32) -> i32 {
        match self {
            Fields::Bytes | Fields::NetHack37 | Fields::Ints => v as i8 as i32,
            Fields::Wide => v,
        }
    }

    /// A dungeon's ledger and depth starts: `int` in every game
    /// (`ledger_start`, `depth_start`: 3.4.3 include/dungeon.h:61-62, 3.6
    /// :64-65, and the variants'), computed in `int` (3.6 src/dungeon.c:
    /// 807-808, 870-872), so nothing wraps them.
    #[inline(always)]
    pub fn start(self, v: i32) -> i32 {
        v
    }
}

/// Where the alignments a layout reports come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alignments {
    /// 3.4.3 and 3.6: a dungeon has its own; a level its own, else its
    /// dungeon's.
    Inherit,
    /// 3.7 stores a dungeon's alignment, already shifted, into a 3-bit
    /// field (src/dungeon.c:1092 into include/dungeon.h:21), which keeps
    /// 0; a level without one takes the alignment bits of its dungeon's
    /// *flags* (src/dungeon.c:589-591), which hold no alignment but can
    /// hold `unconnected`, the same bit as chaotic (include/dgn_file.h:60,
    /// 63). A level's own `unconnected` flag reads as chaotic too
    /// (src/dungeon.c:845, 588).
    NetHack37,
}

/// How NetHack's loader version behaves where versions differ. Each field
/// is one of the places where a game's `init_dungeons()` departs from
/// 3.6's; a game (`crates/dgnkit/src/games/`) is a choice of these. (Not
/// comparable: the hooks are function pointers.)
#[derive(Clone, Debug)]
pub struct Rules {
    /// `parent_dlevel` since 3.3: the branch level is drawn as
    /// `j = rn2(count)` and the search for a level that does not yet end a
    /// branch starts at `j + 1`. Before 3.3 it was `rn1(count, base)`.
    pub avoid_branch_levels: bool,
    /// Widths of the counts, levels and depths.
    pub fields: Fields,
    /// `parent_dnum()` finds a branch's parent by walking the dungeons to
    /// the first one named like the target (SLASH'EM records each branch
    /// record's owner instead).
    pub parent_by_name: bool,
    /// Dungeons the game looks up by name right after loading, in order; it
    /// aborts on the first one that is missing.
    pub required_dungeons: &'static [&'static str],
    pub limits: Option<Limits>,
    /// 3.7 runs `nhlib.lua` when it creates the loader's Lua state, and its
    /// top level shuffles a list of this many alignments (dat/nhlib.lua:
    /// 17-25): `rn2(n)`, `rn2(n - 1)`, ..., `rn2(2)` before anything else.
    /// 0: no such draws.
    pub lua_shuffle: u32,
    /// 3.7 resolves a chain by name while it reads the records, among the
    /// records of the dungeons that exist (src/dungeon.c:828-839, 887-894),
    /// so a dropped dungeon shifts nothing. 3.4.3 and 3.6 keep the file's
    /// index, which a dropped dungeon shifts.
    pub chain_by_name: bool,
    /// 3.7: a dungeon flagged `unconnected` gets no branch and starts at
    /// depth 1 (src/dungeon.c:1094-1097).
    pub unconnected: bool,
    /// 3.7 checks `LEV_LIMIT` and `BRANCH_LIMIT` while reading a dungeon's
    /// records, before its size is drawn (src/dungeon.c:862-864, 928-930);
    /// 3.6 while loading its levels and after placing them.
    pub limits_on_read: bool,
    pub alignments: Alignments,
    /// Wizard mode skips the DUNGEON chance rolls (3.4.3 `dungeon.c:703`);
    /// UnNetHack rolls them anyway (its `dungeon.c:881`).
    pub wizard_skips_dungeon_chance: bool,
    /// Wizard mode skips the LEVEL chance rolls (3.4.3 `dungeon.c:480`);
    /// UnNetHack rolls them anyway (its `dungeon.c:625`).
    pub wizard_skips_level_chance: bool,
    /// Levels whose entrance floats, in the order of the game's `level_map`:
    /// after the tune, the branch ending on each gets `end1.dnum = n_dgns`
    /// and is re-inserted into the branch list (3.4.3 `dungeon.c:859-873`
    /// for `knox`; UnNetHack and DynaHack add `advcal` before it).
    pub floating_levels: &'static [&'static str],
    /// A floating level that no branch reaches: the game panics
    /// "insert_branch: not found" (3.6 `dungeon.c:943-950`, every game but
    /// one), or, where it guards the kludge with `if (br)` (EvilHack
    /// `dungeon.c:989-993`), leaves the branch list as it is.
    pub floating_needs_branch: bool,
    /// Special levels taken out of the level chain after loading (their
    /// draws are made): DynaHack's `rogue` with the `reincarnation` option
    /// off (`dungeon.c:892-909`). Compared case-sensitively, as `strncmp`.
    pub unlinked_levels: &'static [&'static str],
    /// The Elemental Planes shuffle made after everything else, when the
    /// game has one.
    pub planes: Option<Planes>,
    /// Layouts made with the game's start ([`GameStart`]) report how many
    /// draws came before the loader (`pre_draws`: UnNetHack's `.game`
    /// layouts).
    pub report_pre_draws: bool,
    /// `MAXLEVEL`: sizes are clamped to it, levels placed on `1..=maxlevel`
    /// (at most 64), and it is a factor of the branch list's sort key.
    pub maxlevel: i32,
    /// `MAXDUNGEON`, the other factor of the branch list's sort key.
    pub maxdungeon: i32,
    /// When the chance roll of a DUNGEON record is made.
    pub dungeon_chance: DungeonChance,
    /// Where a dungeon's entry level comes from.
    pub entry: EntrySource,
    /// SLASH'EM: a branch record naming a dungeon that already exists is
    /// added as soon as its owner's records are read (a branch back up).
    pub back_branches: bool,
    /// SLASH'EM: `ledger_start + num_levels` above this aborts
    /// ("init_dungeons: too many levels").
    pub ledger_limit: Option<i32>,
    /// dNetHack: of the DUNGEON records sharing a name, one is kept
    /// (`select_alternate`).
    pub alternates: bool,
    /// dNetHack: the Quest's length and its locate level depend on the
    /// nemesis and on a draw.
    pub quest_locate: bool,
    /// What the game's `rn2(x)` does with `x < 0`, which the loader passes
    /// for a range whose random part is below -1 (`level_range` returns it
    /// as the count, 3.6 `dungeon.c:375-379`) and for a dungeon size with a
    /// negative random part (`rn1(rand, base)`, 3.6 `dungeon.c:796-798`).
    pub rn2_nonpositive: NonPositiveRn2,
    /// dNetHack splits `level_range`'s abort text in two.
    pub range_panic: RangePanic,
    /// What the loader reads besides the file (set by the game's
    /// `rules_hook` from the role, race and options).
    pub inputs: GameInputs,
    /// Layouts report `chaos_variant` and `loader_inputs` (dNetHack's
    /// layout JSON).
    pub report_inputs: bool,
    /// Layouts report each dungeon's `has_tileset`/`tileset` and each
    /// level's `display_name` (GnollHack's records carry them).
    pub report_display: bool,
}

/// What a game's `rn2(x)` does with `x <= 0`. The loader never passes 0
/// (`level_range` returns 1 for a random part of 0; a size with a random
/// part of 0 draws nothing), where 3.4.3, 3.6, SLASH'EM, DynaHack,
/// EvilHack and GnollHack would draw and then divide by zero; only a
/// negative `x`.
///
/// Each behaviour was checked on 2026-11-29 against the game's own
/// `rnd.c` and generator compiled from source outside the project (3.4.3,
/// 3.6.1 on glibc, 3.6.7, 3.7, UnNetHack, EvilHack, GnollHack, SLASH'EM,
/// dNAO, DynaHack): per game 50 seeds and 15,800 calls, 7,216 of them
/// with a bound of 0 or less, gave the values and took the draws of
/// `Drawer::rn2_nonpositive` (`trace.rs`); and each game's own dungeon
/// description, compiled with negative random parts set in its sizes and
/// branches and laid out by `dgn layout --trace` for 36 seeds, replayed
/// draw for draw through the compiled `rn2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonPositiveRn2 {
    /// One draw, a value in `0 ..= |x| - 1`: `RND(x)` is
    /// `(int)(Rand() % (long)(x))` (3.4.3 `src/rnd.c:12`, SLASH'EM the
    /// same), and C's `%` of a non-negative `long` (`random()`) by a
    /// negative one is `random() % |x|`. DynaHack's
    /// `(int)(mt_random() % (long)(x))` (`libdynamohack/include/rnd.h:6`)
    /// is the same on LP64, where `long` holds every `unsigned int`.
    OneDrawModulo,
    /// One draw, the generator's raw output: `RND(x)` is
    /// `isaac64_next_uint64() % x` (3.6.7 `src/rnd.c:59-63`, no guard in a
    /// released build, `:104-113`), where `x` converts to `uint64_t` as
    /// `2^64 - |x|`; the remainder, the output itself unless it is that
    /// large, is cut to an `int`. EvilHack (`src/rnd.c:59-63`, `:100-114`,
    /// `NH_STATUS_RELEASED` in `include/global.h:22`) and GnollHack
    /// (`src/rnd.c:61-65`, `:100-113`, the guard only `#ifdef BETA`, which
    /// `include/global.h:13` leaves off) the same.
    OneDrawRaw,
    /// No draw, 0: `if (x <= 0) { warning(...); return 0; }` (UnNetHack
    /// `src/rnd.c:44-52`); NetHack 3.7's `impossible()` and 0 in any
    /// build that is not a release (`src/rnd.c:97-101`; 3.7 is
    /// `NH_STATUS_WIP`, `include/patchlevel.h:33`), and its forks'.
    NoDraw,
    /// One draw, 0: dNetHack's `if (x <= 0) x = 1;` before `RND(x)`
    /// (dNAO `src/rnd.c:51`).
    OneDrawZero,
}

impl NonPositiveRn2 {
    /// The behaviour with generator `rng`: the 3.6 family built without
    /// ISAAC-64 (3.6.0 and 3.6.1, on glibc's `random()`) has
    /// `RND(x) = (int)(Rand() % (long)(x))` (3.6.0 `src/rnd.c:12`; 3.6.7
    /// `:83`), a signed division, so [`NonPositiveRn2::OneDrawRaw`] on
    /// any other generator is [`NonPositiveRn2::OneDrawModulo`].
    pub fn with_generator(self, rng: RngKind) -> NonPositiveRn2 {
        if self == NonPositiveRn2::OneDrawRaw && rng != RngKind::Isaac64 {
            NonPositiveRn2::OneDrawModulo
        } else {
            self
        }
    }
}

/// When a DUNGEON record's chance roll is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DungeonChance {
    /// Vanilla: only outside wizard mode and only for a record with a
    /// chance (0 means "always").
    Optional,
    /// dNetHack (dNAO `dungeon.c:884-885`): for every record not dropped as
    /// an alternate (in wizard mode too: its rules do not skip dungeon
    /// chances); its dgn_comp writes 100 for an omitted chance, which a
    /// script holds as 0.
    Every,
}

/// Where a dungeon's entry level comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntrySource {
    /// The DUNGEON's ENTRY line.
    Dungeon,
    /// SLASH'EM (`dungeon.c:389-427`, `:754-769`): the entry of the first
    /// branch record leading to it, with `add_branch`'s indexing bug.
    FirstBranch,
}

/// The texts of `level_range`'s abort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangePanic {
    /// "level_range: base value out of range".
    One,
    /// dNAO `dungeon.c:358-360`: "(<0)" below 1, "(base:%d > lmax:%d)" above.
    Split,
}

/// What a game's loader makes of its [`LoaderInputs`] (a game's
/// `rules_hook` sets them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameInputs {
    /// dNetHack: `urole.neminum == PM_BLIBDOOLPOOLP__GRAVEN_INTO_FLESH`
    /// (a Drow Healer, dNAO `role.c:2086-2098`).
    pub quest_nemesis_blibdoolpoolp: bool,
    /// dNetHack: `flags.chaosvar`, option `chaos_quest` (0 random,
    /// 1 temple, 2 mithardir, 3 mordor; dNAO `options.c:2759-2776`).
    pub chaosvar: u8,
    /// dNetHack: `is_june()`, the month at game start is June
    /// (`hacklib.c:662-666`); with it the chaos_quest option holds outside
    /// wizard mode too.
    pub is_june: bool,
}

impl GameInputs {
    /// A loader that reads nothing besides the file.
    pub const NONE: GameInputs = GameInputs {
        quest_nemesis_blibdoolpoolp: false,
        chaosvar: 0,
        is_june: false,
    };
}

/// `shuffle_planes()` (UnNetHack `dungeon.c:1138-1163`, DynaHack
/// `dungeon.c:939-962`): a Fisher-Yates shuffle of four planes drawing
/// `rn2(4)`, `rn2(3)`, `rn2(2)`, then the level chain is relinked
/// `head -> a[3] -> a[2] -> a[1] -> a[0] -> tail`. The levels keep their
/// (dungeon, level); only the chain order, which the game follows from one
/// plane to the next, changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planes {
    pub head: &'static str,
    /// The game's array, in its initial order.
    pub shuffled: [&'static str; 4],
    pub tail: &'static str,
    /// How layouts report the order.
    pub report: PlanesReport,
}

impl Planes {
    /// The planes as UnNetHack and DynaHack shuffle them: `array[] = {
    /// water, fire, air, earth }` between astral and dummy.
    pub const ELEMENTAL: Planes = Planes {
        head: "astral",
        shuffled: ["water", "fire", "air", "earth"],
        tail: "dummy",
        report: PlanesReport::ChainOrder,
    };
}

/// The extra layout field that shows the planes' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanesReport {
    /// `planes_order`: the levels of the planes' dungeon in chain order.
    ChainOrder,
    /// `plane_order`: the planes in the order the hero visits them, the
    /// first being the one the chain leads from to `tail`, ending with
    /// `head` (DynaHack's `get_first_elemental_plane`, `dungeon.c:275-287`,
    /// and `get_next_elemental_plane`, `:255-271`).
    VisitOrder,
}

pub const NETHACK_LIMITS: Limits = Limits {
    max_dungeons: 16,
    max_levels: 50,
    max_branches: 32,
};

impl Rules {
    /// NetHack 3.4.3's `init_dungeons()`: 3.6's, draw for draw. Diffed
    /// function by function (3.4.3 `src/dungeon.c` against 3.6.7's), the two
    /// differ only in `memset`s of new records and in `level_map` names,
    /// which draw nothing; an ENTRY beyond the bottom is lowered to it in
    /// both (3.4.3 `dungeon.c:757-760`; the unlowered entry was 3.3's bug,
    /// fixed in 3.4.0). Its `rn2` differs for a negative argument.
    pub const fn nethack_343() -> Rules {
        Rules {
            // `RND(x) = (int)(Rand() % (long)(x))` (src/rnd.c:12), and
            // `rn2` has no guard outside `DEBUG` (:25-34).
            rn2_nonpositive: NonPositiveRn2::OneDrawModulo,
            ..Rules::nethack_36()
        }
    }

    /// NetHack 3.6's `init_dungeons()`.
    pub const fn nethack_36() -> Rules {
        Rules {
            avoid_branch_levels: true,
            fields: Fields::Bytes,
            required_dungeons: &["The Quest", "Sokoban", "The Gnomish Mines", "Vlad's Tower"],
            limits: Some(NETHACK_LIMITS),
            lua_shuffle: 0,
            chain_by_name: false,
            unconnected: false,
            limits_on_read: false,
            alignments: Alignments::Inherit,
            wizard_skips_dungeon_chance: true,
            wizard_skips_level_chance: true,
            floating_levels: &["knox"],
            floating_needs_branch: true,
            unlinked_levels: &[],
            planes: None,
            report_pre_draws: false,
            parent_by_name: true,
            maxlevel: MAXLEVEL,
            maxdungeon: 16,
            dungeon_chance: DungeonChance::Optional,
            entry: EntrySource::Dungeon,
            back_branches: false,
            ledger_limit: None,
            alternates: false,
            quest_locate: false,
            // 3.6.2 and later (`NonPositiveRn2::OneDrawRaw`): src/rnd.c:
            // 59-63, :104-113.
            rn2_nonpositive: NonPositiveRn2::OneDrawRaw,
            range_panic: RangePanic::One,
            inputs: GameInputs::NONE,
            report_inputs: false,
            report_display: false,
        }
    }

    /// NetHack 3.7's `init_dungeons()` (src/dungeon.c at 79c688cc6): 3.6's
    /// algorithm read from `dungeon.lua`, with the differences above. The
    /// limits are 3.6's (include/global.h:406-407, include/dgn_file.h:
    /// 72-73); the Tutorial joins the dungeons looked up by name
    /// (src/dungeon.c:1167-1171).
    pub const fn nethack_37() -> Rules {
        Rules {
            fields: Fields::NetHack37,
            required_dungeons: &[
                "The Quest",
                "Sokoban",
                "The Gnomish Mines",
                "Vlad's Tower",
                "The Tutorial",
            ],
            lua_shuffle: 3,
            chain_by_name: true,
            unconnected: true,
            limits_on_read: true,
            alignments: Alignments::NetHack37,
            // `impossible()` and 0, no draw (src/rnd.c:97-101, in a
            // `NH_STATUS_WIP` build, include/patchlevel.h:33).
            rn2_nonpositive: NonPositiveRn2::NoDraw,
            ..Rules::nethack_36()
        }
    }

    /// dgnkit's own target: 3.6's algorithm without the game's fixed tables,
    /// byte-sized fields or hard-wired dungeon names.
    pub const fn native() -> Rules {
        Rules {
            fields: Fields::Wide,
            required_dungeons: &[],
            limits: None,
            ..Rules::nethack_36()
        }
    }
}

/// Draws a placement search may take before the loader gives up on it.
pub const DEFAULT_PLACEMENT_BUDGET: u64 = 2_000_000;

/// A dungeon record, precomputed.
#[derive(Clone, Debug)]
pub struct DRec {
    pub name: String,
    pub proto: String,
    pub bones: String,
    pub size: Range,
    pub flags: u32,
    pub chance: i32,
    pub entry: i32,
    /// NetHack 3.7's `unconnected` flag.
    pub unconnected: bool,
    /// SpliceHack's `nofood` flag (the same bit, without the depth rule).
    pub nofood: bool,
    /// GnollHack's TILESET value, when the dungeon has one.
    pub tileset: Option<i32>,
    /// dNetHack's `tmpdungeon.alternates`: how many other records share
    /// the name.
    pub alternates: i32,
    /// The name as `select_alternate` compares it (first 20 bytes).
    pub alt_key: Vec<u8>,
    /// Named exactly "The Quest" / "Chaos Quest" (the names dNetHack's
    /// loader compares with `strcmp`).
    pub is_quest: bool,
    pub is_chaos_quest: bool,
    /// Level records `levels.0 .. levels.1` (file-global indices).
    pub levels: (u32, u32),
    /// Branch records `branches.0 .. branches.1`.
    pub branches: (u32, u32),
    /// Branch records of earlier dungeons whose target is this dungeon's
    /// name, in file order, with their owner dungeon record.
    pub incoming: Vec<(u32, u32)>,
    /// Earlier dungeon records with exactly this name.
    pub same_name_before: Vec<u32>,
}

/// A level record, precomputed.
#[derive(Clone, Debug)]
pub struct LRec {
    pub name: String,
    pub bones: String,
    pub range: Range,
    pub chance: i32,
    pub chain: i32,
    pub flags: u32,
    pub rndlevs: i32,
    /// GnollHack's display name ("" when the record has none).
    pub display: String,
    pub dungeon: u32,
    /// Its index in `Rules::floating_levels` (case-insensitive, as
    /// `find_level` compares).
    pub floating: Option<u8>,
    pub is_dummy: bool,
    /// With [`Rules::chain_by_name`]: the earlier level records named like
    /// the chained-to one, in file order (the first that exists wins).
    pub chain_candidates: Vec<u32>,
    /// Named in `Rules::unlinked_levels`.
    pub unlinked: bool,
    /// Its part in the planes shuffle: 0 `head`, 1-4 `shuffled`, 5 `tail`.
    pub plane: Option<u8>,
}

/// A branch record, precomputed.
#[derive(Clone, Debug)]
pub struct BRec {
    /// The destination dungeon's name.
    pub target: String,
    pub range: Range,
    pub chain: i32,
    pub kind: BranchKind,
    pub up: bool,
    /// Its index among its dungeon's branches.
    pub nth: u32,
    /// With [`Rules::chain_by_name`]: the level records named like the
    /// chained-to one, in file order.
    pub chain_candidates: Vec<u32>,
    /// SLASH'EM's entry level (0 when not given).
    pub entry: i32,
    /// Earlier dungeon records named like the target: a branch back up
    /// when one of them exists (SLASH'EM).
    pub back_to: Vec<u32>,
}

/// A script prepared for resolving many seeds.
#[derive(Clone, Debug)]
pub struct Resolver {
    pub rules: Rules,
    pub dungeons: Vec<DRec>,
    pub levels: Vec<LRec>,
    pub branches: Vec<BRec>,
    /// Per name of `rules.required_dungeons`: the dungeon records so named.
    pub required: Vec<Vec<u32>>,
    pub placement_budget: u64,
    /// What the loader reads besides the file (role, options, ...).
    pub inputs: LoaderInputs,
    /// The game's draws before the loader (none unless set).
    pub start: GameStart,
    /// The generator [`GameStart::level_seed`] seeds, as seeded.
    level_generator: Option<Box<crate::rng::Isaac64>>,
    /// A `dungeon.lua` that draws: its draws and a resolver per outcome.
    pub prelude: Option<std::sync::Arc<PreludeResolvers>>,
}

/// The outcomes of a `dungeon.lua`'s draws ([`dgnkit_script::Prelude`]),
/// each prepared like the file's own script.
#[derive(Clone, Debug)]
pub struct PreludeResolvers {
    pub root: dgnkit_script::PreludeNode,
    pub outcomes: Vec<Resolver>,
    /// Each outcome's chance.
    pub chances: Vec<f64>,
}

impl PreludeResolvers {
    /// Makes the file's draws on `draw` and returns the outcome they lead
    /// to.
    pub fn choose<S: Source, T: Trace>(&self, draw: &mut Drawer<'_, S, T>) -> u32 {
        let mut node = &self.root;
        loop {
            match node {
                dgnkit_script::PreludeNode::Outcome(i) => return *i,
                dgnkit_script::PreludeNode::Draw { bound, line, arms } => {
                    let v = draw.rn2(
                        (*bound).max(1),
                        crate::rng::Site::LuaPrelude { line: *line },
                    );
                    match dgnkit_script::PreludeNode::arm(arms, v) {
                        Some(a) => node = &a.next,
                        None => return 0,
                    }
                }
            }
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn bones_text(b: u8) -> String {
    if b == 0 {
        String::new()
    } else {
        char::from(b).to_string()
    }
}

/// Level record `l` of dungeon record `di`, precomputed (its chain
/// candidates come later, from all the records).
fn level_record(rules: &Rules, l: &dgnkit_script::Level, di: u32) -> LRec {
    LRec {
        name: text(&l.name),
        bones: bones_text(l.bones),
        range: l.range,
        chance: l.chance,
        chain: l.chain,
        flags: l.flags,
        rndlevs: l.rndlevs,
        display: l.display.as_deref().map(text).unwrap_or_default(),
        dungeon: di,
        floating: rules
            .floating_levels
            .iter()
            .position(|n| l.name.eq_ignore_ascii_case(n.as_bytes()))
            .map(|i| i as u8),
        is_dummy: l.name.eq_ignore_ascii_case(b"dummy"),
        chain_candidates: Vec::new(),
        unlinked: rules.unlinked_levels.iter().any(|n| l.name == n.as_bytes()),
        plane: rules.planes.and_then(|p| {
            std::iter::once(p.head)
                .chain(p.shuffled)
                .chain(std::iter::once(p.tail))
                .position(|n| l.name.eq_ignore_ascii_case(n.as_bytes()))
                .map(|i| i as u8)
        }),
    }
}

/// Branch record `b`, the `nth` of dungeon record `di`, precomputed.
fn branch_record(script: &Script, di: u32, nth: usize, b: &dgnkit_script::Branch) -> BRec {
    let back_to = script.dungeons[..di as usize]
        .iter()
        .enumerate()
        .filter(|(_, e)| e.name == b.target)
        .map(|(j, _)| j as u32)
        .collect();
    BRec {
        target: text(&b.target),
        range: b.range,
        chain: b.chain,
        kind: branch_kind(b.branch_type, b.up),
        up: b.up,
        nth: nth as u32,
        chain_candidates: Vec::new(),
        entry: b.entry.unwrap_or(0),
        back_to,
    }
}

/// 3.7's chain lookup by name ([`Rules::chain_by_name`]): the earlier
/// records named like each chained-to one. Only the chained-to record's
/// name counts (strcmp: exact).
fn chain_candidates(levels: &mut [LRec], branches: &mut [BRec]) {
    fn named(levels: &[LRec], chain: i32, below: usize) -> Vec<u32> {
        let Some(target) = usize::try_from(chain).ok().and_then(|c| levels.get(c)) else {
            return Vec::new();
        };
        (0..below)
            .filter(|&j| levels[j].name == target.name)
            .map(|j| j as u32)
            .collect()
    }
    let level_candidates: Vec<Vec<u32>> = (0..levels.len())
        .map(|l| named(levels, levels[l].chain, l))
        .collect();
    for (l, c) in levels.iter_mut().zip(level_candidates) {
        l.chain_candidates = c;
    }
    let all = levels.len();
    let branch_candidates: Vec<Vec<u32>> = branches
        .iter()
        .map(|b| named(levels, b.chain, all))
        .collect();
    for (b, c) in branches.iter_mut().zip(branch_candidates) {
        b.chain_candidates = c;
    }
}

/// The type NetHack's loader gives a branch (`correct_branch_type`).
fn branch_kind(t: BranchType, up: bool) -> BranchKind {
    match t {
        BranchType::Stair => BranchKind::Stair,
        BranchType::NoUp if up => BranchKind::NoEnd1,
        BranchType::NoUp => BranchKind::NoEnd2,
        BranchType::NoDown if up => BranchKind::NoEnd2,
        BranchType::NoDown => BranchKind::NoEnd1,
        BranchType::Portal => BranchKind::Portal,
    }
}

impl Resolver {
    /// A resolver with NetHack 3.6's rules.
    pub fn new(script: &Script) -> Result<Resolver, LoadError> {
        Resolver::with_rules(script, Rules::nethack_36())
    }

    /// A resolver for `game` with the given inputs: refused
    /// ([`LoadError::NotReproduced`]) when dgnkit's loader is not proven on
    /// that game, and when the inputs are not what its loader reads
    /// ([`LoadError::Inputs`]).
    pub fn for_game(
        script: &Script,
        game: &LoaderGame,
        inputs: &LoaderInputs,
    ) -> Result<Resolver, LoadError> {
        game.check_loader()?;
        inputs.check(game)?;
        let mut r = Resolver::with_rules(script, game.rules_for(inputs))?;
        r.set_game_start(game.start_for(inputs)?);
        r.each_outcome(|o| o.inputs = inputs.clone());
        Ok(r)
    }

    pub fn with_rules(script: &Script, rules: Rules) -> Result<Resolver, LoadError> {
        let prelude = match &script.prelude {
            None => None,
            Some(p) => Some(std::sync::Arc::new(PreludeResolvers {
                root: p.root.clone(),
                outcomes: p
                    .outcomes
                    .iter()
                    .map(|o| Resolver::with_rules(o, rules.clone()))
                    .collect::<Result<_, _>>()?,
                chances: p.chances(),
            })),
        };
        if let Some(limits) = rules.limits {
            // Checked on the file's count before anything is drawn.
            if script.dungeons.len() >= limits.max_dungeons {
                return Err(LoadError::TooManyDungeons {
                    count: script.dungeons.len(),
                    max: limits.max_dungeons,
                });
            }
        }
        let mut dungeons = Vec::with_capacity(script.dungeons.len());
        let mut levels = Vec::with_capacity(script.level_count());
        let mut branches = Vec::with_capacity(script.branch_count());
        // (target name, branch record, owner record) of every branch so far.
        let mut targets: Vec<(&[u8], u32, u32)> = Vec::new();
        for (di, d) in script.dungeons.iter().enumerate() {
            let di = di as u32;
            let incoming = targets
                .iter()
                .filter(|(t, _, _)| *t == d.name.as_slice())
                .map(|&(_, b, owner)| (b, owner))
                .collect();
            let same_name_before = script.dungeons[..di as usize]
                .iter()
                .enumerate()
                .filter(|(_, e)| e.name == d.name)
                .map(|(j, _)| j as u32)
                .collect();
            let level_start = levels.len() as u32;
            levels.extend(d.levels.iter().map(|l| level_record(&rules, l, di)));
            let branch_start = branches.len() as u32;
            for (nth, b) in d.branches.iter().enumerate() {
                targets.push((b.target.as_slice(), branches.len() as u32, di));
                branches.push(branch_record(script, di, nth, b));
            }
            if !rules.unconnected && d.lua.unconnected {
                return Err(LoadError::Unsupported {
                    dungeon: text(&d.name),
                    feature: "the `unconnected` flag",
                });
            }
            let namesakes = script.dungeons.iter().filter(|e| e.name == d.name).count();
            let alt_name = d.name.split(|&c| c == 0).next().unwrap_or_default();
            dungeons.push(DRec {
                // dgn_comp's check_dungeon (dNAO dgn_comp.y:519-523) gives each of
                // k namesakes k - 1.
                alternates: namesakes as i32 - 1,
                alt_key: alt_name[..alt_name.len().min(20)].to_vec(),
                is_quest: d.name == b"The Quest",
                is_chaos_quest: d.name == b"Chaos Quest",
                name: text(&d.name),
                proto: text(&d.proto),
                bones: bones_text(d.bones),
                size: d.size,
                flags: d.flags,
                chance: d.chance,
                entry: d.entry,
                unconnected: d.lua.unconnected,
                nofood: d.lua.nofood,
                tileset: d.tileset,
                levels: (level_start, levels.len() as u32),
                branches: (branch_start, branches.len() as u32),
                incoming,
                same_name_before,
            });
        }
        if rules.chain_by_name {
            chain_candidates(&mut levels, &mut branches);
        }
        let required = rules
            .required_dungeons
            .iter()
            .map(|name| {
                (0..dungeons.len() as u32)
                    .filter(|&r| dungeons[r as usize].name == *name)
                    .collect()
            })
            .collect();
        Ok(Resolver {
            rules,
            dungeons,
            levels,
            branches,
            required,
            placement_budget: DEFAULT_PLACEMENT_BUDGET,
            inputs: LoaderInputs::default(),
            start: GameStart::NONE,
            level_generator: None,
            prelude,
        })
    }

    /// The resolver of outcome `i` of the file's draws (`Resolved::outcome`
    /// says which a layout took); this one for a file that draws nothing.
    pub fn outcome(&self, i: u32) -> &Resolver {
        self.prelude
            .as_ref()
            .and_then(|p| p.outcomes.get(i as usize))
            .unwrap_or(self)
    }

    /// Applies `f` to this resolver and to every outcome's.
    fn each_outcome(&mut self, f: impl Fn(&mut Resolver)) {
        f(self);
        if let Some(p) = &mut self.prelude {
            for o in &mut std::sync::Arc::make_mut(p).outcomes {
                f(o);
            }
        }
    }

    /// The layout's `loader_inputs`, for a game whose layouts report them.
    pub fn layout_inputs(&self) -> Option<dgnkit_script::layout::LayoutInputs> {
        let i = &self.rules.inputs;
        self.rules
            .report_inputs
            .then(|| dgnkit_script::layout::LayoutInputs {
                role: self.inputs.role.map(|r| r.code.to_string()),
                race: self.inputs.race.map(|r| r.code.to_string()),
                quest_nemesis_blibdoolpoolp: i.quest_nemesis_blibdoolpoolp,
                chaosvar: i.chaosvar,
                is_june: i.is_june,
                filecode: "x".to_string(),
            })
    }

    /// Sets the draws the game makes before the loader (a game's start-up
    /// for a role: `Game::game_start`); every resolution makes them first.
    pub fn set_game_start(&mut self, start: GameStart) {
        self.start = start;
        // The level generator starts the same for every seed: seeded once
        // here, copied for each resolution.
        self.level_generator = start
            .level_seed
            .map(|s| Box::new(crate::rng::Isaac64::new(s)));
    }

    pub fn game_start(&self) -> GameStart {
        self.start
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the loader's last steps (after the tune) move or drop
    /// special levels, so that where they lie is known only at the end.
    /// (`dgn find` stops a resolution once its answer is known and relies
    /// on this: a new step that moves levels must be listed here.)
    pub fn finish_moves_levels(&self) -> bool {
        !self.rules.unlinked_levels.is_empty() || self.rules.planes.is_some()
    }

    /// The inputs this resolver was made with ([`Resolver::for_game`]).
    pub fn inputs(&self) -> &LoaderInputs {
        &self.inputs
    }

    /// Whether wizard mode skips the chance rolls of dungeons and of
    /// levels, under these rules.
    pub fn skips_chances(&self, wizard: bool) -> (bool, bool) {
        (
            wizard && self.rules.wizard_skips_dungeon_chance,
            wizard && self.rules.wizard_skips_level_chance,
        )
    }

    /// Caps the draws one dungeon's placement search may take (default
    /// [`DEFAULT_PLACEMENT_BUDGET`]); past it the resolution fails with
    /// [`LoadError::CouldntPlace`] or [`LoadError::PlacementTooCostly`].
    pub fn set_placement_budget(&mut self, draws: u64) {
        self.each_outcome(|o| o.placement_budget = draws);
    }

    /// Resolves one seed into a [`Layout`]; `trace` adds `rng_calls`.
    pub fn resolve(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        trace: bool,
    ) -> Result<Layout, LoadError> {
        let mut out = Resolved::default();
        if trace {
            let mut log = Vec::new();
            self.resolve_traced(seed, rng, wizard, &mut out, &mut log)?;
            Ok(out.to_layout(self, Some(crate::rng::rng_calls(&log))))
        } else {
            self.resolve_into(seed, rng, wizard, &mut out)?;
            Ok(out.to_layout(self, None))
        }
    }

    /// Resolves one seed into `out`, reusing its buffers: no allocation once
    /// `out` has held a layout of this script.
    pub fn resolve_into(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        self.resolve_logged(seed, rng, wizard, out, &mut NoTrace)
    }

    /// Resolves every seed of `seeds` in order into `out`, handing each
    /// result to `each` (which may stop the run with
    /// [`ControlFlow::Break`]). The same layouts as [`Resolver::resolve_into`]
    /// seed by seed, faster: ISAAC-64 generators are seeded
    /// [`SEED_BATCH`] at a time, side by side ([`Isaac64::reseed_many`]).
    pub fn resolve_seeds(
        &self,
        seeds: impl IntoIterator<Item = u64>,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        mut each: impl FnMut(u64, Result<(), LoadError>, &Resolved) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.resolve_seeds_with(seeds, rng, wizard, out, &mut NoTrace, |s, r, out, _| {
            each(s, r, out)
        })
    }

    /// As [`Resolver::resolve_seeds`], every seed watched by `trace`, which
    /// may stop a seed's resolution at a [`Checkpoint`] (then `each` gets
    /// `Ok` and the layout as far as it went) and is handed to `each`.
    pub fn resolve_seeds_with<T: Trace>(
        &self,
        seeds: impl IntoIterator<Item = u64>,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        trace: &mut T,
        mut each: impl FnMut(u64, Result<(), LoadError>, &Resolved, &mut T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match rng {
            RngKind::Glibc | RngKind::Isaac32 | RngKind::Mt19937Cokus => {
                for seed in seeds {
                    let result = self.resolve_logged(seed, rng, wizard, out, trace);
                    each(seed, result, out, trace)?;
                }
                ControlFlow::Continue(())
            }
            RngKind::Isaac64 => {
                let mut gens = out.take_batch();
                let flow =
                    self.resolve_batches(seeds.into_iter(), wizard, &mut gens, out, trace, each);
                out.put_batch(gens);
                flow
            }
        }
    }

    fn resolve_one<S: Source, T: Trace>(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        source: &mut S,
        trace: &mut T,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        out.seed = seed;
        out.rng = rng;
        self.resolve_with(source, trace, wizard, out)
    }

    fn resolve_batches<T: Trace>(
        &self,
        mut seeds: impl Iterator<Item = u64>,
        wizard: bool,
        gens: &mut [Isaac64; SEED_BATCH],
        out: &mut Resolved,
        trace: &mut T,
        mut each: impl FnMut(u64, Result<(), LoadError>, &Resolved, &mut T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        loop {
            let mut batch = [0u64; SEED_BATCH];
            // `zip` asks the seeds only while the batch has room.
            let n = batch
                .iter_mut()
                .zip(&mut seeds)
                .map(|(slot, seed)| *slot = seed)
                .count();
            let batch = &batch[..n];
            match batch.try_into() {
                Ok(full) => Isaac64::reseed_many(gens, full),
                Err(_) => gens.iter_mut().zip(batch).for_each(|(g, &s)| g.reseed(s)),
            }
            for (g, &seed) in gens.iter_mut().zip(batch) {
                let result = self.resolve_one(seed, RngKind::Isaac64, wizard, g, trace, out);
                each(seed, result, out, trace)?;
            }
            if n < SEED_BATCH {
                return ControlFlow::Continue(());
            }
        }
    }

    /// As [`Resolver::resolve_into`], showing every draw to `log` (also
    /// the draws made before an error): a `Vec<Draw>` keeps them.
    pub fn resolve_traced<T: Trace>(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        log: &mut T,
    ) -> Result<(), LoadError> {
        self.resolve_logged(seed, rng, wizard, out, log)
    }

    fn resolve_logged<T: Trace>(
        &self,
        seed: u64,
        rng: RngKind,
        wizard: bool,
        out: &mut Resolved,
        trace: &mut T,
    ) -> Result<(), LoadError> {
        match rng {
            RngKind::Glibc => {
                self.resolve_one(seed, rng, wizard, &mut Glibc::new(seed), trace, out)
            }
            // Seeding either costs a few microseconds, as the layout does;
            // a fresh generator on the stack is as fast as a kept one.
            RngKind::Isaac32 => {
                self.resolve_one(seed, rng, wizard, &mut Isaac32::new(seed), trace, out)
            }
            RngKind::Mt19937Cokus => {
                let g = &mut Mt19937Cokus::new(seed);
                self.resolve_one(seed, rng, wizard, g, trace, out)
            }
            RngKind::Isaac64 => {
                let mut g = out.take_isaac(seed);
                let r = self.resolve_one(seed, rng, wizard, &mut *g, trace, out);
                out.put_isaac(g);
                r
            }
        }
    }

    /// The generic entry: any generator, any log. `out.seed`/`rng` are left
    /// as the caller set them.
    pub fn resolve_with<S: Source, T: Trace>(
        &self,
        source: &mut S,
        trace: &mut T,
        wizard: bool,
        out: &mut Resolved,
    ) -> Result<(), LoadError> {
        out.wizard = wizard;
        resolve::run(self, source, trace, wizard, out)
    }

    /// Names a draw's site for a log or a mismatch report.
    pub fn describe_site(&self, site: crate::rng::Site) -> String {
        use crate::rng::Site;
        let dname = |i: u32| {
            self.dungeons
                .get(i as usize)
                .map_or("?", |d| d.name.as_str())
                .to_string()
        };
        let lname = |i: u32| {
            self.levels
                .get(i as usize)
                .map_or("?", |l| l.name.as_str())
                .to_string()
        };
        match site {
            Site::DungeonChance { dungeon } => format!("chance of dungeon \"{}\"", dname(dungeon)),
            Site::DungeonSize { dungeon } => format!("size of \"{}\"", dname(dungeon)),
            Site::BranchLevel { dungeon } => {
                format!("level of the branch to \"{}\"", dname(dungeon))
            }
            Site::LevelChance { level } => format!("chance of level \"{}\"", lname(level)),
            Site::Alternate { dungeon } => {
                format!("alternate selection of dungeon \"{}\"", dname(dungeon))
            }
            Site::QuestLocate { dungeon } => {
                format!("locate level of \"{}\"", dname(dungeon))
            }
            Site::Place { level } => format!("placing \"{}\"", lname(level)),
            Site::Tune => "castle tune".to_string(),
            Site::LuaShuffle => "nhlib.lua's shuffle(align)".to_string(),
            Site::Character => {
                "the hero's role, race, gender or alignment (character selection)".to_string()
            }
            Site::ObjectInit => "object descriptions (o_init)".to_string(),
            Site::QuestGender => "a quest monster's gender (role_init)".to_string(),
            Site::Pantheon => "the borrowed pantheon (role_init, randrole)".to_string(),
            Site::Planes => "Elemental Planes shuffle".to_string(),
            Site::RogueVictim => "the Rogue's victim role (role_init)".to_string(),
            Site::LuaPrelude { line } => format!("dungeon.lua:{line}"),
            Site::AfterLoader => "the game's draws after init_dungeons()".to_string(),
        }
    }

    /// A copy whose chains are plain record indices, for code that follows
    /// 3.6's index rule (the exact statistics). With
    /// [`Rules::chain_by_name`], a chain's slot depends on which dungeons
    /// exist; when every dungeon up to the last chained record always
    /// exists, it is fixed and the copy holds it. `None`: the rules keep
    /// the file's indices already; `Err`: why no fixed index exists.
    pub fn with_fixed_chains(&self, wizard: bool) -> Option<Result<Resolver, String>> {
        if !self.rules.chain_by_name {
            return None;
        }
        let chained = |d: &DRec| {
            (d.levels.0..d.levels.1).any(|l| self.levels[l as usize].chain >= 0)
                || (d.branches.0..d.branches.1).any(|b| self.branches[b as usize].chain >= 0)
        };
        let Some(last) = self.dungeons.iter().rposition(chained) else {
            return Some(Ok(self.clone()));
        };
        if let Some(d) = self.dungeons[..=last]
            .iter()
            .find(|d| !(wizard || d.chance == 0 || d.chance >= 100))
        {
            return Some(Err(format!(
                "\"{}\" may not exist, and NetHack 3.7 looks later chains up by name among the dungeons that do",
                d.name
            )));
        }
        let mut fixed = self.clone();
        for (l, level) in fixed.levels.iter_mut().enumerate() {
            if level.chain >= 0 {
                let Some(&j) = level.chain_candidates.first() else {
                    return Some(Err(format!(
                        "level \"{}\": its chain is never found",
                        level.name
                    )));
                };
                debug_assert!((j as usize) < l);
                level.chain = j as i32;
            }
        }
        for d in &self.dungeons {
            for b in d.branches.0..d.branches.1 {
                let br = &mut fixed.branches[b as usize];
                if br.chain < 0 {
                    continue;
                }
                // Every record before is read: slots are file indices.
                let bound = i64::from(d.levels.1) + i64::from(br.nth) - 1;
                match br.chain_candidates.first() {
                    Some(&j) if i64::from(j) < bound => br.chain = j as i32,
                    _ => {
                        return Some(Err(format!(
                            "the branch to \"{}\": its chain is never found",
                            br.target
                        )))
                    }
                }
            }
        }
        Some(Ok(fixed))
    }

    /// The level's alignment as the layout reports it: its own, else its
    /// dungeon's (`layout-json.md`; 3.6's `init_level` stores it so, and
    /// the layouts of the 3.4.3 loader report it so too).
    pub fn level_align(&self, level: &LRec) -> u32 {
        let align = |f: u32| (f & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT;
        let dungeon = self.dungeons.get(level.dungeon as usize);
        match self.rules.alignments {
            Alignments::Inherit => match align(level.flags) {
                0 => dungeon.map_or(0, |d| align(d.flags)),
                own => own,
            },
            // A level's own `unconnected` is already in its alignment
            // bits (the reader ORs 0x10 in, as 3.7 does).
            Alignments::NetHack37 => match align(level.flags) {
                0 => dungeon.map_or(0, |d| {
                    u32::from(d.unconnected || d.nofood) * flags::ALIGN_CHAOTIC
                }),
                own => own,
            },
        }
    }

    /// The dungeon's alignment as the game stores it.
    pub fn dungeon_align(&self, dungeon: &DRec) -> u32 {
        match self.rules.alignments {
            Alignments::Inherit => (dungeon.flags & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT,
            Alignments::NetHack37 => 0,
        }
    }
}

/// A reusable ISAAC-64 state: 4 KiB that a [`Resolved`] keeps between seeds.
pub type IsaacBox = Box<Isaac64>;

/// How many ISAAC-64 generators [`Resolver::resolve_seeds`] seeds at once:
/// four chains side by side keep a core busy (measured: two are slower,
/// eight no faster).
pub const SEED_BATCH: usize = 4;

/// The generators of a batch, kept by a [`Resolved`] between runs.
pub type IsaacBatch = Box<[Isaac64; SEED_BATCH]>;

#[cfg(test)]
mod tests;
