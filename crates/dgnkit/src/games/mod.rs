//! The games dgnkit knows: NetHack 3.4.3, 3.6, 3.7, dgnkit's native target
//! and each variant family. A game is data plus a few named hooks, in one
//! file per game; the one frontend, loader, statistics and bones code ask
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
//!   [`LoaderInputs`].

pub mod detect;

mod dnethack;
mod dynahack;
pub(crate) mod evilhack;
mod forks37;
mod gnollhack;
mod native;
mod nethack343;
mod nethack36;
mod nethack37;
mod slashem;
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

pub(crate) fn game(target: Target) -> &'static Game {
    match target {
        Target::NetHack343 => &nethack343::GAME,
        Target::NetHack36 => &nethack36::GAME,
        Target::NetHack37 => &nethack37::GAME,
        Target::Native => &native::GAME,
        Target::EvilHack => &evilhack::GAME,
        Target::UnNetHack => &unnethack::GAME,
        Target::SlashEm => &slashem::GAME,
        Target::DNetHack => &dnethack::GAME,
        Target::GnollHack => &gnollhack::GAME,
        Target::DynaHack => &dynahack::GAME,
        Target::XNetHack => &forks37::XNETHACK,
        Target::SpliceHack => &forks37::SPLICEHACK,
        Target::NerfHack => &forks37::NERFHACK,
        Target::CrecelleHack => &forks37::CRECELLEHACK,
    }
}

/// Every game, in [`Target::ALL`] order.
pub fn all() -> impl Iterator<Item = &'static Game> {
    Target::ALL.into_iter().map(game)
}

/// The help text of `--role`, `--race`, `--option` and `--game-start`:
/// each game's default.
pub fn input_help(which: &str) -> String {
    let mut lines = Vec::new();
    for g in all() {
        let default = match which {
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

#[cfg(test)]
mod audit_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_its_own_record() {
        for t in Target::ALL {
            assert_eq!(t.game().target, t, "{}", t.name());
        }
    }

    /// `LoaderGame::default()` (the statistics' default game) says what
    /// the NetHack 3.6 record says.
    #[test]
    fn the_loaders_default_game_is_nethack_36s() {
        let want = Target::NetHack36.game().loader_game();
        let got = LoaderGame::default();
        assert_eq!(
            (got.name, got.title, got.rng, got.proof),
            (want.name, want.title, want.rng, want.proof)
        );
        assert_eq!(format!("{:?}", got.rules), format!("{:?}", want.rules));
        assert_eq!(format!("{:?}", got.inputs), format!("{:?}", want.inputs));
    }

    #[test]
    fn unproven_games_refuse_naming_themselves() {
        for g in all() {
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
        assert!(LoaderInputs::parse(Some("Valk"), None, &[], false, false).is_err());
        assert!(LoaderInputs::parse(None, None, &["novalue".into()], false, false).is_err());
        // vanilla reads no option and has no start-up draws.
        let e = i
            .check(&Target::NetHack36.game().loader_game())
            .unwrap_err()
            .to_string();
        assert!(e.contains("reads no game option `a`"), "{e}");
        let start = LoaderInputs {
            game_start: Some(true),
            ..LoaderInputs::default()
        };
        assert!(start
            .check(&Target::NetHack36.game().loader_game())
            .is_err());
    }
}
