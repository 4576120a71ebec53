//! Which game a dungeon description was written for, as far as its path or
//! its constructs show it: so that a variant's file is never laid out,
//! checked or judged with another game's rules without a word.
//!
//! The evidence, strongest first: the dialect chosen on the command line,
//! syntax only one family's compiler accepts ([`Dialect::guess`]), then a
//! family's name in the file's path (a checkout is named after its game:
//! `~/src/unnethack/dat/dungeon.def`).

use crate::dialect::Dialect;
use crate::options::Target;
use dgnkit_grammar::ast::SourceFile;
use std::path::Path;

/// A game the file looks written for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    /// The game's name as people write it.
    pub title: &'static str,
    /// Its target, when dgnkit has one.
    pub target: Option<Target>,
    /// What showed it, in words ("its path names UnNetHack").
    pub evidence: String,
}

/// Families dgnkit has no target for, known by the words their checkouts'
/// names contain (lowercase); a game with a target has its words in its
/// record ([`Game::path_words`](super::Game::path_words)).
const OTHER_PATH_WORDS: &[(&str, &str)] = &[
    ("slashem-extended", "SLASH'EM Extended"),
    ("slashthem", "SlashTHEM"),
    ("nethack4", "NetHack 4"),
    ("fiqhack", "FIQHack"),
    ("hackem", "HackEM"),
];

/// The game whose compiler speaks `dialect`, if dgnkit has its target.
/// A game that reads `dungeon.lua` is not the target of a `.def` dialect
/// it shares a name with (a 3.7 fork's `dungeon.def` releases came before
/// its 3.7 loader).
pub fn target_of(dialect: Dialect) -> Option<Target> {
    Target::ALL
        .into_iter()
        .find(|t| t.game().dialect == dialect && dialect != Dialect::Vanilla && !t.game().reads_lua)
}

fn from_dialect(dialect: Dialect, evidence: String) -> Detected {
    let target = target_of(dialect);
    Detected {
        title: target.map_or(dialect.title(), |t| t.game().title),
        target,
        evidence,
    }
}

/// The family named in `path` (its absolute form when it can be had, since
/// one runs `dgn layout dungeon.def` inside `dat/`). The longest word found
/// wins, so that a fork's own name wins over its parent's
/// (`slashem-extended` over `slashem`). A game's word stands for its target
/// when the file is in the language the game reads: a `dungeon.def` in a
/// checkout of a game that reads `dungeon.lua` is from before that loader
/// (forks of 3.7 wrote `.def` files on NetHack 3.6 first), which dgnkit
/// does not reproduce.
pub fn from_path(path: &Path) -> Option<Detected> {
    let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let text = full.to_string_lossy().to_lowercase();
    let lua = text.ends_with(".lua");
    let games = super::all().flat_map(|g| {
        let target = (g.reads_lua == lua).then_some(g.target);
        g.path_words.iter().map(move |&w| (w, g.title, target))
    });
    let others = OTHER_PATH_WORDS.iter().map(|&(w, title)| (w, title, None));
    let mut found: Option<(&str, &'static str, Option<Target>)> = None;
    for (word, title, target) in others.chain(games) {
        if text.contains(word) && found.is_none_or(|(w, _, _)| word.len() > w.len()) {
            found = Some((word, title, target));
        }
    }
    found.map(|(_, title, target)| Detected {
        title,
        target,
        evidence: format!("its path names {title}"),
    })
}

/// What the file shows of its game: an explicit `dialect` (not vanilla),
/// then syntax only a variant's compiler accepts, then its path.
pub fn detect(
    path: Option<&Path>,
    file: Option<&SourceFile>,
    dialect: Option<Dialect>,
) -> Option<Detected> {
    if let Some(d) = dialect.filter(|&d| d != Dialect::Vanilla) {
        return Some(from_dialect(
            d,
            format!("it is read as `--dialect {}`", d.name()),
        ));
    }
    if let Some(d) = file.and_then(Dialect::guess) {
        return Some(from_dialect(d, format!("it uses {}'s syntax", d.title())));
    }
    path.and_then(from_path)
}

/// `a` or `an` before a game's name, as it is spoken.
pub fn article(title: &str) -> &'static str {
    match title.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// How to ask for `dialect` on the command line: its game's `--target`
/// (which brings the dialect, the limits and the loader), else the dialect.
pub fn option_for(dialect: Dialect) -> String {
    match target_of(dialect) {
        Some(t) => format!("--target {}", t.name()),
        None => format!("--dialect {}", dialect.name()),
    }
}

/// The note for a file that looks like `found`'s, handled as `used`'s;
/// `None` when they are the same game.
pub fn mismatch_note(found: &Detected, used: Target, doing: &str) -> Option<String> {
    if found.target == Some(used) {
        return None;
    }
    let game = used.game().title;
    Some(match found.target {
        Some(t) => format!(
            "this looks like {} {} file ({}), {doing} with {game}'s rules; for {}'s own, use `--target {}`",
            article(found.title),
            found.title,
            found.evidence,
            found.title,
            t.name()
        ),
        None => format!(
            "this looks like {} {} file ({}); dgnkit does not reproduce {}'s game, so this is {game}'s answer for it, not the game's (an approximation)",
            article(found.title),
            found.title,
            found.evidence,
            found.title
        ),
    })
}

/// How a user asks for a game: on the command line, or in an editor's
/// settings (the language server's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `--target F`.
    Option,
    /// A setting's key (`dgnkit.target`) and its value.
    Setting(&'static str),
}

impl Ask {
    /// "`--target unnethack`" or "`dgnkit.target` \"unnethack\"".
    fn target(self, t: Target) -> String {
        match self {
            Ask::Option => format!("`--target {}`", t.name()),
            Ask::Setting(key) => format!("`{key}` \"{}\"", t.name()),
        }
    }

    /// What the note advises, after "this looks like a ... file (...)".
    fn advice(self, t: Target) -> String {
        match self {
            Ask::Option => format!("try {}", self.target(t)),
            Ask::Setting(key) => format!("set `{key}` to \"{}\"", t.name()),
        }
    }
}

/// `dgn check`'s note (N0001, at the file's start) for a file whose path
/// names a variant, checked without `--target` or `--dialect`: it was
/// checked with another game's language and limits.
pub fn path_note(path: &Path, used: Target) -> Option<crate::grammar::Diagnostic> {
    family_note(&from_path(path)?, used, Ask::Option)
}

/// The note N0001 (at the file's start) for a file that looks like
/// `found`'s, checked with `used`'s language and limits; `None` when they
/// are the same game. `ask` words the remedy for where the user is.
pub fn family_note(found: &Detected, used: Target, ask: Ask) -> Option<crate::grammar::Diagnostic> {
    if found.target == Some(used) {
        return None;
    }
    let game = used.game().title;
    let looks = format!(
        "this looks like {} {} file ({})",
        article(found.title),
        found.title,
        found.evidence
    );
    let (message, how) = match found.target {
        Some(t) => (
            format!("{looks}; {}", ask.advice(t)),
            format!(
                "it was checked with {game}'s language and limits; {} brings {}'s",
                ask.target(t),
                found.title
            ),
        ),
        None => (
            looks,
            format!(
                "it was checked with {game}'s language and limits; dgnkit has no target for {}'s game (`dgn explain --dialects` lists the dialects it reads)",
                found.title
            ),
        ),
    };
    Some(crate::grammar::Diagnostic {
        severity: crate::grammar::Severity::Note,
        code: crate::check::codes::DIALECT_SUGGESTION,
        lint: None,
        message,
        span: crate::grammar::Span::new(0, 0),
        labels: Vec::new(),
        notes: vec![how],
        fix: None,
    })
}
