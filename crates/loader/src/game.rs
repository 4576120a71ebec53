//! What the loader knows of a game: its rules, its generator, whether it
//! is proven on the game's own output, and what it reads besides the file
//! ([`InputSpec`], filled from the command line into [`LoaderInputs`]).
//! One [`LoaderGame`] per game, made where the games are assembled
//! (`dgnkit::games`); nothing here names a game's `--target`.

use crate::chargen::{Asked, CharacterAsk, Characters};
use crate::roles::{self, race_named, role_named, Race, Role};
use crate::{GameStart, LoadError, Rules};
use dgnkit_rng::RngKind;

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
    /// In `values`: any unsigned number (a seed).
    pub const NUMBER: &'static str = "<number>";
    /// In `values`: any text (a name).
    pub const TEXT: &'static str = "<text>";

    /// Whether the option takes `value`.
    pub fn takes(&self, value: &str) -> bool {
        self.values.iter().any(|v| {
            v.eq_ignore_ascii_case(value)
                || (*v == Self::NUMBER && value.parse::<u64>().is_ok())
                || *v == Self::TEXT
        })
    }

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
    /// The codes of the game's own roles, when the loader reads the role
    /// and another game's role would be an error (empty: any role dgnkit
    /// knows).
    pub roles: &'static [&'static str],
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
    /// The game's `roles[]` and `races[]` where its start chooses the hero
    /// (`--role random`, `--gender`, `--align`); `None`: it reads at most
    /// the role and race above.
    pub character: Option<&'static Characters>,
}

impl InputSpec {
    /// The loader reads nothing besides the file and the mode.
    pub const NONE: InputSpec = InputSpec {
        role: None,
        race: None,
        roles: &[],
        options: &[],
        game_start: None,
        rules_hook: None,
        start_hook: None,
        character: None,
    };
}

/// Builds a game's draws before `init_dungeons()` from a run's inputs.
pub type StartHook = fn(&LoaderInputs) -> Result<GameStart, LoadError>;

/// Everything the loader knows of one game.
#[derive(Clone, Debug)]
pub struct LoaderGame {
    /// The game's `--target` value, for messages.
    pub name: &'static str,
    /// Human name ("EvilHack", "NetHack 3.6").
    pub title: &'static str,
    pub rules: Rules,
    /// Its generator (the default of `--rng`).
    pub rng: RngKind,
    pub proof: LoaderProof,
    pub inputs: InputSpec,
    /// The titles of the games whose loader reads a race, for the message
    /// to a run that gives one to another game (filled where the games are
    /// assembled: this crate knows none).
    pub race_readers: &'static [&'static str],
}

impl Default for LoaderGame {
    /// NetHack 3.6's loader with its default inputs: the reference
    /// algorithm every game's [`Rules`] depart from (`dgnkit::games`
    /// checks that its NetHack 3.6 record says the same).
    fn default() -> Self {
        LoaderGame {
            name: "nethack-3.6",
            title: "NetHack 3.6",
            rules: Rules::nethack_36(),
            rng: RngKind::Isaac64,
            proof: LoaderProof::Proven(
                "layout_parity: every file of expected/layouts/*.36.isaac64*, draw for draw",
            ),
            inputs: InputSpec::NONE,
            race_readers: &[],
        }
    }
}

impl LoaderGame {
    /// Ok when dgnkit's loader may answer for this game.
    pub fn check_loader(&self) -> Result<(), LoadError> {
        match self.proof {
            LoaderProof::Proven(_) => Ok(()),
            LoaderProof::NotProven => Err(LoadError::NotReproduced {
                game: self.title,
                target: self.name,
            }),
        }
    }

    pub fn loader_proven(&self) -> bool {
        matches!(self.proof, LoaderProof::Proven(_))
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
    /// The hero's four facets as asked (role and race also above when
    /// they name one), for a game whose start chooses the hero.
    pub character: CharacterAsk,
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
        // `random` names no role: the game's start picks one. A name
        // dgnkit knows is taken first, as NetHack's options do.
        let random = |s: &str| {
            Asked::parse(s) == Asked::Random
                || (role_named(s).or_else(|| roles::role_prefixed(s)).is_none()
                    && race_named(s).is_none()
                    && Asked::random_word(s))
        };
        let ask = |s: Option<&str>| match s {
            None => Asked::Unset,
            Some(s) if random(s) => Asked::Random,
            Some(s) => Asked::Named(s.trim().to_string()),
        };
        let mut character = CharacterAsk {
            role: ask(role),
            race: ask(race),
            ..CharacterAsk::default()
        };
        let role = role.filter(|_| character.role != Asked::Random);
        let race = race.filter(|_| character.race != Asked::Random);
        if let Some(r) = role.and_then(|r| role_named(r).or_else(|| roles::role_prefixed(r))) {
            character.role = Asked::Named(r.name.to_string());
        }
        if let Some(r) = race.and_then(race_named) {
            character.race = Asked::Named(r.name.to_string());
        }
        let role = match role {
            None => None,
            Some(r) => Some(
                role_named(r)
                    .or_else(|| roles::role_prefixed(r))
                    .ok_or_else(|| {
                        format!(
                            "unknown role `{r}` (a role's name or three-letter code: {})",
                            roles::role_list()
                        )
                    })?,
            ),
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
            character,
        })
    }

    /// Adds `--gender` and `--align` (NetHack's words: `male`, `fem`,
    /// `lawful`, `cha`, `random`, ...), checked against a game's tables
    /// when the game start reads them.
    pub fn with_character(mut self, gender: Option<&str>, align: Option<&str>) -> LoaderInputs {
        self.character.gender = gender.map_or(Asked::Unset, Asked::parse);
        self.character.align = align.map_or(Asked::Unset, Asked::parse);
        self
    }

    /// These inputs with option `name` set to `value` (a game's default
    /// spelled out).
    pub fn with_option(mut self, name: &str, value: &str) -> LoaderInputs {
        self.options.push((name.to_string(), value.to_string()));
        self
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
    pub fn game_start_for(&self, game: &LoaderGame) -> bool {
        self.game_start.or(game.inputs.game_start).unwrap_or(false)
    }

    /// Checks the inputs against what `game` reads: every option must be
    /// one of its loader's, with one of its values; `--game-start` needs a
    /// game that has start-up draws.
    pub fn check(&self, game: &LoaderGame) -> Result<(), LoadError> {
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
            if !opt.takes(value) {
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
        let c = &self.character;
        let chooses = game.inputs.character.is_some() && self.game_start_for(game);
        let asked_choice = c.gender.is_set()
            || c.align.is_set()
            || c.role == Asked::Random
            || c.race == Asked::Random;
        if asked_choice && !chooses {
            return Err(LoadError::Inputs {
                message: if game.inputs.character.is_some() {
                    format!(
                        "{}'s dungeon depends on the hero's gender, alignment or a random choice only through the game's start: add --game-start",
                        game.title
                    )
                } else {
                    format!(
                        "{}'s loader reads no gender, alignment or random role or race (only a game start that chooses the hero does: --target nethack-3.6 --game-start, --target nle)",
                        game.title
                    )
                },
            });
        }
        if let Some(table) = game.inputs.character.filter(|_| chooses) {
            table
                .wanted(c)
                .map_err(|message| LoadError::Inputs { message })?;
            return Ok(());
        }
        if let (Some(race), None) = (self.race, game.inputs.race) {
            return Err(LoadError::Inputs {
                message: format!(
                    "{}'s loader reads no race (--race {}){}",
                    game.title,
                    race.name,
                    only_theirs(game.race_readers)
                ),
            });
        }
        if let Some(role) = self.role {
            let roles = game.inputs.roles;
            if !roles.is_empty() && !roles.contains(&role.code) {
                return Err(LoadError::Inputs {
                    message: format!(
                        "{} has no role {} (its roles: {})",
                        game.title,
                        role.name,
                        roles::list_of(roles)
                    ),
                });
            }
        }
        Ok(())
    }
}

/// ": only X's does" (": only X's and Y's do") for the games that do, or
/// nothing when none does.
fn only_theirs(titles: &[&str]) -> String {
    match titles {
        [] => String::new(),
        [one] => format!(": only {one}'s does"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|t| format!("{t}'s")).collect();
            format!(": only {} and {last}'s do", rest.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_that_read_an_input_are_named() {
        assert_eq!(only_theirs(&[]), "");
        assert_eq!(only_theirs(&["A"]), ": only A's does");
        assert_eq!(only_theirs(&["A", "B", "C"]), ": only A's, B's and C's do");
    }
}
