//! NetHack 3.6 (3.6.2 and later): ISAAC-64, a 40-byte version header, an
//! ENTRY beyond the bottom lowered to it, `#wizwhere`'s overview. With
//! `--game-start`, a new game's draws before `init_dungeons()`
//! (`newgame()`, src/allmain.c:550-557 in 3.6.7): the hero's selection,
//! `o_init`'s shuffles, then `role_init`'s draws.

use super::{Game, InputSpec, LoaderInputs, LoaderProof};
use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::chargen::{
    Characters, RaceRow, RoleRow, CHAOTIC, DWARF, ELF, FEMALE, GNOME, HUMAN, LAWFUL, MALE, NEUTRAL,
    ORC,
};
use crate::loader::{CharacterStart, GameOption, GameStart, LoadError, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

pub(crate) static GAME: Game = RECORD;

/// The record, for the games that are NetHack 3.6 seeded otherwise (NLE).
pub(super) const RECORD: Game = Game {
    target: Target::NetHack36,
    title: "NetHack 3.6",
    dialect: Dialect::Vanilla,
    binary: Some(BinaryFormat::NetHack36),
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::Proven(
        "layout_parity: every file of expected/layouts/*.36.isaac64*, draw for draw",
    ),
    inputs: INPUTS,
    undefined_flags: &[],
    reads_lua: false,
    xlog: Some(&crate::xlog::nethack::NETHACK),
    path_words: &[],
    rng_log: None,
};

/// What a 3.6 game start reads: the character (any facet unset is chosen
/// at random, as `nethack -@` does).
pub(super) const INPUTS: InputSpec = InputSpec {
    role: None,
    race: None,
    roles: &[],
    options: &[NAME],
    game_start: Some(false),
    rules_hook: None,
    start_hook: Some(game_start),
    character: Some(&CHARACTERS),
};

/// The player's name (`OPTIONS=name:`), whose suffix can choose the hero.
pub(super) const NAME: GameOption = GameOption {
    name: "name",
    values: &["", GameOption::TEXT],
    doc: "the player's name (OPTIONS=name:); a -Role-Race-Gender-Align suffix chooses the hero as NetHack's plnamesuffix() does, over --role and the others; wizard mode ignores it (the name becomes `wizard`)",
};

/// `o_init`'s draws (src/o_init.c in 3.6.2-3.6.7): the gem colours
/// (:145-151), one draw per object of each shuffled range (:87-92, no
/// shuffled object is known from the start, so the retry loop never
/// draws again) and the wand of nothing's direction (:183). 3.6's
/// `objects[]` gives 195 (3.7 added three shuffled objects: 198).
pub const OBJECT_DRAWS: u32 = 195;

const fn role(
    name: &'static str,
    female: Option<&'static str>,
    code: &'static str,
    allow: u16,
    gender_rolls: u32,
) -> RoleRow {
    RoleRow {
        code,
        name,
        female,
        allow,
        gender_rolls,
        godless: false,
    }
}

const BOTH: u16 = MALE | FEMALE;

/// 3.6.7's `roles[]` (src/role.c:27-586): each role's `allow` and what
/// `role_init` draws for it (src/role.c:2054-2100): one `rn2(100)` for a
/// quest leader or nemesis with no gender (the Archeologist's Minion of
/// Huhetotl, the Wizard's Dark One), and the Priest's borrowed pantheon.
const ROLES: [RoleRow; 13] = [
    role(
        "Archeologist",
        None,
        "Arc",
        HUMAN | DWARF | GNOME | BOTH | LAWFUL | NEUTRAL,
        1,
    ),
    role(
        "Barbarian",
        None,
        "Bar",
        HUMAN | ORC | BOTH | NEUTRAL | CHAOTIC,
        0,
    ),
    role(
        "Caveman",
        Some("Cavewoman"),
        "Cav",
        HUMAN | DWARF | GNOME | BOTH | LAWFUL | NEUTRAL,
        0,
    ),
    role("Healer", None, "Hea", HUMAN | GNOME | BOTH | NEUTRAL, 0),
    role("Knight", None, "Kni", HUMAN | BOTH | LAWFUL, 0),
    role(
        "Monk",
        None,
        "Mon",
        HUMAN | BOTH | LAWFUL | NEUTRAL | CHAOTIC,
        0,
    ),
    RoleRow {
        godless: true,
        ..role(
            "Priest",
            Some("Priestess"),
            "Pri",
            HUMAN | ELF | BOTH | LAWFUL | NEUTRAL | CHAOTIC,
            0,
        )
    },
    role("Rogue", None, "Rog", HUMAN | ORC | BOTH | CHAOTIC, 0),
    role(
        "Ranger",
        None,
        "Ran",
        HUMAN | ELF | GNOME | ORC | BOTH | NEUTRAL | CHAOTIC,
        0,
    ),
    role("Samurai", None, "Sam", HUMAN | BOTH | LAWFUL, 0),
    role("Tourist", None, "Tou", HUMAN | BOTH | NEUTRAL, 0),
    role(
        "Valkyrie",
        None,
        "Val",
        HUMAN | DWARF | FEMALE | LAWFUL | NEUTRAL,
        0,
    ),
    role(
        "Wizard",
        None,
        "Wiz",
        HUMAN | ELF | GNOME | ORC | BOTH | NEUTRAL | CHAOTIC,
        1,
    ),
];

/// 3.6.7's `races[]` (src/role.c:617-726).
const RACES: [RaceRow; 5] = [
    RaceRow {
        code: "Hum",
        noun: "human",
        adj: "human",
        allow: HUMAN | BOTH | LAWFUL | NEUTRAL | CHAOTIC,
    },
    RaceRow {
        code: "Elf",
        noun: "elf",
        adj: "elven",
        allow: ELF | BOTH | CHAOTIC,
    },
    RaceRow {
        code: "Dwa",
        noun: "dwarf",
        adj: "dwarven",
        allow: DWARF | BOTH | LAWFUL,
    },
    RaceRow {
        code: "Gno",
        noun: "gnome",
        adj: "gnomish",
        allow: GNOME | BOTH | NEUTRAL,
    },
    RaceRow {
        code: "Orc",
        noun: "orc",
        adj: "orcish",
        allow: ORC | BOTH | CHAOTIC,
    },
];

pub(super) static CHARACTERS: Characters = Characters {
    roles: &ROLES,
    races: &RACES,
    // `while (!roles[flags.pantheon].lgod)` has no bound (src/role.c:
    // 2098-2099); one in 13 draws is the Priest, so 10,000 in a row is
    // not a run any generator gives.
    pantheon_tries: 10_000,
};

/// The draws of a 3.6 game start for the run's character.
pub fn game_start(inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
    // As `nethack -@`: the facets not named are random.
    start_for(asked(inputs), crate::loader::chargen::Unset::RandomAll)
}

/// The hero the run asks for: the role, race, gender and alignment
/// options, then the name's suffix, which `plnamesuffix()` reads after
/// them (3.6.7 sys/unix/unixmain.c:249). In wizard mode `set_playmode()`
/// has made the name `wizard` first (src/options.c:6936), so no suffix is
/// read.
pub(super) fn asked(inputs: &LoaderInputs) -> crate::loader::chargen::CharacterAsk {
    match inputs.option(NAME.name) {
        Some(name) if !inputs.wizard => {
            inputs.character.clone().with_name_suffix(&CHARACTERS, name)
        }
        _ => inputs.character.clone(),
    }
}

/// A 3.6.7 game start for the character asked (the NLE's start too), the
/// facets no option names made as `unset` says.
pub(super) fn start_for(
    ask: crate::loader::chargen::CharacterAsk,
    unset: crate::loader::chargen::Unset,
) -> Result<GameStart, LoadError> {
    let wanted = CHARACTERS
        .wanted(&ask)
        .map(|w| crate::loader::chargen::Wanted { unset, ..w })
        .map_err(|message| LoadError::Inputs { message })?;
    Ok(GameStart {
        fixed: OBJECT_DRAWS,
        character: Some(CharacterStart {
            table: &CHARACTERS,
            wanted,
        }),
        ..GameStart::NONE
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::chargen::{Character, Pick, Wanted};
    use crate::loader::rng::{Drawer, NoTrace};

    fn opt(s: &str) -> Option<&str> {
        (!s.is_empty()).then_some(s)
    }

    fn inputs(role: &str, race: &str, gender: &str, align: &str) -> LoaderInputs {
        LoaderInputs::parse(opt(role), opt(race), &[], true, false)
            .unwrap()
            .with_character(opt(gender), opt(align))
    }

    fn wanted(role: &str, race: &str, gender: &str, align: &str) -> Result<Wanted, String> {
        CHARACTERS.wanted(&inputs(role, race, gender, align).character)
    }

    #[test]
    fn options_words_are_taken_as_nethack_takes_them() {
        // A name first, in roles[] order; `random` only when none begins so.
        let w = wanted("r", "", "", "").unwrap();
        assert_eq!(w.role, Pick::Given(7), "r is the Rogue");
        assert_eq!(wanted("ran", "", "", "").unwrap().role, Pick::Given(8));
        assert_eq!(wanted("rand", "", "", "").unwrap().role, Pick::Random);
        assert_eq!(wanted("@", "*", "", "").unwrap().race, Pick::Random);
        let w = wanted("priestess", "ELF", "fem", "Cha").unwrap();
        assert_eq!(
            (w.role, w.race, w.gender, w.align),
            (
                Pick::Given(6),
                Pick::Given(1),
                Pick::Given(1),
                Pick::Given(2)
            )
        );
        assert!(wanted("Val", "orc", "", "")
            .unwrap_err()
            .contains("no hero is orcish Valkyrie"));
        assert!(wanted("", "", "", "evil")
            .unwrap_err()
            .contains("unknown alignment"));
    }

    #[test]
    fn the_welcome_names_the_hero_as_the_game_does() {
        let c = |role, race, gender, align| Character {
            role,
            race,
            gender,
            align,
        };
        assert_eq!(
            CHARACTERS.describe(c(9, 0, 1, 0)),
            "lawful female human Samurai"
        );
        assert_eq!(
            CHARACTERS.describe(c(11, 2, 1, 0)),
            "lawful dwarven Valkyrie"
        );
        assert_eq!(
            CHARACTERS.describe(c(2, 3, 1, 1)),
            "neutral gnomish Cavewoman"
        );
        assert_eq!(CHARACTERS.describe(c(6, 1, 0, 2)), "chaotic elven Priest");
    }

    /// Every hero a random choice makes is one the game allows, and every
    /// facet given is kept.
    #[test]
    fn random_choices_are_always_valid_heroes() {
        let all = ["", "random"];
        for seed in 0..200u64 {
            for role in ["random", "Val", "Wiz"] {
                for facet in all {
                    let w = wanted(role, facet, facet, facet).unwrap();
                    let mut g = crate::rng::Isaac64::new(seed);
                    let mut draw = Drawer {
                        source: &mut g,
                        trace: &mut NoTrace,
                    };
                    let (c, made) = CHARACTERS.choose(w, &mut draw);
                    let r = &ROLES[c.role as usize];
                    let race = &RACES[c.race as usize];
                    let both = r.allow & race.allow;
                    assert!(both & (HUMAN | ELF | DWARF | GNOME | ORC) != 0);
                    assert!(both & [MALE, FEMALE][c.gender as usize] != 0);
                    assert!(both & [LAWFUL, NEUTRAL, CHAOTIC][c.align as usize] != 0);
                    if role != "random" {
                        assert_eq!(r.code, role);
                    }
                    // One draw per random facet (pick_* draw even among one).
                    assert_eq!(made, if role == "random" { 4 } else { 3 });
                }
            }
        }
    }

    #[test]
    fn the_start_draws_the_objects_then_the_role_s_draws() {
        let start = game_start(&inputs("Wiz", "elf", "male", "chaotic")).unwrap();
        assert_eq!(start.fixed, OBJECT_DRAWS);
        let c = Character {
            role: 12,
            race: 1,
            gender: 0,
            align: 2,
        };
        let s = start.for_character(Some(c));
        assert_eq!((s.gender_rolls, s.pantheon), (1, None));
        let p = start
            .for_character(Some(Character { role: 6, ..c }))
            .pantheon
            .unwrap();
        assert_eq!((p.roles, p.godless), (13, 1 << 6));
    }
}
