//! NetHack 3.7 (the tree of commit 79c688cc6, src/dungeon.c revision
//! 1.228): the dungeon comes from `dungeon.lua`, read by the game itself
//! (no compiled file), and loaded by 3.6's algorithm with the differences
//! of [`Rules::nethack_37`]. A new game draws before the loader: the
//! object shuffles, then the role's draws ([`game_start`]), then the
//! loader's own Lua state runs `nhlib.lua` (two draws, part of the loader).

use super::{role_named, Game, InputSpec, LoaderInputs, LoaderProof, ROLES};
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::{GameStart, LoadError, Pantheon, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// The role when `--role` is not given.
pub const DEFAULT_ROLE: &str = "Valkyrie";

pub(super) static GAME: Game = Game {
    target: Target::NetHack37,
    title: "NetHack 3.7",
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
    loader: LoaderProof::Proven(
        "nethack37_parity: every game start of expected/nethack37/init_dungeons.jsonl, draw for draw, with the draws before the loader",
    ),
    inputs: InputSpec {
        role: Some(DEFAULT_ROLE),
        race: None,
        // `roles[]` (src/role.c:31-533).
        roles: &[
            "Arc", "Bar", "Cav", "Hea", "Kni", "Mon", "Pri", "Rog", "Ran", "Sam", "Tou", "Val",
            "Wiz",
        ],
        options: &[],
        game_start: Some(true),
        rules_hook: None,
        start_hook: Some(game_start),
    },
    undefined_flags: &[],
    reads_lua: true,
};

/// `o_init`'s draws (src/o_init.c): the gem colours (:88-94), one draw per
/// object of each shuffled range (:124-129) and the wand of nothing's
/// direction (:233). No shuffled range holds an object known from the
/// start, so the retry loop of :127-129 never draws again and the number
/// is fixed: 198 in every recorded game start.
pub const OBJECT_DRAWS: u32 = 198;

/// What `role_init` (src/role.c:1979-2082) draws for one role.
#[derive(Clone, Copy, Debug)]
struct RoleStart {
    /// Quest leader and nemesis without a gender flag (none of M2_MALE,
    /// M2_FEMALE, M2_NEUTER in include/monsters.h): one `rn2(100)` each
    /// (src/role.c:2034-2039 leader, 2057-2060 nemesis). Every leader has
    /// one; the Minion of Huhetotl (Archeologist) and the Dark One
    /// (Wizard) do not.
    gender_rolls: u32,
    /// No gods of its own (`lgod` 0, src/role.c:285): the Priest.
    godless: bool,
}

const fn start(gender_rolls: u32, godless: bool) -> RoleStart {
    RoleStart {
        gender_rolls,
        godless,
    }
}

/// In `roles[]` order (src/role.c:31-533), which is [`ROLES`]' first
/// thirteen: Archeologist, Barbarian, Caveman, Healer, Knight, Monk,
/// Priest, Rogue, Ranger, Samurai, Tourist, Valkyrie, Wizard.
const ROLE_STARTS: [RoleStart; 13] = [
    start(1, false),
    start(0, false),
    start(0, false),
    start(0, false),
    start(0, false),
    start(0, false),
    start(0, true),
    start(0, false),
    start(0, false),
    start(0, false),
    start(0, false),
    start(0, false),
    start(1, false),
];

/// The draws a new game makes before `init_dungeons()` for the run's role
/// (race, gender and alignment as chosen, so `role_init` draws none for
/// them).
pub fn game_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    let role = inputs
        .role
        .or_else(|| role_named(DEFAULT_ROLE))
        .ok_or_else(|| LoadError::Inputs {
            message: format!("no role named {DEFAULT_ROLE}"),
        })?;
    let index = ROLES[..ROLE_STARTS.len()]
        .iter()
        .position(|r| r == role)
        .ok_or_else(|| LoadError::Inputs {
            message: format!(
                "NetHack 3.7 has no role {} (its roles: {})",
                role.name,
                ROLES[..ROLE_STARTS.len()]
                    .iter()
                    .map(|r| format!("{} ({})", r.name, r.code))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
    let godless = ROLE_STARTS
        .iter()
        .enumerate()
        .filter(|(_, r)| r.godless)
        .fold(0u64, |m, (i, _)| m | 1 << i);
    let role = ROLE_STARTS[index];
    Ok(GameStart {
        fixed: OBJECT_DRAWS,
        gender_rolls: role.gender_rolls,
        // `randrole(FALSE)` is rn2(SIZE(roles) - 1), the thirteen roles
        // (src/role.c:719-727); `++trycnt < 100` allows 99 draws
        // (src/role.c:2068-2069).
        pantheon: role.godless.then_some(Pantheon {
            roles: ROLE_STARTS.len() as u32,
            godless,
            tries: 99,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn another_familys_role_is_refused() {
        let inputs = LoaderInputs {
            role: role_named("Convict"),
            ..LoaderInputs::default()
        };
        let e = game_start(&inputs).unwrap_err().to_string();
        assert!(e.contains("no role Convict"), "{e}");
    }
}
