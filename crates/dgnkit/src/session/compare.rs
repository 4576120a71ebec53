//! A session's game start and `init_dungeons()` made again by dgnkit's
//! loader, and compared with the session's log draw for draw.
//!
//! dgnkit makes the draws from the generator's seeding to the end of
//! `init_dungeons()`: the game start (`o_init`, `role_init`, `nhlib.lua`)
//! and the loader. The session's log goes on (level creation, play); only
//! as many of its draws as dgnkit makes are compared.
//!
//! When the character is chosen in the game, the game may draw for it
//! (`pick_role` and its siblings, src/role.c) before the game start, and
//! dgnkit does not make those draws: the game start is then taken to begin
//! where dgnkit's draws line up with the session's, after that many of the
//! generator's outputs.

use super::character::{self, Character};
use super::entry::{self, Entry};
use super::read::{Session, StepPlace};
use crate::games::{Game, LoaderInputs};
use crate::layout::Layout;
use crate::loader::{LoadError, Resolved, Resolver};
use crate::options::Target;
use crate::rng::{Draw, Glibc, Isaac32, Isaac64, Mt19937Cokus, RngKind, Source};
use crate::script::Script;
use std::fmt;

/// The game of a session whose file names no C tree: the session format is
/// Mazes of Menace's, a port of NetHack 3.7, which records that game.
pub const FORMAT_GAME: Target = Target::NetHack37;

/// How the session's game was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameBy {
    /// `recorded_with.nethack_c` names a tree of the game's log.
    Tree(String),
    /// The file names no tree: the format's game, [`FORMAT_GAME`].
    Format,
    /// As asked (`--target`), whatever the file names.
    Asked,
}

/// Why a session is not compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The file names a C tree no game of dgnkit's is the log of.
    UnknownTree(String),
    /// No character: the file leaves it to the game, and no screen shows
    /// the game's welcome.
    NoCharacter(String),
    /// A role the game does not have.
    UnknownRole { role: String, game: &'static str },
    /// dgnkit does not make the game's draws before `init_dungeons()`.
    NoGameStart(&'static str),
    /// The game's loader or game start is not reproduced, or does not
    /// take these inputs.
    Loader(LoadError),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownTree(tree) => {
                let known: Vec<String> = crate::games::all()
                    .filter_map(|g| g.rng_log.map(|l| (g, l)))
                    .flat_map(|(g, l)| {
                        l.trees
                            .iter()
                            .map(move |t| format!("{t} ({})", g.target.name()))
                    })
                    .collect();
                write!(
                    f,
                    "the session was recorded with the C tree {tree} (`recorded_with.nethack_c`), whose draws dgnkit does not know; it knows {}. --target compares it with a game's rules anyway",
                    known.join(", ")
                )
            }
            Refusal::NoCharacter(why) => write!(f, "no character: {why}"),
            Refusal::UnknownRole { role, game } => {
                write!(f, "the session's role `{role}` is not one of {game}'s")
            }
            Refusal::NoGameStart(game) => write!(
                f,
                "dgnkit does not make {game}'s draws before init_dungeons(), so it cannot follow a recorded game of it"
            ),
            Refusal::Loader(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The session's game: `asked`, else the game whose log is of the file's
/// C tree, else [`FORMAT_GAME`].
pub fn game_of(session: &Session, asked: Option<Target>) -> Result<(Target, GameBy), Refusal> {
    if let Some(t) = asked {
        return Ok((t, GameBy::Asked));
    }
    let Some(tree) = session.nethack_c.as_deref() else {
        return Ok((FORMAT_GAME, GameBy::Format));
    };
    crate::games::all()
        .find(|g| g.rng_log.is_some_and(|l| l.has_tree(tree)))
        .map(|g| (g.target, GameBy::Tree(tree.to_string())))
        .ok_or_else(|| Refusal::UnknownTree(tree.to_string()))
}

/// Where a character was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharacterFrom {
    /// v3 `options` or v4 `nethackrc`: the whole character.
    Options,
    /// The game's welcome on this step's screen.
    Welcome(StepPlace),
    /// The options' role: the character was chosen in the game, and no
    /// screen of the file shows its welcome.
    OptionsRole,
}

/// A place in the session's log: the step and the entry's index in that
/// step's `rng`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub step: StepPlace,
    pub index: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, entry {}", self.step, self.index)
    }
}

/// One of the session's draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionDraw {
    pub pos: Pos,
    /// The entry as written.
    pub entry: String,
}

/// One of dgnkit's draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DgnkitDraw {
    /// 1-based among dgnkit's draws.
    pub number: usize,
    /// In the session's form (`rn2(5)=3 @ place_level(dungeon.c:687)`).
    pub entry: String,
    /// dgnkit's own words for it (`placing "oracle"`).
    pub site: String,
}

/// The first draw where the session and dgnkit differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The session's draw there; `None`: its log ends before.
    pub session: Option<SessionDraw>,
    /// dgnkit's draw there; `None`: dgnkit's loader stopped
    /// ([`Report::failure`]).
    pub dgnkit: Option<DgnkitDraw>,
    /// A few draws on either side, the divergence's among them.
    pub session_context: Vec<SessionDraw>,
    pub dgnkit_context: Vec<DgnkitDraw>,
}

/// What the comparison found.
#[derive(Clone, Debug)]
pub struct Report {
    pub target: Target,
    pub game_by: GameBy,
    pub character: Character,
    pub character_from: CharacterFrom,
    /// The draws before the game start, made by the game's character
    /// selection, which dgnkit does not make (0 for a whole character).
    pub selection_draws: usize,
    /// dgnkit's draws (game start and `init_dungeons()`).
    pub draws: usize,
    /// How many of them equal the session's, from the first.
    pub matched: usize,
    /// Every draw of the session's log.
    pub session_draws: usize,
    /// The session's first and last draws compared (none when dgnkit
    /// makes none).
    pub span: Option<(Pos, Pos)>,
    pub divergence: Option<Divergence>,
    /// dgnkit's loader failed for this seed.
    pub failure: Option<LoadError>,
    /// dgnkit's layout, when every draw matches.
    pub layout: Option<Layout>,
}

impl Report {
    /// Every draw dgnkit makes is the session's.
    pub fn matches(&self) -> bool {
        self.divergence.is_none() && self.failure.is_none()
    }
}

/// How many draws of context a divergence shows on either side.
const CONTEXT: usize = 3;

/// Compares the session with `target`'s game start and `init_dungeons()`
/// for `script` (the game's own dungeon description).
pub fn check(
    session: &Session,
    script: &Script,
    target: Target,
    game_by: GameBy,
) -> Result<Report, Refusal> {
    let game = target.game();
    game.check_loader().map_err(Refusal::Loader)?;
    if game.inputs.game_start.is_none() {
        return Err(Refusal::NoGameStart(game.title));
    }
    let draws = session_draws(session);
    let (character, character_from, role) = character_of(session, game)?;
    let inputs = LoaderInputs {
        role: Some(role),
        game_start: Some(true),
        wizard: session.wizard,
        ..LoaderInputs::default()
    };
    let resolver =
        Resolver::for_game(script, &game.loader_game(), &inputs).map_err(Refusal::Loader)?;
    let run = |skip| Attempt::run(&resolver, game.rng, session, skip, &draws);
    let mut best = run(0);
    if !best.whole() {
        for skip in starts(&best.log, &draws).into_iter().take(MAX_STARTS) {
            let attempt = run(skip);
            if attempt.matched > best.matched {
                best = attempt;
            }
            if best.whole() {
                break;
            }
        }
    }
    Ok(best.report(
        &resolver,
        game,
        target,
        game_by,
        character,
        character_from,
        &draws,
    ))
}

/// The character and the role the game start takes.
fn character_of(
    session: &Session,
    game: &Game,
) -> Result<(Character, CharacterFrom, &'static crate::games::Role), Refusal> {
    let role = |c: &Character| -> Result<&'static crate::games::Role, Refusal> {
        let name = c.role.as_deref().unwrap_or_default();
        let all: Vec<&str>;
        let codes = if game.inputs.roles.is_empty() {
            all = crate::games::ROLES.iter().map(|r| r.code).collect();
            &all[..]
        } else {
            game.inputs.roles
        };
        character::role_of(name, codes).ok_or_else(|| Refusal::UnknownRole {
            role: name.to_string(),
            game: game.title,
        })
    };
    // A session recorded choosing the character (`regen.mode` "chargen")
    // may have chosen another than its options name.
    let chosen_in_game = session.regen_mode.as_deref() == Some("chargen");
    if session.options.whole() && !chosen_in_game {
        let r = role(&session.options)?;
        return Ok((session.options.clone(), CharacterFrom::Options, r));
    }
    let welcome = session.steps.iter().find_map(|s| {
        let c = character::from_welcome(s.screen.as_deref()?)?;
        Some((c, s.place))
    });
    if let Some((c, place)) = welcome {
        let r = role(&c)?;
        return Ok((c, CharacterFrom::Welcome(place), r));
    }
    match session.options.role.as_deref() {
        Some(r) if !character::is_random(r) => {
            let role = role(&session.options)?;
            Ok((session.options.clone(), CharacterFrom::OptionsRole, role))
        }
        _ => Err(Refusal::NoCharacter(
            "the file leaves the role to the game's selection, and no screen shows the game's welcome (\"You are a ...\")"
                .to_string(),
        )),
    }
}

/// The session's draws in order, markers and composite entries left out.
fn session_draws(session: &Session) -> Vec<(Pos, &str, &str)> {
    session
        .steps
        .iter()
        .flat_map(|s| {
            s.rng
                .iter()
                .enumerate()
                .filter_map(move |(index, e)| match entry::classify(e) {
                    Entry::Draw(call) => Some((
                        Pos {
                            step: s.place,
                            index,
                        },
                        call,
                        e.as_str(),
                    )),
                    Entry::Other => None,
                })
        })
        .collect()
}

/// How many of dgnkit's first draws a place in the session's log must
/// repeat, bounds alone, to be tried as the game start.
const SIGNATURE: usize = 24;

/// How many such places are tried at most: a real session has one, and a
/// file that repeats the pattern without end costs no more than this many
/// resolutions.
const MAX_STARTS: usize = 64;

/// The places after the log's first where the game start may begin: where
/// the session's draws have the bounds of dgnkit's first draws (`rn2(2)`,
/// `rn2(2)`, `rn2(4)`, `rn2(11)`, ... for NetHack 3.7's `o_init`), whatever
/// their values, which depend on where the generator stands. Draws before
/// the game start are the game's character selection (`pick_role` and
/// its siblings, src/role.c), which dgnkit does not make.
fn starts(log: &[Draw], draws: &[(Pos, &str, &str)]) -> Vec<usize> {
    let bound = |call: &str| call.split_once('=').map_or(call, |(f, _)| f).to_string();
    let signature: Vec<String> = log
        .iter()
        .take(SIGNATURE)
        .map(|d| bound(&d.to_string()))
        .collect();
    if signature.is_empty() {
        return Vec::new();
    }
    (1..draws.len())
        .filter(|&p| {
            draws.len() - p >= signature.len()
                && signature
                    .iter()
                    .zip(&draws[p..])
                    .all(|(s, (_, call, _))| call.split_once('=').is_some_and(|(f, _)| f == s))
        })
        .collect()
}

/// dgnkit's draws after `skip` outputs of the generator, and how many
/// equal the session's from its `skip`-th draw on.
struct Attempt {
    skip: usize,
    log: Vec<Draw>,
    result: Result<(), LoadError>,
    out: Resolved,
    matched: usize,
}

impl Attempt {
    fn run(
        resolver: &Resolver,
        rng: RngKind,
        session: &Session,
        skip: usize,
        draws: &[(Pos, &str, &str)],
    ) -> Attempt {
        let mut out = Resolved::default();
        let mut log = Vec::new();
        out.seed = session.seed;
        out.rng = rng;
        let seed = session.seed;
        // One generic call per generator type.
        macro_rules! from {
            ($source:expr) => {
                resolve(resolver, $source, skip, session, &mut out, &mut log)
            };
        }
        let result = match rng {
            RngKind::Glibc => from!(Glibc::new(seed)),
            RngKind::Isaac64 => from!(Isaac64::new(seed)),
            RngKind::Isaac32 => from!(Isaac32::new(seed)),
            RngKind::Mt19937Cokus => from!(Mt19937Cokus::new(seed)),
        };
        let matched = log
            .iter()
            .zip(draws.iter().skip(skip))
            .take_while(|(d, (_, call, _))| d.to_string() == *call)
            .count();
        Attempt {
            skip,
            log,
            result,
            out,
            matched,
        }
    }

    /// Every draw made, and each the session's.
    fn whole(&self) -> bool {
        self.matched == self.log.len() && self.result.is_ok()
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        self,
        resolver: &Resolver,
        game: &Game,
        target: Target,
        game_by: GameBy,
        character: Character,
        character_from: CharacterFrom,
        draws: &[(Pos, &str, &str)],
    ) -> Report {
        let entries =
            entry::session_entries(&self.log, game.rng_log, |s| resolver.describe_site(s));
        let ours = |i: usize| {
            self.log.get(i).map(|d| DgnkitDraw {
                number: i + 1,
                entry: entries.get(i).cloned().unwrap_or_default(),
                site: resolver.describe_site(d.site),
            })
        };
        let theirs = |i: usize| {
            draws.get(self.skip + i).map(|(pos, _, e)| SessionDraw {
                pos: *pos,
                entry: e.to_string(),
            })
        };
        let failure = self.result.err();
        let diverged = self.matched < self.log.len() || failure.is_some();
        let divergence = diverged.then(|| {
            let i = self.matched;
            let around = i.saturating_sub(CONTEXT)..i + CONTEXT + 1;
            Divergence {
                session: theirs(i),
                dgnkit: ours(i),
                session_context: around.clone().filter_map(theirs).collect(),
                dgnkit_context: around.filter_map(ours).collect(),
            }
        });
        let span = (!self.log.is_empty()).then(|| {
            let first = draws.get(self.skip).map(|d| d.0);
            let last = draws.get(self.skip + self.log.len() - 1).map(|d| d.0);
            first.zip(last)
        });
        let layout = (!diverged).then(|| self.out.to_layout(resolver, None));
        Report {
            target,
            game_by,
            character,
            character_from,
            selection_draws: self.skip,
            draws: self.log.len(),
            matched: self.matched,
            session_draws: draws.len(),
            span: span.flatten(),
            divergence,
            failure,
            layout,
        }
    }
}

/// Resolves with `source` advanced past `skip` outputs (the character
/// selection's draws, one output each).
fn resolve<S: Source>(
    resolver: &Resolver,
    mut source: S,
    skip: usize,
    session: &Session,
    out: &mut Resolved,
    log: &mut Vec<Draw>,
) -> Result<(), LoadError> {
    for _ in 0..skip {
        source.next_raw();
    }
    resolver.resolve_with(&mut source, log, session.wizard, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Site;

    fn pos(index: usize) -> Pos {
        Pos {
            step: StepPlace::Step(0),
            index,
        }
    }

    #[test]
    fn the_game_start_is_found_by_its_bounds_after_the_selections_draws() {
        let bounds = [2, 2, 4, 11, 10, 9];
        let log: Vec<Draw> = bounds
            .iter()
            .map(|&n| Draw {
                n,
                r: 0,
                site: Site::ObjectInit,
            })
            .collect();
        // Four draws of the character selection, then the game start's
        // bounds with other values, then play.
        let mut calls: Vec<String> = ["rn2(13)=5", "rn2(2)=1", "rn2(2)=0", "rn2(3)=2"]
            .map(String::from)
            .to_vec();
        calls.extend(bounds.iter().map(|n| format!("rn2({n})=1")));
        calls.extend(["rn2(2)=1", "rn2(2)=1", "rnd(4)=1"].map(String::from));
        let draws: Vec<(Pos, &str, &str)> = calls
            .iter()
            .enumerate()
            .map(|(i, c)| (pos(i), c.as_str(), c.as_str()))
            .collect();
        assert_eq!(starts(&log, &draws), vec![4]);
        // Too short a log left: no start there.
        assert_eq!(starts(&log, &draws[..9]), Vec::<usize>::new());
        assert_eq!(starts(&[], &draws), Vec::<usize>::new());
    }
}
