//! The games dgnkit knows: NetHack 3.4.3, 3.6, 3.7, dgnkit's native target
//! and each variant family. A game is data plus a few named hooks, in one
//! file per game; the one frontend, loader, statistics and bones code ask
//! the game's [`Game`] record instead of testing which game it is.
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
pub mod roles;

mod dnethack;
mod dynahack;
mod evilhack;
mod gnollhack;
mod native;
mod nethack343;
mod nethack36;
mod nethack37;
mod slashem;
mod unnethack;

pub use roles::{race_named, role_named, Race, Role, RACES, ROLES};

use crate::binary::BinaryFormat;
use crate::bones::BonesRules;
use crate::dialect::Dialect;
use crate::loader::{GameStart, LoadError, Rules};
use crate::options::Target;
use crate::rng::RngKind;
use crate::views::OverviewStyle;

/// Whether dgnkit's loader reproduces the game's `init_dungeons()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoaderProof {
    /// Proven draw for draw; the text names the evidence (parity tests).
    Proven(&'static str),
    /// Not yet: layouts, bones and statistics are refused with
    /// [`LoadError::NotReproduced`].
    NotProven,
}

/// A game option the loader reads (`--option NAME=VALUE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// The game's own name for it.
    pub name: &'static str,
    /// The values it takes; the first is the game's default.
    pub values: &'static [&'static str],
    pub doc: &'static str,
}

impl GameOption {
    pub fn default_value(&self) -> &'static str {
        self.values.first().copied().unwrap_or("")
    }
}

/// What a game's loader reads besides the file, and its defaults.
#[derive(Clone, Copy, Debug)]
pub struct InputSpec {
    /// How the role is used, with the game's default (`None`: the loader
    /// does not read it; quest levels keep their `x-` names).
    pub role: Option<&'static str>,
    /// As `role`, for the race.
    pub race: Option<&'static str>,
    pub options: &'static [GameOption],
    /// Whether the game's own draws before `init_dungeons()` are made by
    /// default (`--game-start`); `None`: the game has none dgnkit makes.
    pub game_start: Option<bool>,
    /// How the inputs change the loader's rules (an option that unlinks a
    /// level, ...); `None`: they do not.
    pub rules_hook: Option<fn(&LoaderInputs, &mut Rules)>,
    /// The game's draws before `init_dungeons()` for these inputs, made
    /// when `--game-start` (or the game's default) asks for them.
    /// (An error for an input the game does not have, e.g. another
    /// family's role.)
    pub start_hook: Option<StartHook>,
}

impl InputSpec {
    /// The loader reads nothing besides the file and the mode.
    pub const NONE: InputSpec = InputSpec {
        role: None,
        race: None,
        options: &[],
        game_start: None,
        rules_hook: None,
        start_hook: None,
    };
}

/// Builds a game's draws before `init_dungeons()` from a run's inputs.
pub type StartHook = fn(&LoaderInputs) -> Result<GameStart, LoadError>;

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
}

impl Game {
    /// Ok when dgnkit's loader may answer for this game.
    pub fn check_loader(&self) -> Result<(), LoadError> {
        match self.loader {
            LoaderProof::Proven(_) => Ok(()),
            LoaderProof::NotProven => Err(LoadError::NotReproduced {
                game: self.title,
                target: self.target.name(),
            }),
        }
    }

    pub fn loader_proven(&self) -> bool {
        matches!(self.loader, LoaderProof::Proven(_))
    }

    pub fn option(&self, name: &str) -> Option<&'static GameOption> {
        self.inputs.options.iter().find(|o| o.name == name)
    }

    /// The game's draws before the loader for a run with `inputs`.
    pub fn start_for(&self, inputs: &LoaderInputs) -> Result<GameStart, LoadError> {
        match self.inputs.start_hook {
            Some(hook) if inputs.game_start_for(self) => hook(inputs),
            _ => Ok(GameStart::NONE),
        }
    }

    /// The loader's rules for a run with `inputs`.
    pub fn rules_for(&self, inputs: &LoaderInputs) -> Rules {
        let mut rules = self.rules.clone();
        if let Some(hook) = self.inputs.rules_hook {
            hook(inputs, &mut rules);
        }
        rules
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
    }
}

/// Every game, in [`Target::ALL`] order.
pub fn all() -> impl Iterator<Item = &'static Game> {
    Target::ALL.into_iter().map(game)
}

/// What one run of a loader reads besides the file: the same options mean
/// the same for every game (`--role`, `--race`, `--option`,
/// `--game-start`, `--wizard`); a game ignores what its loader does not
/// read ([`InputSpec`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoaderInputs {
    pub role: Option<&'static Role>,
    pub race: Option<&'static Race>,
    /// `NAME=VALUE` game options, in the order given.
    pub options: Vec<(String, String)>,
    /// `Some(true)`: seed as a new game does and make the game's draws
    /// before `init_dungeons()`; `None`: the game's default.
    pub game_start: Option<bool>,
    /// Wizard (debug) mode, for callers that take the mode from here; the
    /// `Resolver::resolve*` calls take it as an argument.
    pub wizard: bool,
}

impl LoaderInputs {
    /// Parses the command-line forms: role and race by name or code,
    /// options as `NAME=VALUE`.
    pub fn parse(
        role: Option<&str>,
        race: Option<&str>,
        options: &[String],
        game_start: bool,
        wizard: bool,
    ) -> Result<LoaderInputs, String> {
        let role = match role {
            None => None,
            Some(r) => Some(role_named(r).ok_or_else(|| {
                format!(
                    "unknown role `{r}` (a role's name or three-letter code: {})",
                    roles::role_list()
                )
            })?),
        };
        let race = match race {
            None => None,
            Some(r) => Some(race_named(r).ok_or_else(|| {
                format!(
                    "unknown race `{r}` (a race's name or three-letter code: {})",
                    roles::race_list()
                )
            })?),
        };
        let options = options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() => {
                    Ok((n.trim().to_string(), v.trim().to_string()))
                }
                _ => Err(format!(
                    "`--option {o}`: expected NAME=VALUE with the game's own option name (e.g. chaos_quest=temple)"
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(LoaderInputs {
            role,
            race,
            options,
            game_start: game_start.then_some(true),
            wizard,
        })
    }

    /// The value given for option `name` (the last one wins, as in a game's
    /// options file).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `option` for this run: as given, else the game's default.
    pub fn option_or_default(&self, option: &GameOption) -> &str {
        self.option(option.name)
            .unwrap_or_else(|| option.default_value())
    }

    /// Whether the game-start draws are made for `game`.
    pub fn game_start_for(&self, game: &Game) -> bool {
        self.game_start.or(game.inputs.game_start).unwrap_or(false)
    }

    /// Checks the inputs against what `game` reads: every option must be
    /// one of its loader's, with one of its values; `--game-start` needs a
    /// game that has start-up draws.
    pub fn check(&self, game: &Game) -> Result<(), LoadError> {
        for (name, value) in &self.options {
            let Some(opt) = game.option(name) else {
                let known: Vec<&str> = game.inputs.options.iter().map(|o| o.name).collect();
                return Err(LoadError::Inputs {
                    message: format!(
                        "{}'s loader reads no game option `{name}` ({})",
                        game.title,
                        if known.is_empty() {
                            "it reads none".to_string()
                        } else {
                            format!("it reads: {}", known.join(", "))
                        }
                    ),
                });
            };
            if !opt.values.iter().any(|v| v.eq_ignore_ascii_case(value)) {
                return Err(LoadError::Inputs {
                    message: format!(
                        "{}'s option {name} takes one of {} (not `{value}`)",
                        game.title,
                        opt.values.join(", ")
                    ),
                });
            }
        }
        if self.game_start == Some(true) && game.inputs.game_start.is_none() {
            return Err(LoadError::Inputs {
                message: format!(
                    "--game-start: dgnkit does not make {}'s draws before init_dungeons(); without it the seed is the generator's seed right before the loader",
                    game.title
                ),
            });
        }
        Ok(())
    }
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
mod tests {
    use super::*;

    #[test]
    fn every_target_has_its_own_record() {
        for t in Target::ALL {
            assert_eq!(t.game().target, t, "{}", t.name());
        }
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
        let e = i.check(Target::NetHack36.game()).unwrap_err().to_string();
        assert!(e.contains("reads no game option `a`"), "{e}");
        let start = LoaderInputs {
            game_start: Some(true),
            ..LoaderInputs::default()
        };
        assert!(start.check(Target::NetHack36.game()).is_err());
    }
}
