//! The games dgnkit knows: NetHack 3.4.3, 3.6, 3.7, 5.0, dgnkit's native
//! target and each variant family. A game is data plus a few named hooks, in
//! one file per game; the one frontend, loader, statistics and bones code ask
//! the game's [`Game`] record instead of testing which game it is.
//!
//! This is the one place that assembles a game: each stage below defines
//! the record it needs ([`CheckGame`], [`BinaryFormat`],
//! [`LoaderGame`], [`BonesRules`], [`OverviewStyle`]) and never names a
//! [`Target`]; a [`Game`] holds one of each and hands them down.
//!
//! - the dialect its compiler accepts and the limits it checks
//!   ([`Game::dialect`]);
//! - the compiled file's layout ([`Game::binary`]);
//! - the generator and seeding ([`Game::rng`]);
//! - the loader's rules and hooks ([`Game::rules`], a
//!   [`Rules`](crate::loader::Rules));
//! - the bones rules ([`Game::bones`]) and the overview text
//!   ([`Game::overview`]);
//! - whether dgnkit's loader is proven on the game's own output
//!   ([`Game::loader`]): a game that is not answers with an error, never
//!   with another game's layout;
//! - what the loader reads besides the file, with the game's defaults
//!   ([`Game::inputs`]), filled from the command line into
//!   [`LoaderInputs`];
//! - how `dgn xlog` tells the game's xlogfile lines and the releases that
//!   answer them ([`Game::xlog`]), and the words a checkout of it has in
//!   its path ([`Game::path_words`]).
//!
//! A game is one record and one row of the [`Target`] table
//! (`crates/dgnkit/src/options.rs`); `docs/dev/architecture.md` ("Adding a
//! game") lists the steps.

pub mod detect;
pub mod rng_log;

pub(crate) mod dnethack;
pub(crate) mod dynahack;
pub(crate) mod evilhack;
pub(crate) mod forks37;
pub(crate) mod gnollhack;
pub(crate) mod native;
pub(crate) mod nethack343;
pub(crate) mod nethack36;
pub(crate) mod nethack37;
pub(crate) mod nethack50;
pub(crate) mod nle;
pub(crate) mod slashem;
pub(crate) mod unnethack;

pub use crate::loader::roles;
pub use crate::loader::{
    race_named, role_named, GameOption, InputSpec, LoaderInputs, LoaderProof, Race, Role,
    StartHook, RACES, ROLES,
};

use crate::binary::BinaryFormat;
use crate::bones::{BonesOptions, BonesRules};
use crate::dialect::Dialect;
use crate::frontend::CheckGame;
use crate::loader::{GameStart, LoadError, LoaderGame, Resolver, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::script::Script;
use crate::views::OverviewStyle;
use crate::xlog::identify::Family;
use std::sync::LazyLock;

/// Everything dgnkit knows about one game.
#[derive(Debug)]
pub struct Game {
    pub target: Target,
    /// Human name ("EvilHack", "NetHack 3.6").
    pub title: &'static str,
    /// The language its compiler accepts (the default of `--dialect`).
    pub dialect: Dialect,
    /// Its compiled file's layout; `None` when the game has no compiled
    /// dungeon file dgnkit writes.
    pub binary: Option<BinaryFormat>,
    /// Its generator (the default of `--rng`).
    pub rng: RngKind,
    pub rules: Rules,
    pub bones: BonesRules,
    pub overview: OverviewStyle,
    pub loader: LoaderProof,
    pub inputs: InputSpec,
    /// `%FLAG`s makedefs knows that the game's default build leaves
    /// undefined (`-D` still defines them).
    pub undefined_flags: &'static [&'static str],
    /// The game reads `dungeon.lua` at start-up (NetHack 3.7 and its
    /// forks): it has no `dgn_comp`, and editors check its files under
    /// `luaTarget`.
    pub reads_lua: bool,
    /// How `dgn xlog` tells the game's lines and the releases that answer
    /// them; `None` for dgnkit's own format, which writes no xlogfile.
    pub xlog: Option<&'static Family>,
    /// The words a checkout of the game has in its path, lowercase
    /// (`~/src/unnethack/dat/dungeon.def`): [`detect`] names the game of a
    /// file by them. None for NetHack itself, whose name every variant's
    /// path may hold.
    pub path_words: &'static [&'static str],
    /// How the game's own RNG log names each draw's C caller, and the C
    /// trees it is the log of (`dgn session`, `dgn layout --trace=session`);
    /// `None` where dgnkit knows no such log of the game.
    pub rng_log: Option<&'static rng_log::RngLog>,
}

impl Game {
    /// What the loader knows of this game.
    pub fn loader_game(&self) -> LoaderGame {
        LoaderGame {
            name: self.target.name(),
            title: self.title,
            rules: self.rules.clone(),
            rng: self.rng,
            proof: self.loader,
            inputs: self.inputs,
            race_readers: &RACE_READERS,
        }
    }

    /// What the checks know of this game.
    pub fn check_game(&self) -> CheckGame {
        CheckGame {
            name: self.target.name(),
            fixed_tables: self.target.is_nethack(),
            undefined_flags: self.undefined_flags,
            dialect_option: detect::option_for,
            knox_needs_branch: self.rules.floating_needs_branch,
        }
    }

    /// The bones options of this game: its rules, portal levels and pools.
    pub fn bones_options(&self) -> BonesOptions {
        BonesOptions::for_rules(&self.bones)
    }

    /// A resolver with this game's rules and its default inputs; an error
    /// when dgnkit does not reproduce its loader.
    pub fn resolver(&self, script: &Script) -> Result<Resolver, LoadError> {
        Resolver::for_game(script, &self.loader_game(), &LoaderInputs::default())
    }

    /// Ok when dgnkit's loader may answer for this game.
    pub fn check_loader(&self) -> Result<(), LoadError> {
        self.loader_game().check_loader()
    }

    pub fn loader_proven(&self) -> bool {
        matches!(self.loader, LoaderProof::Proven(_))
    }

    /// A `dungeon.lua` may be checked and laid out for it: it reads one
    /// ([`Game::reads_lua`]), or it is dgnkit's own format, which takes
    /// either language. The editors' `luaTarget` and the API's `LuaGame`
    /// offer these.
    pub fn takes_lua(&self) -> bool {
        self.reads_lua || !self.target.is_nethack()
    }

    pub fn option(&self, name: &str) -> Option<&'static GameOption> {
        self.inputs.options.iter().find(|o| o.name == name)
    }

    /// The game's draws before the loader for a run with `inputs`.
    pub fn start_for(&self, inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
        self.loader_game().start_for(inputs)
    }

    /// The loader's rules for a run with `inputs`.
    pub fn rules_for(&self, inputs: &LoaderInputs) -> Rules {
        self.loader_game().rules_for(inputs)
    }
}

/// The titles of the games whose loader reads a race.
static RACE_READERS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    all()
        .filter(|g| g.inputs.race.is_some())
        .map(|g| g.title)
        .collect()
});

/// Every game, in [`Target::ALL`] order.
pub fn all() -> impl Iterator<Item = &'static Game> {
    Target::ALL.into_iter().map(Target::game)
}

/// The help text of `--role`, `--race`, `--option` and `--game-start`:
/// each game's default.
pub fn input_help(which: &str) -> String {
    let mut lines = Vec::new();
    for g in all() {
        // A start that chooses the hero takes each facet unset at random
        // (`nethack -@`), unless the game has a default hero of its own.
        let chosen = |own: Option<&str>| {
            g.inputs
                .character
                .map(|_| match (own, g.inputs.game_start) {
                    (Some(own), _) => format!("{own} when no facet is given, else random"),
                    (None, Some(true)) => "random".to_string(),
                    (None, _) => "random, with --game-start".to_string(),
                })
        };
        let default = match which {
            "role" if g.inputs.character.is_some() => chosen(g.inputs.role),
            "race" if g.inputs.character.is_some() => chosen(g.inputs.role.map(|_| "its")),
            "gender" | "align" => chosen(g.inputs.role.map(|_| "its")),
            "role" => g.inputs.role.map(str::to_string),
            "race" => g.inputs.race.map(str::to_string),
            "option" => (!g.inputs.options.is_empty()).then(|| {
                g.inputs
                    .options
                    .iter()
                    .map(|o| format!("{}={} ({})", o.name, o.default_value(), o.values.join("|")))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            _ => g.inputs.game_start.map(|on| {
                if on {
                    "on".to_string()
                } else {
                    "off".to_string()
                }
            }),
        };
        if let Some(d) = default {
            lines.push(format!("{}: {d}", g.target.name()));
        }
    }
    if lines.is_empty() {
        "no target's loader reads it yet".to_string()
    } else {
        format!(
            "default per target: {}; other targets do not read it",
            lines.join("; ")
        )
    }
}

/// A game whose loader dgnkit does not reproduce. Every game's is proven
/// now, so this one keeps the refusal exercised: answered with an error
/// naming it, never with another game's layout.
#[cfg(test)]
pub(crate) static UNPROVEN: Game = Game {
    target: Target::NetHack36,
    title: "An Unproven Game",
    dialect: Dialect::Vanilla,
    binary: None,
    rng: RngKind::Isaac64,
    rules: Rules::nethack_36(),
    bones: BonesRules::VANILLA,
    overview: OverviewStyle::NetHack36,
    loader: LoaderProof::NotProven,
    inputs: InputSpec::NONE,
    undefined_flags: &[],
    reads_lua: false,
    xlog: None,
    path_words: &[],
    rng_log: None,
};

#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod detect_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_its_own_record() {
        for t in Target::ALL {
            assert_eq!(t.game().target, t, "{}", t.name());
        }
    }

    /// A game's own family in `dgn xlog` has the record's name and title.
    #[test]
    fn a_games_own_xlog_family_names_it_as_its_record_does() {
        for g in all() {
            let Some(f) = g.xlog else { continue };
            if f.releases.iter().all(|r| r.target == g.target) {
                assert_eq!((f.name, f.title), (g.target.name(), g.title));
            }
        }
    }

    /// `LoaderGame::default()` (the statistics' default game) says what
    /// the NetHack 3.6 record says, but for the game start it makes only
    /// when asked (its draws and tables are the record's, which the loader
    /// crate does not hold).
    #[test]
    fn the_loaders_default_game_is_nethack_36s() {
        let want = Target::NetHack36.game().loader_game();
        let got = LoaderGame::default();
        assert_eq!(
            (got.name, got.title, got.rng, got.proof),
            (want.name, want.title, want.rng, want.proof)
        );
        assert_eq!(format!("{:?}", got.rules), format!("{:?}", want.rules));
        // What only the game start reads: its hook, the hero's table and
        // the player's name.
        let without_start = |i: InputSpec| InputSpec {
            game_start: None,
            start_hook: None,
            character: None,
            options: &[],
            ..i
        };
        assert_eq!(
            format!("{:?}", got.inputs),
            format!("{:?}", without_start(want.inputs))
        );
        assert_eq!(want.inputs.game_start, Some(false), "off unless asked");
    }

    #[test]
    fn an_unproven_game_is_refused_before_its_file_or_inputs_are_read() {
        assert!(!UNPROVEN.loader_proven());
        let e = UNPROVEN.check_loader().unwrap_err();
        assert!(
            matches!(
                e,
                LoadError::NotReproduced {
                    game: "An Unproven Game",
                    target: "nethack-3.6"
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .contains("does not yet reproduce An Unproven Game's loader"),
            "{e}"
        );
        let script = Script::default();
        assert!(matches!(
            UNPROVEN.resolver(&script),
            Err(LoadError::NotReproduced { .. })
        ));
        // Inputs it does not read are not what is refused first.
        let inputs = LoaderInputs::parse(None, Some("Drow"), &["a=b".into()], true, false).unwrap();
        assert!(matches!(
            Resolver::for_game(&script, &UNPROVEN.loader_game(), &inputs),
            Err(LoadError::NotReproduced { .. })
        ));
    }

    #[test]
    fn unproven_games_refuse_naming_themselves() {
        for g in all().chain([&UNPROVEN]) {
            if g.loader_proven() {
                assert!(g.check_loader().is_ok());
            } else {
                let e = g.check_loader().unwrap_err().to_string();
                assert!(e.contains(g.title), "{e}");
            }
        }
    }

    #[test]
    fn inputs_parse_and_check() {
        let i =
            LoaderInputs::parse(Some("val"), Some("Drow"), &["a=b".into()], true, false).unwrap();
        assert_eq!(i.role.map(|r| r.code), Some("Val"));
        assert_eq!(i.race.map(|r| r.code), Some("Dro"));
        assert_eq!(i.option("a"), Some("b"));
        // A role's name is taken by its first letters, as NetHack's options
        // take it (the first role in roles[] order).
        let valk = LoaderInputs::parse(Some("Valk"), None, &[], false, false).unwrap();
        assert_eq!(valk.role.map(|r| r.code), Some("Val"));
        assert!(LoaderInputs::parse(Some("Xyzzy"), None, &[], false, false).is_err());
        assert!(LoaderInputs::parse(None, None, &["novalue".into()], false, false).is_err());
        // vanilla reads no option and has no start-up draws.
        let e = i
            .check(&Target::NetHack36.game().loader_game())
            .unwrap_err()
            .to_string();
        assert!(e.contains("reads no game option `a`"), "{e}");
        let race = LoaderInputs::parse(None, Some("Drow"), &[], false, false).unwrap();
        let e = race
            .check(&Target::NetHack36.game().loader_game())
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("reads no race (--race Drow): only dNetHack's does"),
            "{e}"
        );
        let start = LoaderInputs {
            game_start: Some(true),
            ..LoaderInputs::default()
        };
        // NetHack 3.6 makes its game start when asked; 3.4.3 has none.
        assert!(start.check(&Target::NetHack36.game().loader_game()).is_ok());
        assert!(start
            .check(&Target::NetHack343.game().loader_game())
            .is_err());
    }
}
