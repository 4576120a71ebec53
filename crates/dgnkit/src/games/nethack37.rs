//! NetHack 3.7 (the tree of commit 79c688cc6, src/dungeon.c revision
//! 1.228): the dungeon comes from `dungeon.lua`, read by the game itself
//! (no compiled file), and loaded by 3.6's algorithm with the differences
//! of [`Rules::nethack_37`]. A new game draws before the loader: the
//! object shuffles, then the role's draws ([`game_start`]), then the
//! loader's own Lua state runs `nhlib.lua` (two draws, part of the loader).

use super::rng_log::{bounds_of, count_of, Bounds, DrawRun, RngLog};
use super::{role_named, Game, InputSpec, LoaderInputs, LoaderProof};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::Victim;
use crate::loader::{GameStart, LoadError, Pantheon, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// The role when `--role` is not given.
pub const DEFAULT_ROLE: &str = "Valkyrie";

pub(crate) static GAME: Game = vanilla(
    Target::NetHack37,
    "NetHack 3.7",
    LoaderProof::Proven(
        "nethack37_parity: every game start of expected/nethack37/init_dungeons.jsonl, draw for draw, with the draws before the loader",
    ),
    game_start,
    Some(&RNG_LOG),
);

/// A game of the vanilla 3.7 line (3.7 itself, 5.0.0): 3.7's loader, bones
/// and overview, 3.7's `roles[]`, and the line's own start (its object
/// shuffles' count) in `start_hook`. Its xlogfile lines are NetHack's.
pub(super) const fn vanilla(
    target: Target,
    title: &'static str,
    loader: LoaderProof,
    start_hook: fn(&LoaderInputs) -> Result<GameStart, LoadError>,
    rng_log: Option<&'static RngLog>,
) -> Game {
    Game {
        target,
        title,
        dialect: Dialect::Vanilla,
        binary: None,
        rng: RngKind::Isaac64,
        rules: Rules::nethack_37(),
        // can_make_bones() and no_bones_level() are 3.6's (src/bones.c:18-34,
        // 356-385); what changed is data (`minend` lost its bonetag, the
        // Tutorial has none).
        bones: BonesRules::VANILLA,
        // print_dungeon() prints as 3.6's (src/dungeon.c:2257-2438).
        overview: OverviewStyle::NetHack36,
        loader,
        inputs: InputSpec {
            role: Some(DEFAULT_ROLE),
            race: None,
            roles: &ROLE_CODES,
            options: &[],
            game_start: Some(true),
            rules_hook: None,
            start_hook: Some(start_hook),
            character: None,
        },
        undefined_flags: &[],
        reads_lua: true,
        xlog: Some(&crate::xlog::nethack::NETHACK),
        path_words: &[],
        rng_log,
    }
}

/// `o_init`'s draws (src/o_init.c): the gem colours (:88-94), one draw per
/// object of each shuffled range (:124-129) and the wand of nothing's
/// direction (:233). No shuffled range holds an object known from the
/// start, so the retry loop of :127-129 never draws again and the number
/// is fixed: 198 in every recorded game start.
pub const OBJECT_DRAWS: u32 = count_of(&OBJECT_INIT);

/// [`OBJECT_DRAWS`] with their bounds, as the game's log names them: the
/// gem colours (`randomize_gem_colors`, src/o_init.c:88, :91, :94), then
/// `shuffle_all` (:321-345) shuffles each class (amulets, potions, rings,
/// scrolls, spellbooks, wands, venom) and each armour range (helmets,
/// gloves, cloaks, boots): `shuffle` draws `rn2(o_high - j + 1)` for every
/// `j` of the range (:128), down to `rn2(1)`; last the wand of nothing's
/// direction (`init_objects`, :233). The ranges' sizes are those of every
/// session the 3.7 tree logged (`../shared/expected/menace-sessions`).
const OBJECT_INIT: [DrawRun; 15] = {
    const fn gem(caller: &'static str, bound: u32) -> DrawRun {
        DrawRun {
            caller,
            bounds: Bounds::Same { bound, count: 1 },
        }
    }
    const fn range(n: u32) -> DrawRun {
        DrawRun {
            caller: "shuffle(o_init.c:128)",
            bounds: Bounds::Countdown(n),
        }
    }
    [
        gem("randomize_gem_colors(o_init.c:88)", 2),
        gem("randomize_gem_colors(o_init.c:91)", 2),
        gem("randomize_gem_colors(o_init.c:94)", 4),
        range(11),
        range(25),
        range(28),
        range(41),
        range(41),
        range(27),
        range(2),
        range(4),
        range(4),
        range(4),
        range(7),
        gem("init_objects(o_init.c:233)", 2),
    ]
};

const OBJECT_BOUNDS: [u32; OBJECT_DRAWS as usize] = bounds_of(&OBJECT_INIT);

/// NetHack 3.7's RNG log as the tree of commit 79c688cc6 writes it (the
/// Mazes of Menace sessions, `../shared/expected/menace-sessions`), every
/// line checked against that tree's source (src/dungeon.c revision 1.228;
/// the NetHack-3.7 branch of 2024, revision 1.222, has each of these
/// draws three lines further down).
pub(crate) static RNG_LOG: RngLog = RngLog {
    trees: &["79c688cc6"],
    object_init: &OBJECT_INIT,
    // Only nemeses lack a gender in 3.7's `roles[]`: src/role.c:2057-2060.
    quest_gender: Some("role_init(role.c:2060)"),
    // `randrole(FALSE)`, src/role.c:726.
    pantheon: Some("randrole(role.c:726)"),
    rogue_victim: None,
    // nhlib.lua:19 calls math.random, whose rn2 is at nhlib.lua:8.
    lua_shuffle: Some("random src=nhlib.lua:8 parent=shuffle(nhlib.lua:19)"),
    dungeon_chance: Some("init_dungeon_dungeons(dungeon.c:1022)"),
    // `rn1(dgn_range, dgn_base)`, logged as its rn2.
    dungeon_size: Some("init_dungeon_dungeons(dungeon.c:1074)"),
    branch_level: Some("parent_dlevel(dungeon.c:426)"),
    level_chance: Some("init_level(dungeon.c:572)"),
    place: Some("place_level(dungeon.c:687)"),
    tune: Some("init_castle_tune(dungeon.c:1116)"),
    planes: None,
    after_loader: None,
};

/// What `role_init` draws for one role of a 3.7-family game.
#[derive(Clone, Copy, Debug)]
pub(super) struct RoleStart {
    pub code: &'static str,
    /// Quest leader and nemesis without a gender flag (none of M2_MALE,
    /// M2_FEMALE, M2_NEUTER): one `rn2(100)` each (3.7 src/role.c:2034-2039
    /// leader, 2057-2060 nemesis).
    pub gender_rolls: u32,
    /// No gods of its own (`lgod` 0): the Priest, in every 3.7 game.
    pub godless: bool,
}

pub(super) const fn role(code: &'static str, gender_rolls: u32, godless: bool) -> RoleStart {
    RoleStart {
        code,
        gender_rolls,
        godless,
    }
}

/// A 3.7-family game's draws before (and right after) `init_dungeons()`,
/// as data: its object shuffles, its `roles[]` in order, and its extras.
pub(super) struct Start37 {
    pub title: &'static str,
    pub object_draws: u32,
    /// The bounds of those draws where dgnkit knows them (else empty: the
    /// log shows them as `rn2(1)`).
    pub object_bounds: &'static [u32],
    /// In `roles[]` order: `randrole(FALSE)` is `rn2` of their number.
    pub roles: &'static [RoleStart],
    /// The role whose start draws a victim, with the victim's data.
    pub victim: Option<(&'static str, Victim)>,
    pub after_shuffle: u32,
}

impl Start37 {
    /// The codes of the game's roles, for `InputSpec::roles`.
    pub const fn codes<const N: usize>(roles: &[RoleStart; N]) -> [&'static str; N] {
        let mut out = [""; N];
        let mut i = 0;
        while i < N {
            out[i] = roles[i].code;
            i += 1;
        }
        out
    }

    /// The draws a new game makes for the run's role (race, gender and
    /// alignment as chosen, so `role_init` draws none for them).
    pub fn for_inputs(&self, inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
        let role = inputs
            .role
            .or_else(|| role_named(DEFAULT_ROLE))
            .ok_or_else(|| LoadError::Inputs {
                message: format!("no role named {DEFAULT_ROLE}"),
            })?;
        let Some(start) = self.roles.iter().find(|r| r.code == role.code) else {
            return Err(LoadError::Inputs {
                message: format!(
                    "{} has no role {} (its roles: {})",
                    self.title,
                    role.name,
                    self.roles
                        .iter()
                        .filter_map(|r| role_named(r.code))
                        .map(|r| format!("{} ({})", r.name, r.code))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        };
        let godless = self
            .roles
            .iter()
            .enumerate()
            .filter(|(_, r)| r.godless)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Ok(GameStart {
            fixed: self.object_draws,
            fixed_bounds: self.object_bounds,
            victim: self
                .victim
                .filter(|(code, _)| *code == start.code)
                .map(|(_, v)| v),
            gender_rolls: start.gender_rolls,
            // `randrole(FALSE)` is rn2(SIZE(roles) - 1) (3.7
            // src/role.c:719-727); `++trycnt < 100` allows 99 draws
            // (src/role.c:2068-2069).
            pantheon: start.godless.then_some(Pantheon {
                roles: self.roles.len() as u32,
                godless,
                tries: 99,
            }),
            after_shuffle: self.after_shuffle,
            ..GameStart::NONE
        })
    }
}

/// In `roles[]` order (src/role.c:31-533). The Archeologist's nemesis
/// (the Minion of Huhetotl) and the Wizard's (the Dark One) have no gender.
pub(super) const ROLE_STARTS: [RoleStart; 13] = [
    role("Arc", 1, false),
    role("Bar", 0, false),
    role("Cav", 0, false),
    role("Hea", 0, false),
    role("Kni", 0, false),
    role("Mon", 0, false),
    role("Pri", 0, true),
    role("Rog", 0, false),
    role("Ran", 0, false),
    role("Sam", 0, false),
    role("Tou", 0, false),
    role("Val", 0, false),
    role("Wiz", 1, false),
];

/// `roles[]` (src/role.c:31-533), for `InputSpec::roles`.
const ROLE_CODES: [&str; 13] = Start37::codes(&ROLE_STARTS);

pub(super) const START: Start37 = Start37 {
    title: "NetHack 3.7",
    object_draws: OBJECT_DRAWS,
    object_bounds: &OBJECT_BOUNDS,
    roles: &ROLE_STARTS,
    victim: None,
    after_shuffle: 0,
};

/// The draws a new game makes before `init_dungeons()` for the run's role.
pub fn game_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    START.for_inputs(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ROLES;

    fn start_of(role: &str) -> GameStart {
        let inputs = LoaderInputs {
            role: role_named(role),
            ..LoaderInputs::default()
        };
        game_start(&inputs).unwrap()
    }

    #[test]
    fn roles_draw_for_ungendered_nemeses_and_a_borrowed_pantheon() {
        for r in &ROLES[..13] {
            let s = start_of(r.code);
            assert_eq!(s.fixed, OBJECT_DRAWS);
            let gender = u32::from(matches!(r.code, "Arc" | "Wiz"));
            assert_eq!(s.gender_rolls, gender, "{}", r.name);
            assert_eq!(s.pantheon.is_some(), r.code == "Pri", "{}", r.name);
        }
        let p = start_of("Priestess").pantheon.unwrap();
        assert_eq!((p.roles, p.godless, p.tries), (13, 1 << 6, 99));
        // The default role is the Valkyrie's start.
        assert_eq!(
            game_start(&LoaderInputs::default()).unwrap(),
            start_of("Val")
        );
    }

    #[test]
    fn the_object_draws_are_the_recorded_198_with_their_bounds() {
        assert_eq!(OBJECT_DRAWS, 198);
        let s = start_of("Val");
        assert_eq!(s.fixed_bounds.len(), 198);
        assert_eq!(&s.fixed_bounds[..5], &[2, 2, 4, 11, 10]);
        assert_eq!(s.fixed_bounds[197], 2);
        // Every run ends a shuffle on rn2(1): eleven ranges.
        assert_eq!(s.fixed_bounds.iter().filter(|&&b| b == 1).count(), 11);
        let log = &RNG_LOG;
        let caller = |i| log.caller(crate::rng::Site::ObjectInit, i);
        assert_eq!(caller(2), Some("randomize_gem_colors(o_init.c:94)"));
        assert_eq!(caller(3), Some("shuffle(o_init.c:128)"));
        assert_eq!(caller(196), Some("shuffle(o_init.c:128)"));
        assert_eq!(caller(197), Some("init_objects(o_init.c:233)"));
        assert_eq!(caller(198), None);
    }

    #[test]
    fn another_familys_role_is_refused() {
        let inputs = LoaderInputs {
            role: role_named("Convict"),
            ..LoaderInputs::default()
        };
        let e = game_start(&inputs).unwrap_err().to_string();
        assert!(e.contains("no role Convict"), "{e}");
    }
}
